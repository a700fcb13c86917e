//===- Clones.cpp - the user's functions, for the views -------------------===//
#include "emit/Clones.h"

#include "emit/HeapRoutes.h"
#include "emit/RuntimeNames.h"
#include "support/AstHelpers.h"
#include "support/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace soaview {

namespace {
/// The declaration whose text a callee's clone copies: for a member of a
/// class template specialization, the member of the template.
const FunctionDecl *textOf(const FunctionDecl *FD) {
  return writtenFunction(FD);
}

/// The element type as the clone's template head names it: qualified from
/// the global namespace (the head precedes the declarator, so an
/// out-of-line definition's scope does not apply yet), or as written where
/// it is a template parameter of the member's class.
std::string headSpelling(QualType Param, const CXXRecordDecl *Element,
                         const std::string &Written, const EmitContext &Emit) {
  QualType T = Param.getNonReferenceType();
  if (!T->getPointeeType().isNull())
    T = T->getPointeeType();
  if (isa<TemplateTypeParmType>(T.getCanonicalType()))
    return Written;
  return Emit.Types.name(compat::recordType(Emit.Ast, Element));
}
} // namespace

bool CloneEmitter::collect(const NestPlan &Nest) {
  ++CollectedNests; // plans are not kept: nests are told apart by number
  for (const CalleeUse &U : Nest.Callees) {
    if (!U.NeedsClone) {
      if (!inPlace(Nest, U))
        return false;
      continue;
    }
    const FunctionDecl *Text = textOf(U.FD);
    auto [It, New] = RequestOf.insert({Text, Requests.size()});
    if (New)
      Requests.push_back({Text});
    Request &Wanted = Requests[It->second];
    for (unsigned I = 0; I < U.ParamViews.size(); ++I)
      if (U.ParamViews[I] >= 0)
        Wanted.ElementParams[I] = Nest.Loops[U.ParamViews[I]].View.Element;
    Wanted.Device |= Nest.offloads();
    if (!Wanted.Nests.insert(CollectedNests).second)
      continue; // the nest's edits are in already (another binding)
    for (const Expr *E : Nest.identities())
      Wanted.Identities.push_back(E);
    for (const MemberExpr *ME : Nest.qualifiedMembers())
      Wanted.Qualified.push_back(ME);
    for (const HeapRoute &H : Nest.heapRoutes())
      Wanted.Routes.push_back(H);
    llvm::append_range(Wanted.TableRefs, Nest.tableRefs());
    for (const LoopPlan &L : Nest.Loops)
      for (const VarDecl *V : L.View.Aliases)
        Wanted.Aliases.push_back({V, L.View.Element});
  }
  return true;
}

/// A lambda's parameters that take the element by its own type become
/// generic where it is written: `P &a` -> `auto &a`, `const P *q` ->
/// `const auto *q` (analysis/TypedLambdas.cpp checked that every call passes
/// exactly that type, so that the lambda means what it did).
void CloneEmitter::autoParams(const NestPlan &Nest, const CalleeUse &U,
                              TextEdits &Edits) const {
  const FunctionDecl *Written = textOf(U.FD);
  for (unsigned I : U.AutoParams) {
    TypeSourceInfo *TSI = Written->getParamDecl(I)->getTypeSourceInfo();
    CharSourceRange Type = elementTypeRange(
        TSI->getTypeLoc(), Nest.Loops[U.ParamViews[I]].View.Element, Emit.SM,
        Emit.Lang);
    if (Type.isValid())
      Edits.push_back({Type, "auto"});
  }
}

/// A function template the views instantiate: element address comparisons
/// compare the originals (identity() of a pointer that is not a view is the
/// pointer), and a local alias naming the element type takes `auto`, in the
/// template's own text (once per place), as do a lambda's parameters that
/// take the element by its own type.
bool CloneEmitter::inPlace(const NestPlan &Nest, const CalleeUse &U) {
  CharSourceRange Range = Emit.Source.declRange(textOf(U.FD));
  TextEdits Edits;
  Emit.identityEdits(Range, Nest.identities(), Edits);
  Emit.unqualifyEdits(Range, Nest.qualifiedMembers(), Edits);
  autoParams(Nest, U, Edits);
  for (const LoopPlan &L : Nest.Loops)
    for (const VarDecl *V : L.View.Aliases)
      if (Emit.Source.inside(V->getLocation(), Range))
        if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
          CharSourceRange Type = recordTypeRange(
              TSI->getTypeLoc(), L.View.Element, Emit.SM, Emit.Lang);
          if (Type.isValid())
            Edits.push_back({Type, "auto"});
        }
  for (auto &[R, Text] : Edits) {
    SourceLocation Begin = R.getBegin();
    if (!EditedInPlace.insert(Begin.getRawEncoding()).second)
      continue;
    EditBuffer *Buffer = Emit.Files.bufferFor(Begin);
    if (!Buffer)
      return false;
    unsigned From = Emit.Source.offset(Begin),
             To = Emit.Source.offset(R.getEnd());
    if (Text == "auto" || Text.empty()) { // a type, a qualifier taken out
      Buffer->replace(From, To, Text);
      continue;
    }
    Buffer->insert(From, std::string(rt::Identity) + "(");
    Buffer->insert(To, ")");
  }
  return true;
}

/// The clone's template parameters for the element parameters (index,
/// element type as the head names it): `class soaview_E0, ...,
/// ::soaview::if_views<::soaview::stands_for<soaview_E0, P>, ...>`, with
/// ` = 0` where no declaration before gave it.
std::string CloneEmitter::templateParams(
    const std::vector<std::pair<unsigned, std::string>> &Params,
    bool Default) const {
  std::string Names, Checks;
  for (auto &[I, Element] : Params) {
    std::string Name = Emit.Names.cloneParameter(I);
    Names += "class " + Name + ", ";
    Checks += fill("${Sep}::soaview::stands_for<${Name}, ${Element}>",
                   {{"Sep", Checks.empty() ? "" : ", "},
                    {"Name", Name},
                    {"Element", Element}});
  }
  return fill("${Names}::soaview::if_views<${Checks}>${Default}",
              {{"Names", Names},
               {"Checks", Checks},
               {"Default", Default ? " = 0" : ""}});
}

/// Where the clone's template parameters go: a template of its own before
/// the declaration specifiers (`template <...> void f(soaview_E0 &p)`), or,
/// for a function template, the end of its template parameter list
/// (`template <bool N, class soaview_E0, ...>`; its explicit arguments
/// still name its own parameters first). Clones are always inlined
/// (rt::AlwaysInline): a view passed to a call that is not inlined is built
/// in memory, which made AutoPas's SPH force functor 1.9x slower than plain.
void CloneEmitter::headEdit(const FunctionDecl *Decl, const std::string &Params,
                            bool Device, TextEdits &Edits) const {
  SourceLocation Inner = Decl->getInnerLocStart();
  std::string Mark = Emit.Target.declarations().deviceMark(Device) +
                     std::string(rt::AlwaysInline) + " ";
  if (Emit.Target.declarations().inlineWithAlwaysInline() &&
      !Decl->isInlineSpecified())
    Mark += "inline ";
  const FunctionTemplateDecl *Template = Decl->getDescribedFunctionTemplate();
  if (!Template) {
    Edits.push_back({CharSourceRange::getCharRange(Inner, Inner),
                     "template <" + Params + "> " + Mark});
    return;
  }
  const TemplateParameterList *List = Template->getTemplateParameters();
  SourceLocation RAngle = List->getRAngleLoc();
  Edits.push_back({CharSourceRange::getCharRange(RAngle, RAngle),
                   (List->size() ? ", " : "") + Params});
  Edits.push_back({CharSourceRange::getCharRange(Inner, Inner), Mark});
}

/// A member function's clone is a plain member template: no `virtual`,
/// `override` or `final`.
void CloneEmitter::memberEdits(const FunctionDecl *Decl,
                               TextEdits &Edits) const {
  const auto *MD = dyn_cast<CXXMethodDecl>(Decl);
  if (!MD)
    return;
  // The word and a space after it, else a space before it (a declaration
  // copied from its first word has none before).
  auto Drop = [&](SourceLocation L) {
    if (L.isInvalid() || L.isMacroID())
      return;
    SourceLocation End = Lexer::getLocForEndOfToken(L, 0, Emit.SM, Emit.Lang);
    SourceLocation Before = L.getLocWithOffset(-1),
                   After = End.getLocWithOffset(1);
    if (Emit.Source.text(CharSourceRange::getCharRange(End, After)) == " ")
      End = After;
    else if (Emit.Source.text(CharSourceRange::getCharRange(Before, L)) == " ")
      L = Before;
    Edits.push_back({CharSourceRange::getCharRange(L, End), ""});
  };
  if (const auto *A = MD->getAttr<OverrideAttr>(); A && !A->isImplicit())
    Drop(A->getLocation());
  if (const auto *A = MD->getAttr<FinalAttr>(); A && !A->isImplicit())
    Drop(A->getLocation());
  // `virtual` among the declaration specifiers, before the name.
  SourceLocation Begin = MD->getInnerLocStart(), Name = MD->getLocation();
  if (Begin.isMacroID() || Name.isMacroID())
    return;
  std::string Specifiers =
      Emit.Source.text(CharSourceRange::getCharRange(Begin, Name));
  for (size_t At = Specifiers.find("virtual"); At != std::string::npos;
       At = Specifiers.find("virtual", At + 1)) {
    bool Word = (At == 0 || !isAsciiIdentifierContinue(Specifiers[At - 1])) &&
                (At + 7 >= Specifiers.size() ||
                 !isAsciiIdentifierContinue(Specifiers[At + 7]));
    if (Word)
      Drop(Begin.getLocWithOffset(At));
  }
}

/// The text of the clone of R's function made from its declaration Decl:
/// the template head before the declaration specifiers, the element
/// parameters' types replaced by the head's parameters; a definition also
/// gets its local aliases of the element as `auto`, element address
/// comparisons wrapped and allocation routed as the nests need.
bool CloneEmitter::copy(const Request &Wanted, const FunctionDecl *Decl,
                        bool Definition, bool WithDefault,
                        std::string &Text) const {
  const clang::Decl *Whole = Decl;
  if (const FunctionTemplateDecl *Template =
          Decl->getDescribedFunctionTemplate())
    Whole = Template; // from its `template <...>`
  CharSourceRange Range = Emit.Source.declRange(Whole);
  TextEdits Edits;
  std::vector<std::pair<unsigned, std::string>> Params;
  for (auto &[I, Element] : Wanted.ElementParams) {
    if (I >= Decl->getNumParams())
      return false;
    TypeSourceInfo *TSI = Decl->getParamDecl(I)->getTypeSourceInfo();
    CharSourceRange Type =
        TSI ? elementTypeRange(TSI->getTypeLoc(), Element, Emit.SM, Emit.Lang)
            : CharSourceRange();
    if (Type.isInvalid())
      return false;
    Params.push_back({I, headSpelling(Decl->getParamDecl(I)->getType(), Element,
                                      Emit.Source.text(Type), Emit)});
    Edits.push_back({Type, Emit.Names.cloneParameter(I)});
  }
  headEdit(Decl, templateParams(Params, WithDefault), Wanted.Device, Edits);
  memberEdits(Decl, Edits);
  if (Definition) {
    for (auto &[V, Element] : Wanted.Aliases)
      if (Emit.Source.inside(V->getLocation(), Range))
        if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
          CharSourceRange Type =
              recordTypeRange(TSI->getTypeLoc(), Element, Emit.SM, Emit.Lang);
          if (Type.isValid())
            Edits.push_back({Type, "auto"});
        }
    Emit.identityEdits(Range, Wanted.Identities, Edits);
    Emit.unqualifyEdits(Range, Wanted.Qualified, Edits);
    routeEditsIn(Emit, Wanted.Routes, Range, Edits);
    Emit.tableEdits(Wanted.TableRefs, Edits, Range);
  }
  std::string Clone = Emit.Source.lineDirective(Range.getBegin()) +
                      Emit.Source.withEdits(Range, Edits) +
                      (Definition ? "" : ";");
  const auto *Linkage =
      dyn_cast<LinkageSpecDecl>(Decl->getLexicalDeclContext());
  if (Linkage && Linkage->getLanguage() == LinkageSpecLanguageIDs::C)
    Clone = fill("extern \"C++\" {\n${Clone}\n}", // templates: C++ linkage
                 {{"Clone", Clone}});
  Text = "// soaview: clone of '" + Decl->getQualifiedNameAsString() +
         "' for soaview's views\n" +
         Emit.Target.declarations().declareTargetBegin(Wanted.Device) + Clone +
         "\n" + Emit.Target.declarations().declareTargetEnd(Wanted.Device);
  return true;
}

/// Inserts Text after the declaration Decl (after its body, or its `;`).
bool CloneEmitter::insertAfter(const FunctionDecl *Decl,
                               const std::string &Text, bool Device) {
  SourceLocation After;
  if (Decl->doesThisDeclarationHaveABody())
    After = Emit.Source.afterStmt(Decl->getBody());
  else
    After = Emit.Source.afterSemi(Emit.Source.fileEnd(Decl->getEndLoc()));
  EditBuffer *Buffer = Emit.Files.bufferFor(After);
  if (!Buffer)
    return false;
  Buffer->insert(Emit.Source.offset(Emit.SM.getFileLoc(After)), "\n" + Text);
  return true;
}

/// A function of internal linkage whose calls with elements now go to its
/// clone may have no call left in the converted program: a constant that
/// holds its address keeps -Wunused-function quiet about the user's code.
std::string CloneEmitter::keepOriginal(const FunctionDecl *Def) const {
  if (isa<CXXMethodDecl>(Def) || Def->isExternallyVisible() ||
      Def->getDescribedFunctionTemplate() || Def->isTemplateInstantiation())
    return "";
  std::string Name = Emit.Names.keep(Def->getLocation());
  // A deduced return type may name what only the body can (a local alias,
  // a namespace's own spelling): the pointer takes `auto`, which names one
  // function only where the name is not overloaded.
  std::string Declaration = "auto " + Name;
  if (!Def->getDeclaredReturnType()->getContainedDeducedType())
    Declaration =
        Emit.Types.declare(Emit.Ast.getPointerType(Def->getType()), Name);
  else if (!Def->getDeclContext()->lookup(Def->getDeclName()).isSingleResult())
    return "";
  return fill("[[maybe_unused]] static constexpr ${Declaration} = "
              "&${Function};\n",
              {{"Declaration", Declaration}, {"Function", Def->getName()}});
}

bool CloneEmitter::write(const Request &Wanted) {
  const FunctionDecl *Def = Wanted.Text;
  const FunctionDecl *First = firstOrdinaryDeclaration(Def);
  std::string Declaration, Definition;
  bool OK = First && copy(Wanted, Def, true, First == Def, Definition);
  if (OK && First != Def)
    OK = copy(Wanted, First, false, true, Declaration);
  if (!OK) { // checkPlacement refuses what would end here first
    Emit.Diags.report(Def->getLocation(),
                      {diag::err_internal_emit, {"no place for a clone"}});
    return false;
  }
  if (First != Def && !insertAfter(First, Declaration, Wanted.Device))
    return false;
  return insertAfter(Def, keepOriginal(Def) + Definition, Wanted.Device);
}

bool CloneEmitter::finish() {
  bool OK = true;
  for (const Request &R : Requests)
    OK &= write(R);
  Requests.clear();
  RequestOf.clear();
  return OK;
}

bool CloneEmitter::markDeviceFunctions(const NestPlan &Nest) {
  for (const FunctionDecl *FD : Nest.deviceFunctions()) {
    if (!MarkedDevice.insert(FD->getCanonicalDecl()).second)
      continue;
    for (const FunctionDecl *Decl : FD->redecls()) {
      SourceLocation L = Emit.SM.getFileLoc(Decl->getInnerLocStart());
      EditBuffer *Buffer = Emit.Files.bufferFor(L);
      if (!Buffer)
        return false;
      Buffer->insert(Emit.SM.getFileOffset(L),
                     Emit.Target.declarations().deviceMark(true));
    }
  }
  return true;
}

} // namespace soaview
