//===- ViewMembers.cpp - what a view copies and forwards of its class ----===//
//
// The member functions a view copies from the element's class, edited to
// mean in the view what they meant in the class, and the forwards of the
// class's static names, nested types and template arguments that function
// templates receiving the view reach through it (CopiedMembers,
// emit/ViewParts.h).
//===----------------------------------------------------------------------===//
#include "emit/ViewParts.h"

#include "emit/Chunks.h"
#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"
#include "support/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>

using namespace clang;

namespace soaview {

namespace {

/// Function templates receiving the proxy reach the element class's names
/// through it (`T::eos(u)`, `typename T::Real`, `q->Gamma`): every public
/// static function, constant, enumerator and nested type is forwarded.
/// Static variables only where a copied member function uses them:
/// forwarding one odr-uses it. CopiedMembers::forwarders spells each kind.
void publicStaticNames(const RecordDecl *RD,
                       std::vector<const NamedDecl *> &Found) {
  for (const Decl *D : RD->decls()) {
    const auto *ND = dyn_cast<NamedDecl>(D);
    if (!ND || ND->isImplicit() ||
        (ND->getAccess() != AS_public && ND->getAccess() != AS_none))
      continue;
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(ND))
      ND = FT->getTemplatedDecl();
    const auto *V = dyn_cast<VarDecl>(ND);
    const auto *MD = dyn_cast<CXXMethodDecl>(ND);
    if (isa<FieldDecl>(ND) || (MD && !MD->isStatic()) ||
        (V && !V->isConstexpr() && !V->getType().isConstQualified()))
      continue;
    Found.push_back(ND);
    if (const auto *ED = dyn_cast<EnumDecl>(ND); ED && !ED->isScoped())
      Found.insert(Found.end(), ED->enumerator_begin(), ED->enumerator_end());
  }
}

/// The names a copied member function uses: variables, static member
/// functions, typedefs and tags.
struct UsedNames : RecursiveASTVisitor<UsedNames> {
  std::vector<const NamedDecl *> Found;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Found.push_back(E->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(E->getMemberDecl()))
      if (MD->isStatic())
        Found.push_back(MD);
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    Found.push_back(compat::typedefDecl(TL));
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    Found.push_back(TL.getDecl());
    return true;
  }
};

/// True when D is a name of class RD (or of one of its bases): a member,
/// or an unscoped enumerator of a member enumeration.
bool nameOfClass(const Decl *D, const RecordDecl *RD) {
  const DeclContext *DC = D->getDeclContext();
  if (isa<EnumConstantDecl>(D) && !cast<EnumDecl>(DC)->isScoped())
    DC = DC->getParent(); // unscoped enumerators are the class's names
  const auto *C = dyn_cast<CXXRecordDecl>(DC);
  if (!C)
    return false;
  const auto *Own = dyn_cast<CXXRecordDecl>(RD);
  return C->getCanonicalDecl() == RD->getCanonicalDecl() ||
         (Own && Own->isDerivedFrom(C));
}

/// The edits that make a copied member function mean in the view what it
/// meant in its class: the class template's parameters spelt as their
/// arguments, names of a namespace the view is not in qualified, and
/// qualifiers naming the element or a base dropped (the view has the
/// member).
class MethodNames : public RecursiveASTVisitor<MethodNames> {
public:
  MethodNames(const EmitContext &Emit, const CXXMethodDecl *MD,
              const CXXRecordDecl *Element, TextEdits &Edits)
      : Emit(Emit), Element(Element), Edits(Edits) {
    if (const auto *CTS =
            dyn_cast<ClassTemplateSpecializationDecl>(MD->getParent())) {
      Args = &CTS->getTemplateArgs();
      Depth =
          CTS->getSpecializedTemplate()->getTemplateParameters()->getDepth();
    }
    const DeclContext *Own = namespaceOf(MD->getParent());
    const DeclContext *View = namespaceOf(Element);
    Qualify = Own != View;
    for (const DeclContext *DC = View; DC; DC = DC->getParent())
      Visible.insert(DC);
  }

  bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc TL) {
    const TemplateTypeParmType *T = TL.getTypePtr();
    if (Args && T->getDepth() == Depth && T->getIndex() < Args->size() &&
        (*Args)[T->getIndex()].getKind() == TemplateArgument::Type)
      replaceToken(TL.getNameLoc(),
                   Emit.Types.name((*Args)[T->getIndex()].getAsType()));
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (const auto *NT = dyn_cast<NonTypeTemplateParmDecl>(D)) {
      if (Args && NT->getDepth() == Depth && NT->getIndex() < Args->size() &&
          (*Args)[NT->getIndex()].getKind() == TemplateArgument::Integral)
        replaceToken(
            E->getLocation(),
            llvm::toString((*Args)[NT->getIndex()].getAsIntegral(), 10));
      return true;
    }
    if (E->hasQualifier())
      return dropElementQualifier(E->getQualifierLoc(), E->getLocation());
    if (Qualify && inForeignNamespace(D))
      replaceToken(E->getLocation(), "::" + D->getQualifiedNameAsString());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (E->hasQualifier())
      dropElementQualifier(E->getQualifierLoc(), E->getMemberLoc());
    exposeForeign(E);
    return true;
  }

  /// Locals bound to the element: the view in the copy.
  const llvm::SetVector<const VarDecl *> *Aliases = nullptr;
  /// The call returning a private field's member pointer.
  std::function<std::string(const FieldDecl *)> Expose;
  /// `Cluster` inside class template Cluster's own text names the
  /// specialization: spelled out in the view, which is another class.
  bool VisitInjectedClassNameTypeLoc(InjectedClassNameTypeLoc TL) {
    if (const CXXRecordDecl *S = specializationOf(TL.getDecl()))
      replaceToken(TL.getNameLoc(),
                   Emit.Types.name(compat::recordType(Emit.Ast, S)));
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    if (Qualify && inForeignNamespace(TL.getDecl()) &&
        !qualifiedAt(TL.getNameLoc()))
      replaceToken(TL.getNameLoc(),
                   "::" + TL.getDecl()->getQualifiedNameAsString());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    const NamedDecl *D = compat::typedefDecl(TL);
    if (Qualify && inForeignNamespace(D) && !qualifiedAt(TL.getNameLoc()))
      replaceToken(TL.getNameLoc(), "::" + D->getQualifiedNameAsString());
    return true;
  }

private:
  /// The element, or the base of it, that specializes the class template
  /// whose pattern is Pattern.
  const CXXRecordDecl *specializationOf(const CXXRecordDecl *Pattern) const {
    auto Of = [&](const CXXRecordDecl *C) {
      const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(C);
      return S && S->getSpecializedTemplate()
                          ->getTemplatedDecl()
                          ->getCanonicalDecl() == Pattern->getCanonicalDecl();
    };
    if (Of(Element))
      return Element;
    const CXXRecordDecl *Found = nullptr;
    Element->forallBases([&](const CXXRecordDecl *Base) {
      if (Of(Base))
        Found = Base;
      return !Found;
    });
    return Found;
  }
  /// D is declared at namespace scope, in a namespace that does not enclose
  /// the view.
  bool inForeignNamespace(const Decl *D) const {
    const DeclContext *DC = D->getDeclContext();
    if (const auto *ED = dyn_cast<EnumDecl>(DC); ED && !ED->isScoped())
      DC = ED->getDeclContext();
    return DC->isFileContext() && !Visible.count(DC) &&
           !isa<TranslationUnitDecl>(DC);
  }
  /// The token at L follows `::` (a qualified name: found wherever it is).
  bool qualifiedAt(SourceLocation L) const {
    if (L.isMacroID())
      return true;
    auto [File, Offset] = Emit.SM.getDecomposedLoc(L);
    StringRef Text = Emit.SM.getBufferData(File);
    StringRef Before = Text.substr(0, Offset).rtrim();
    return Before.ends_with("::");
  }
  /// A private or protected field of another object of the class
  /// (`Max.a_`, `other.id_`): the view is another class, so the copy
  /// reaches it through a member pointer, `(Max.*m(tag{}))`.
  void exposeForeign(const MemberExpr *E) {
    const auto *F = dyn_cast<FieldDecl>(E->getMemberDecl());
    if (!F || !Expose || E->hasQualifier() || F->getAccess() == AS_public ||
        F->getAccess() == AS_none ||
        E->getMemberNameInfo().getLoc().isMacroID())
      return;
    const auto *Base =
        dyn_cast<DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
    const auto *V = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    const CXXRecordDecl *Parent = cast<CXXRecordDecl>(F->getParent());
    if (!V || (Aliases && Aliases->count(V)) ||
        !isElementOrBase(Parent, Element) || E->getBeginLoc().isMacroID())
      return;
    Edits.push_back(
        {CharSourceRange::getCharRange(E->getBeginLoc(), E->getBeginLoc()),
         "("});
    Edits.push_back(
        {CharSourceRange::getCharRange(
             E->getOperatorLoc(),
             Lexer::getLocForEndOfToken(E->getMemberLoc(), 0, Emit.SM,
                                        Emit.Lang)),
         std::string(E->isArrow() ? "->*" : ".*") + Expose(F) + ")"});
  }
  bool dropElementQualifier(NestedNameSpecifierLoc Q, SourceLocation Name) {
    const Type *T = compat::qualifierType(Q);
    const RecordDecl *RD = T ? T->getAsCXXRecordDecl() : nullptr; // also
    // a class template's injected name
    if (RD && isElementOrBase(RD, Element))
      if (std::optional<CharSourceRange> R =
              writtenQualifier(Emit.SM, Q.getBeginLoc(), Name))
        Edits.push_back({*R, ""});
    return true;
  }
  void replaceToken(SourceLocation L, std::string Text) {
    if (L.isMacroID())
      return;
    Edits.push_back(
        {CharSourceRange::getCharRange(
             L, Lexer::getLocForEndOfToken(L, 0, Emit.SM, Emit.Lang)),
         std::move(Text)});
  }

  const EmitContext &Emit;
  const CXXRecordDecl *Element;
  TextEdits &Edits;
  const TemplateArgumentList *Args = nullptr;
  unsigned Depth = 0;
  bool Qualify = false;
  std::set<const DeclContext *> Visible;
};

} // namespace

void CopiedMembers::methodEdits(const ViewGroup &G, const CXXMethodDecl *MD,
                                TextEdits &Edits) const {
  const FunctionDecl *Pattern = MD->getTemplateInstantiationPattern();
  MethodNames Names(Emit, MD, G.Union.Element, Edits);
  Names.Aliases = &G.Union.Aliases;
  Names.Expose = [&](const FieldDecl *F) {
    return Access.exposed(G, FieldPath{F});
  };
  Names.TraverseDecl(const_cast<FunctionDecl *>(Pattern ? Pattern : MD));
}

std::string CopiedMembers::methodText(const NestPlan &Nest, const ViewGroup &G,
                                      const CXXMethodDecl *MD,
                                      const std::string &ProxyName) const {
  const SourceManager &SM = Emit.SM;
  CharSourceRange Range = Emit.Source.declRange(MD);
  TextEdits Edits;
  Emit.Source.unqualify(MD, Edits);
  if (TypeSourceInfo *TSI = MD->getTypeSourceInfo())
    if (auto FTL = TSI->getTypeLoc().getAsAdjusted<FunctionTypeLoc>()) {
      CharSourceRange Returned =
          recordTypeRange(FTL.getReturnLoc(), MD->getParent(), SM, Emit.Lang);
      if (Returned.isValid())
        Edits.push_back({Returned, ProxyName});
    }
  for (const VarDecl *V : G.Union.Aliases)
    if (Emit.Source.inside(V->getLocation(), Range))
      if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
        CharSourceRange Alias =
            recordTypeRange(TSI->getTypeLoc(), MD->getParent(), SM, Emit.Lang);
        if (Alias.isValid())
          Edits.push_back({Alias, ProxyName});
      }
  Emit.copyEdits(Nest, Range, Edits);
  methodEdits(G, MD, Edits);
  return Emit.Source.lineDirective(Range.getBegin()) +
         Emit.Target.declarations().deviceMark(G.Device) +
         Emit.Source.withEdits(Range, Edits) + "\n";
}

/// The forward of a static data member, by what it is: a reference that
/// keeps an array's type (sizeof, extent), a constant's value, a reference
/// to a constant defined elsewhere (`static const T Max;`), or to the
/// variable.
static StringRef staticMemberForward(const VarDecl *V, ASTContext &Ast) {
  if (V->getType()->isArrayType())
    return "[[maybe_unused]] static constexpr const auto &${Name} = "
           "${Class}::${Name};";
  if (V->isConstexpr() || (V->getType().isConstQualified() &&
                           V->isUsableInConstantExpressions(Ast)))
    return "[[maybe_unused]] static constexpr auto ${Name} = "
           "${Class}::${Name};";
  if (V->getType().isConstQualified())
    return "[[maybe_unused]] static constexpr const auto &${Name} = "
           "${Class}::${Name};";
  return "[[maybe_unused]] static inline auto &${Name} = ${Class}::${Name};";
}

/// Names of the original class that copied member functions may use
/// unqualified: static members, enumerators, nested types, template
/// parameters. Each becomes a forward to the original (a private or
/// protected alias: to what it stands for).
void CopiedMembers::forwarders(CodeWriter &W, const ViewGroup &G,
                               const ProxyNode &N) const {
  const RecordDecl *RD =
      N.Field ? N.Field->getType()->getAsRecordDecl() : G.Union.Element;
  std::string Class = Emit.Types.name(compat::recordType(Emit.Ast, RD));
  UsedNames Used;
  auto Methods = G.Union.Methods.find(N.Path);
  if (Methods != G.Union.Methods.end())
    for (const CXXMethodDecl *MD : Methods->second)
      Used.TraverseDecl(const_cast<CXXMethodDecl *>(MD));
  publicStaticNames(RD, Used.Found);
  std::set<std::string> Done;
  for (const NamedDecl *D : Used.Found) {
    if (!nameOfClass(D, RD) || !D->getIdentifier() ||
        !Done.insert(D->getName().str()).second)
      continue;
    std::string Name = D->getName().str();
    auto Forward = [&](StringRef Pattern) {
      W.line(fill(Pattern, {{"Name", Name}, {"Class", Class}}));
    };
    bool Hidden =
        D->getAccess() == AS_private || D->getAccess() == AS_protected;
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (V->isStaticDataMember())
        Forward(staticMemberForward(V, Emit.Ast));
    } else if (isa<EnumConstantDecl>(D)) {
      Forward("[[maybe_unused]] static constexpr auto ${Name} = "
              "${Class}::${Name};");
    } else if (const auto *MD = dyn_cast<CXXMethodDecl>(D)) {
      // Viable only for the static overloads: a call matching a non-static
      // member of the same name takes the copied member.
      if (MD->isStatic())
        W.line(fill("template <class... A> static ${Mark}auto ${Name}(A &&...a)"
                    " -> decltype(${Class}::${Name}(static_cast<A &&>(a)...)) "
                    "{ return ${Class}::${Name}(static_cast<A &&>(a)...); }",
                    {{"Mark", Emit.Target.declarations().deviceMark(G.Device)},
                     {"Name", Name},
                     {"Class", Class}}));
    } else if (const auto *TD = dyn_cast<TypedefNameDecl>(D); TD && Hidden) {
      W.line(
          fill("using ${Name} = ${Type};",
               {{"Name", Name},
                {"Type", Emit.Types.name(compat::typedefType(Emit.Ast, TD))}}));
    } else if ((isa<TypeDecl>(D) && !isa<CXXRecordDecl>(D)) ||
               (isa<CXXRecordDecl>(D) && D != RD)) {
      Forward("using ${Name} = ${Class}::${Name};");
    }
  }
  templateArguments(W, RD);
}

/// The template parameters of a class template specialization, as the
/// names its copied member functions use.
void CopiedMembers::templateArguments(CodeWriter &W,
                                      const RecordDecl *RD) const {
  const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!CTS)
    return;
  const TemplateParameterList *Params =
      CTS->getSpecializedTemplate()->getTemplateParameters();
  const TemplateArgumentList &Args = CTS->getTemplateArgs();
  for (unsigned I = 0; I < Params->size() && I < Args.size(); ++I) {
    const NamedDecl *Param = Params->getParam(I);
    if (!Param->getIdentifier())
      continue;
    std::string Name = Param->getName().str();
    if (Args[I].getKind() == TemplateArgument::Type)
      W.line(fill(
          "using ${Name} = ${Type};",
          {{"Name", Name}, {"Type", Emit.Types.name(Args[I].getAsType())}}));
    else if (Args[I].getKind() == TemplateArgument::Integral)
      W.line(
          fill("[[maybe_unused]] static constexpr ${Type} ${Name} = ${Value};",
               {{"Type", Emit.Types.name(Args[I].getIntegralType())},
                {"Name", Name},
                {"Value", llvm::toString(Args[I].getAsIntegral(), 10)}}));
  }
}

} // namespace soaview
