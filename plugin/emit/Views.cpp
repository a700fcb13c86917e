//===- Views.cpp - the proxy view and the spec of a loop ------------------===//
#include "emit/Views.h"

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

/// The name a view gives the field F: its own, or for an anonymous union
/// held whole (isUnionLeaf) `soaview_u<index>`.
std::string memberName(const FieldDecl *F) {
  if (F->isAnonymousStructOrUnion())
    return "soaview_u" + std::to_string(F->getFieldIndex());
  return F->getName().str();
}

/// Name of the SoA buffer of a leaf: the path joined with '_' (identifiers
/// stay valid; nothing is stripped, so `p` and `p_` stay distinct).
std::string bufferName(const FieldPath &P) {
  std::string S;
  for (const FieldDecl *F : P)
    if (!F->isAnonymousStructOrUnion() || (F == P.back() && isUnionLeaf(P)))
      S += (S.empty() ? "" : "_") + memberName(F);
  return S;
}

/// The path as the view's code names it: `kin.soaview_u2` for a union held
/// whole.
std::string viewMember(const FieldPath &P) {
  if (!isUnionLeaf(P))
    return dotted(P);
  std::string Prefix = dotted(FieldPath(P.begin(), P.end() - 1));
  return (Prefix.empty() ? "" : Prefix + ".") + memberName(P.back());
}

/// Function templates receiving the proxy reach the element class's names
/// through it (`T::eos(u)`, `typename T::Real`, `q->Gamma`): every public
/// static function, constant, enumerator and nested type is forwarded.
/// Static variables only where a copied member function uses them:
/// forwarding one odr-uses it. ViewEmitter::forwarders spells each kind.
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

} // namespace

//--- Which loops share a view
//--------------------------------------------------

namespace {

bool isPrefixOf(const FieldPath &Pre, const FieldPath &P) {
  return Pre.size() < P.size() && std::equal(Pre.begin(), Pre.end(), P.begin());
}

/// A member of that type can be left unset by a loop's constructor.
bool defaultConstructible(QualType T) {
  const auto *RD = T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  return !RD || !RD->hasDefinition() || RD->hasDefaultConstructor();
}

} // namespace

ViewGroup ViewEmitter::groupOf(const NestPlan &Nest, size_t Loop,
                               const EmitContext &Emit) {
  auto TypeOf = [&](size_t I) {
    return Nest.Loops[I]
        .View.ElementType.getCanonicalType()
        .getUnqualifiedType();
  };
  ViewGroup G;
  for (size_t I = 0; I < Nest.Loops.size(); ++I)
    if (TypeOf(I) == TypeOf(Loop))
      G.Loops.push_back(I);
  const LoopPlan &First = Nest.Loops[G.Loops.front()];
  G.Union.Element = First.View.Element;
  G.Union.ElementType = First.View.ElementType;
  for (size_t I : G.Loops) {
    const ViewModel &V = Nest.Loops[I].View;
    for (auto &[Path, A] : V.Leaves)
      G.Union.Leaves[Path].join(A);
    for (auto &[Path, Methods] : V.Methods)
      G.Union.Methods[Path].insert(Methods.begin(), Methods.end());
    G.Union.Aliases.insert(V.Aliases.begin(), V.Aliases.end());
    G.Device |= EmitContext::onDevice(Nest.Loops[I]);
  }
  // A record one loop uses whole holds what another reads of it.
  for (auto It = G.Union.Leaves.begin(); It != G.Union.Leaves.end();) {
    auto Whole = llvm::find_if(G.Union.Leaves, [&](const auto &W) {
      return isPrefixOf(W.first, It->first);
    });
    if (Whole == G.Union.Leaves.end()) {
      ++It;
      continue;
    }
    Whole->second.join(It->second);
    It = G.Union.Leaves.erase(It);
  }
  for (auto &Leaf : G.Union.Leaves)
    if (Nest.Loops[Loop].InPlace.count(Leaf.first))
      G.InPlace.insert(Leaf.first);
  for (size_t I : G.Loops) {
    std::map<FieldPath, LeafAccess> Own;
    for (auto &[Path, A] : Nest.Loops[I].View.Leaves) {
      FieldPath Held = Path;
      for (auto &[U, UA] : G.Union.Leaves)
        if (isPrefixOf(U, Path))
          Held = U;
      if (!G.InPlace.count(Held))
        Own[Held].join(A);
    }
    G.Fields[I] = inDeclarationOrder(Own);
  }
  // A loop leaves the others' members unset: their types must allow that,
  // else each loop keeps a view of its own.
  for (size_t I : G.Loops)
    for (auto &Leaf : G.Union.Leaves)
      if (!defaultConstructible(Leaf.first.back()->getType()) &&
          !G.InPlace.count(Leaf.first) &&
          !llvm::any_of(G.Fields[I],
                        [&](auto &F) { return F.first == Leaf.first; }) &&
          G.Loops.size() > 1) {
        ViewGroup Own;
        Own.Loops = {Loop};
        Own.Union = Nest.Loops[Loop].View;
        for (auto &F : Own.Union.orderedLeaves()) {
          if (G.InPlace.count(F.first))
            Own.InPlace.insert(F.first);
          else
            Own.Fields[Loop].push_back(F);
        }
        Own.Device = EmitContext::onDevice(Nest.Loops[Loop]);
        Own.Name = Emit.Names.view(Nest.Loops[Loop]);
        return Own;
      }
  G.Name = Emit.Names.view(First);
  return G;
}

//--- The proxy ----------------------------------------------------------------

namespace {

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
    if (RD && isElementOrBase(RD, Element) && !Q.getBeginLoc().isMacroID() &&
        !Name.isMacroID())
      Edits.push_back(
          {CharSourceRange::getCharRange(Q.getBeginLoc(), Name), ""});
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

void ViewEmitter::methodEdits(const ViewGroup &G, const CXXMethodDecl *MD,
                              TextEdits &Edits, std::string &Tags) const {
  const FunctionDecl *Pattern = MD->getTemplateInstantiationPattern();
  MethodNames Names(Emit, MD, G.Union.Element, Edits);
  Names.Aliases = &G.Union.Aliases;
  Names.Expose = [&](const FieldDecl *F) {
    return exposed(G, FieldPath{F}, Tags);
  };
  Names.TraverseDecl(const_cast<FunctionDecl *>(Pattern ? Pattern : MD));
}

std::string ViewEmitter::methodText(const NestPlan &Nest, const ViewGroup &G,
                                    const CXXMethodDecl *MD,
                                    const std::string &ProxyName,
                                    std::string &Tags) const {
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
  methodEdits(G, MD, Edits, Tags);
  return Emit.Source.lineDirective(Range.getBegin()) +
         Emit.Target.deviceMark(G.Device) +
         Emit.Source.withEdits(Range, Edits) + "\n";
}

/// Names of the original class that copied member functions may use
/// unqualified: static members, enumerators, nested types, template
/// parameters. Each becomes a forward to the original (a private or
/// protected alias: to what it stands for).
void ViewEmitter::forwarders(CodeWriter &W, const ViewGroup &G,
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
      if (!V->isStaticDataMember())
        continue;
      if (V->getType()->isArrayType()) // keeps its type: sizeof, extent
        Forward("static constexpr const auto &${Name} = ${Class}::${Name};");
      else if (V->isConstexpr() || (V->getType().isConstQualified() &&
                                    V->isUsableInConstantExpressions(Emit.Ast)))
        Forward("static constexpr auto ${Name} = ${Class}::${Name};");
      else if (V->getType().isConstQualified()) // `static const T Max;`
        Forward("static constexpr const auto &${Name} = ${Class}::${Name};");
      else
        Forward("static inline auto &${Name} = ${Class}::${Name};");
    } else if (isa<EnumConstantDecl>(D)) {
      Forward("static constexpr auto ${Name} = ${Class}::${Name};");
    } else if (const auto *MD = dyn_cast<CXXMethodDecl>(D)) {
      // Viable only for the static overloads: a call matching a non-static
      // member of the same name takes the copied member.
      if (MD->isStatic())
        W.line(fill("template <class... A> static ${Mark}auto ${Name}(A &&...a)"
                    " -> decltype(${Class}::${Name}(static_cast<A &&>(a)...)) "
                    "{ return ${Class}::${Name}(static_cast<A &&>(a)...); }",
                    {{"Mark", Emit.Target.deviceMark(G.Device)},
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
void ViewEmitter::templateArguments(CodeWriter &W, const RecordDecl *RD) const {
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
      W.line(fill("static constexpr ${Type} ${Name} = ${Value};",
                  {{"Type", Emit.Types.name(Args[I].getIntegralType())},
                   {"Name", Name},
                   {"Value", llvm::toString(Args[I].getAsIntegral(), 10)}}));
  }
}

/// How a loop's constructor sets one leaf from slot i of its buffers.
void ViewEmitter::leafInit(const ViewGroup &G, const ProxyNode &Kid,
                           ProxyParts &Parts) const {
  std::string Name = memberName(Kid.Field);
  QualType T = Kid.Field->getType();
  std::string Buffer = "s." + bufferName(Kid.Path);
  QualType Elem;
  if (isUnionLeaf(Kid.Path)) { // its bytes, whichever member they hold
    Parts.Inits.push_back(Name + "(" + Buffer + "[i])");
  } else if (unsigned Components = splitComponents(Emit.Ast, T, Elem)) {
    std::string List;
    for (unsigned C = 0; C < Components; ++C)
      List += (C ? ", " : "") + Buffer + "[" + std::to_string(C) + "][i]";
    Parts.Inits.push_back(Name + "{" + List + "}");
  } else if (T->isArrayType() && Emit.Target.copiesArrays(G.Device)) {
    Parts.Copies.push_back(
        fill("${Copy}(${Name}, ${Buffer}[i]);",
             {{"Copy", rt::CopyArray}, {"Name", Name}, {"Buffer", Buffer}}));
  } else if (T->isArrayType() || !T.isTriviallyCopyableType(Emit.Ast)) {
    // Arrays, and classes that views carry as bytes (copiesAsBytes): their
    // own copy operations run only where the program copies.
    Parts.Copies.push_back(
        fill("std::memcpy(${Void}&${Name}, &${Buffer}[i], sizeof ${Name});",
             {{"Void", T->isArrayType() ? "" : "(void *)"},
              {"Name", Name},
              {"Buffer", Buffer}}));
  } else {
    Parts.Inits.push_back(Name + "(" + Buffer + "[i])");
  }
}

/// The members of proxy node N: its leaves' values and nested proxies.
void ViewEmitter::members(CodeWriter &W, const NestPlan &Nest,
                          const ViewGroup &G, const ProxyNode &N,
                          std::string &Tags) const {
  for (auto &Kid : N.Kids) {
    std::string Name = Kid->Field->getName().str();
    if (Kid->Leaf && isUnionLeaf(Kid->Path))
      heldUnion(W, G, Kid->Path);
    else if (Kid->Leaf && G.InPlace.count(Kid->Path))
      W.line(Emit.Types.declare(
                 Emit.Ast.getLValueReferenceType(Kid->Field->getType()), Name) +
             "; // in the element: another view may hold it");
    else if (Kid->Leaf)
      W.line(
          Emit.Types.declare(Kid->Field->getType().getUnqualifiedType(), Name) +
          ";");
    else
      proxy(W, Nest, G, *Kid, "soaview_" + Name + "_proxy", " " + Name + ";",
            Tags);
  }
}

/// What the constructor for loop Loop sets in node N: the leaves the loop
/// gathers, the nested proxies holding some, and at the top the fields in
/// place (every loop binds them), the element's address and the slots the
/// loop writes back to.
ViewEmitter::ProxyParts ViewEmitter::constructorParts(const ViewGroup &G,
                                                      size_t Loop,
                                                      const ProxyNode &N,
                                                      std::string &Tags) const {
  const Fields &Own = G.Fields.at(Loop);
  auto Gathers = [&](const FieldPath &P, bool Below) {
    return llvm::any_of(Own, [&](auto &F) {
      return Below ? isPrefixOf(P, F.first) : F.first == P;
    });
  };
  ProxyParts Parts;
  std::string Tag =
      fill("::soaview::loop_tag<${K}>{}", {{"K", std::to_string(Loop)}});
  for (auto &Kid : N.Kids) {
    if (Kid->Leaf && G.InPlace.count(Kid->Path))
      Parts.Inits.push_back(
          Kid->Field->getName().str() + "(" +
          accessPath(G, Kid->Path,
                     std::string(rt::ElementAt) + "<soaview_element>(s, i)",
                     Tags) +
          ")");
    else if (Kid->Leaf && Gathers(Kid->Path, false))
      leafInit(G, *Kid, Parts);
    else if (!Kid->Leaf && Gathers(Kid->Path, true))
      Parts.Inits.push_back(Kid->Field->getName().str() + "(" + Tag +
                            ", s, i)");
  }
  if (!N.Field) {
    Parts.Inits.push_back(
        "soaview_address(s.soaview_address ? s.soaview_address[i] : nullptr)");
    outSlotInits(G, Loop, Parts);
  }
  return Parts;
}

namespace {
/// Each slot a written leaf is written back to: its name and, for a split
/// array, its component.
std::vector<std::pair<std::string, std::string>>
outSlots(const ASTContext &Ctx, const FieldPath &Path) {
  std::string Name = "soaview_out_" + bufferName(Path);
  QualType Elem;
  unsigned Components = splitComponents(Ctx, Path.back()->getType(), Elem);
  if (!Components)
    return {{Name, ""}};
  std::vector<std::pair<std::string, std::string>> Slots;
  for (unsigned C = 0; C < Components; ++C)
    Slots.push_back({Name + "_" + std::to_string(C), std::to_string(C)});
  return Slots;
}
} // namespace

/// The top proxy remembers its element and the slots of the fields some
/// loop of the group writes, which its destructor writes back.
void ViewEmitter::outSlotMembers(CodeWriter &W, const ViewGroup &G) const {
  W.line("[[maybe_unused]] static constexpr bool soaview_is_view = true;");
  W.line("using soaview_element = " +
         Emit.Types.name(G.Union.ElementType.getUnqualifiedType()) + ";");
  W.line("const void *soaview_address;");
  for (auto &[Path, A] : G.Union.orderedLeaves()) {
    if (!A.Written || G.InPlace.count(Path))
      continue;
    QualType Elem, FieldType = Path.back()->getType();
    std::string Type = isUnionLeaf(Path) ? unionMirror(G, Path)
                       : splitComponents(Emit.Ast, FieldType, Elem)
                           ? Emit.Types.name(Elem)
                           : Emit.Types.name(FieldType.getUnqualifiedType());
    for (auto &[Slot, Component] : outSlots(Emit.Ast, Path))
      W.line(fill("${OutSlot}<${Type}> ${Name};",
                  {{"OutSlot", rt::OutSlot}, {"Type", Type}, {"Name", Slot}}));
  }
}

/// Loop Loop's slots: its own written fields, null for the others'.
void ViewEmitter::outSlotInits(const ViewGroup &G, size_t Loop,
                               ProxyParts &Parts) const {
  const Fields &Own = G.Fields.at(Loop);
  for (auto &[Path, A] : G.Union.orderedLeaves()) {
    if (!A.Written || G.InPlace.count(Path))
      continue;
    bool Writes = llvm::any_of(Own, [&, &Held = Path](auto &F) {
      return F.first == Held && F.second.Written;
    });
    std::string Buffer = "s." + bufferName(Path);
    for (auto &[Slot, Component] : outSlots(Emit.Ast, Path))
      Parts.Inits.push_back(
          Slot + "(" +
          (Writes ? "&" + Buffer +
                        (Component.empty() ? "" : "[" + Component + "]") + "[i]"
                  : std::string("nullptr")) +
          ")");
  }
}

/// The destructor's statements: each written field back to its slot.
std::vector<std::string> ViewEmitter::writeBack(const ViewGroup &G) const {
  std::vector<std::string> Statements;
  for (auto &[Path, A] : G.Union.orderedLeaves()) {
    if (!A.Written || G.InPlace.count(Path))
      continue;
    std::string Member = viewMember(Path);
    QualType FieldType = Path.back()->getType();
    for (auto &[Slot, Component] : outSlots(Emit.Ast, Path)) {
      if (isUnionLeaf(Path))
        Statements.push_back(fill("if (${Slot}.p) std::memcpy(${Slot}.p, "
                                  "&${Member}, sizeof ${Member});",
                                  {{"Slot", Slot}, {"Member", Member}}));
      else if (!Component.empty())
        Statements.push_back(
            fill("if (${Slot}.p) *${Slot}.p = ${Member}[${K}];",
                 {{"Slot", Slot}, {"Member", Member}, {"K", Component}}));
      else if (FieldType->isArrayType() && Emit.Target.copiesArrays(G.Device))
        Statements.push_back(fill(
            "if (${Slot}.p) ${Copy}(*${Slot}.p, ${Member});",
            {{"Slot", Slot}, {"Copy", rt::CopyArray}, {"Member", Member}}));
      else if (FieldType->isArrayType() ||
               !FieldType.isTriviallyCopyableType(Emit.Ast))
        Statements.push_back(
            fill("if (${Slot}.p) std::memcpy(${Void}${Slot}.p, "
                 "&${Member}, sizeof ${Member});",
                 {{"Void", FieldType->isArrayType() ? "" : "(void *)"},
                  {"Slot", Slot},
                  {"Member", Member}}));
      else
        Statements.push_back(fill("if (${Slot}.p) *${Slot}.p = ${Member};",
                                  {{"Slot", Slot}, {"Member", Member}}));
    }
  }
  return Statements;
}

/// The proxy of node N: it holds the values of its fields for one
/// iteration, built from slot i of a loop's buffers by that loop's
/// constructor and written back to the slot by the destructor (written
/// fields only). Copies of a proxy (`auto c = *p`) write nothing back.
/// Keeping values, not references into the buffers, lets the compiler hold
/// them in registers across an inner loop.
void ViewEmitter::proxy(CodeWriter &W, const NestPlan &Nest, const ViewGroup &G,
                        const ProxyNode &N, const std::string &Name,
                        StringRef Tail, std::string &Tags) const {
  std::string Mark = Emit.Target.deviceMark(G.Device);
  W.block(
      "struct " + Name,
      [&](CodeWriter &Body) {
        forwarders(Body, G, N);
        members(Body, Nest, G, N, Tags);
        if (!N.Field)
          outSlotMembers(Body, G);
        else
          Body.line(Name + "() = default;");
        for (size_t Loop : G.Loops) {
          ProxyParts Parts = constructorParts(G, Loop, N, Tags);
          if (N.Field && Parts.Inits.empty() && Parts.Copies.empty())
            continue; // the loop uses nothing of this sub-object
          Body.constructor(fill("template <class S> ${Mark}${Name}(::soaview::"
                                "loop_tag<${K}>, const S &s, std::size_t i)",
                                {{"Mark", Mark},
                                 {"Name", Name},
                                 {"K", std::to_string(Loop)}}),
                           Parts.Inits, [&](CodeWriter &Ctor) {
                             for (const std::string &S : Parts.Copies)
                               Ctor.line(S);
                             if (Parts.Inits.empty() && Parts.Copies.empty())
                               Ctor.line("(void)s, (void)i;");
                           });
        }
        std::vector<std::string> Back =
            N.Field ? std::vector<std::string>() : writeBack(G);
        if (!Back.empty())
          Body.block(Mark + "~" + Name + "()", [&](CodeWriter &Dtor) {
            for (const std::string &S : Back)
              Dtor.line(S);
          });
        auto Methods = G.Union.Methods.find(N.Path);
        if (Methods == G.Union.Methods.end())
          return;
        std::vector<const CXXMethodDecl *> Sorted(Methods->second.begin(),
                                                  Methods->second.end());
        llvm::sort(Sorted, [&](auto *A, auto *B) {
          return Emit.SM.isBeforeInTranslationUnit(A->getBeginLoc(),
                                                   B->getBeginLoc());
        });
        for (const CXXMethodDecl *MD : Sorted)
          Body.raw(methodText(Nest, G, MD, Name, Tags));
      },
      Tail);
}

/// The union type a view's buffers hold an anonymous union in: the same
/// members, so the same size, alignment and bytes.
std::string ViewEmitter::unionMirror(const ViewGroup &G,
                                     const FieldPath &Path) const {
  return G.Name + "_" + bufferName(Path);
}

/// The members of the anonymous union at Path, as the view declares them:
/// `decltype(C::density) density;` (holdableUnion: named, public members of
/// a named class).
std::vector<std::string>
ViewEmitter::unionMembers(const FieldPath &Path) const {
  const FieldDecl *U = Path.back();
  std::string Class = Emit.Types.name(
      compat::recordType(Emit.Ast, cast<RecordDecl>(U->getParent())));
  std::vector<std::string> Members;
  for (const FieldDecl *M : U->getType()->getAsRecordDecl()->fields())
    Members.push_back(fill("decltype(${Class}::${Name}) ${Name};",
                           {{"Class", Class}, {"Name", M->getName().str()}}));
  return Members;
}

/// The declarations of the unions a view holds whole, before the view.
void ViewEmitter::unionMirrors(CodeWriter &W, const ViewGroup &G) const {
  for (auto &Leaf : G.Union.orderedLeaves()) {
    const FieldPath &Path = Leaf.first;
    if (!isUnionLeaf(Path))
      continue;
    W.block(
        "union " + unionMirror(G, Path),
        [&](CodeWriter &U) {
          for (const std::string &M : unionMembers(Path))
            U.line(M);
        },
        ";");
    QualType T = Path.back()->getType();
    W.line(fill(
        "static_assert(sizeof(${Mirror}) == ${Size} && "
        "alignof(${Mirror}) == ${Align});",
        {{"Mirror", unionMirror(G, Path)},
         {"Size", std::to_string(Emit.Ast.getTypeSizeInChars(T).getQuantity())},
         {"Align",
          std::to_string(Emit.Ast.getTypeAlignInChars(T).getQuantity())}}));
  }
}

/// An anonymous union held whole: in the view an anonymous union too, of
/// the same members (the loop's code names them as it did) and the mirror
/// that the constructor and destructor copy.
void ViewEmitter::heldUnion(CodeWriter &W, const ViewGroup &G,
                            const FieldPath &Path) const {
  W.block(
      "union",
      [&](CodeWriter &U) {
        U.line(unionMirror(G, Path) + " " + memberName(Path.back()) + ";");
        for (const std::string &M : unionMembers(Path))
          U.line(M);
      },
      ";");
}

/// The proxy tree of a view: one node per field on the way to each leaf,
/// leaves in declaration order.
ViewEmitter::ProxyNode ViewEmitter::proxyTree(const ViewGroup &G) const {
  ProxyNode Root;
  for (auto &[Path, A] : G.Union.orderedLeaves()) {
    ProxyNode *N = &Root;
    for (size_t I = 0; I < Path.size(); ++I) {
      // Members of anonymous structs and unions are the enclosing record's
      // names: the proxy declares them directly (same names, same access).
      if (Path[I]->isAnonymousStructOrUnion() &&
          !(I + 1 == Path.size() && isUnionLeaf(Path)))
        continue;
      ProxyNode *Next = nullptr;
      for (auto &Kid : N->Kids)
        if (Kid->Field == Path[I])
          Next = Kid.get();
      if (!Next) {
        N->Kids.push_back(std::make_unique<ProxyNode>());
        Next = N->Kids.back().get();
        Next->Field = Path[I];
        Next->Path = FieldPath(Path.begin(), Path.begin() + I + 1);
        Next->Leaf = I + 1 == Path.size();
      }
      N = Next;
    }
  }
  return Root;
}

//--- The specs ----------------------------------------------------------------

std::string ViewEmitter::accessPath(const ViewGroup &G, const FieldPath &Path,
                                    StringRef Obj, std::string &Tags) const {
  std::string Access = Obj.str();
  for (size_t I = 0; I < Path.size(); ++I) {
    const FieldDecl *F = Path[I];
    if (F->isAnonymousStructOrUnion())
      continue; // `e.density.wcount` names the anonymous union's member
    if (F->getAccess() == AS_public || F->getAccess() == AS_none) {
      Access += "." + F->getName().str();
      continue;
    }
    FieldPath Sub(Path.begin(), Path.begin() + I + 1);
    Access = "(" + Access + ".*" + exposed(G, Sub, Tags) + ")";
  }
  return Access;
}

/// A private or protected field reached through a member pointer obtained
/// by explicit instantiation, where access is not checked
/// ([temp.spec.general]): the call `member(Tag{})` that returns it, the
/// tag and the instantiation added to Tags once. The member pointer's type
/// is never spelt (C++17 `auto` parameter): the field's type may itself be
/// private or end in '>'.
std::string ViewEmitter::exposed(const ViewGroup &G, const FieldPath &Path,
                                 std::string &Tags) const {
  const FieldDecl *F = Path.back();
  std::string Tag = G.Name + "_tag_" + bufferName(Path);
  std::string Field =
      Emit.Types.name(compat::recordType(Emit.Ast, F->getParent())) +
      "::" + F->getName().str();
  std::string Member = Emit.Names.memberFunction();
  if (Tags.find(Tag + " {") == std::string::npos)
    Tags += fill(
        "struct ${Tag} { friend constexpr auto ${Member}(${Tag}) "
        "noexcept; };\n"
        "template struct ${View}_expose<&${Field}, ${Tag}>;\n",
        {{"Tag", Tag}, {"Member", Member}, {"View", G.Name}, {"Field", Field}});
  return Member + "(" + Tag + "{})";
}

/// What a buffer holds of a field of type T: buffers are written by the
/// gather, so a const field (the key of a std::map's pair) is held
/// unqualified.
static QualType bufferType(ASTContext &Ast, QualType T) {
  Qualifiers Dropped;
  return Ast.getUnqualifiedArrayType(T.getUnqualifiedType(), Dropped);
}

/// Each buffer of a spec, in the order of the loop's fields.
std::vector<ViewEmitter::SpecBuffer>
ViewEmitter::specBuffers(const ViewGroup &G, const Fields &F) const {
  std::vector<SpecBuffer> Buffers;
  auto Unqualified = [&](QualType T) { return bufferType(Emit.Ast, T); };
  for (auto &[Path, A] : F) {
    if (isUnionLeaf(Path)) {
      Buffers.push_back({bufferName(Path), unionMirror(G, Path), A.Written,
                         bufferName(Path)});
      continue;
    }
    QualType Elem;
    if (unsigned N = splitComponents(Emit.Ast, Path.back()->getType(), Elem)) {
      for (unsigned C = 0; C < N; ++C) {
        std::string K = "[" + std::to_string(C) + "]";
        Buffers.push_back({bufferName(Path) + K,
                           Emit.Types.name(Unqualified(Elem)), A.Written,
                           dotted(Path) + K});
      }
      continue;
    }
    Buffers.push_back({bufferName(Path),
                       Emit.Types.name(Unqualified(Path.back()->getType())),
                       A.Written, dotted(Path)});
  }
  return Buffers;
}

/// The soa struct (one buffer per field, per component of a split array),
/// its size and how an arena is carved into it.
void ViewEmitter::specLayout(CodeWriter &W, const ViewGroup &G,
                             const Fields &F) const {
  W.block(
      "struct soa",
      [&](CodeWriter &Soa) {
        for (auto &[Path, A] : F) {
          QualType Elem;
          if (isUnionLeaf(Path))
            Soa.line(unionMirror(G, Path) + " *" + bufferName(Path) + ";");
          else if (unsigned N =
                       splitComponents(Emit.Ast, Path.back()->getType(), Elem))
            Soa.line(
                fill("${Type} *${Name}[${N}]; // one buffer per component",
                     {{"Type", Emit.Types.name(bufferType(Emit.Ast, Elem))},
                      {"Name", bufferName(Path)},
                      {"N", std::to_string(N)}}));
          else
            Soa.line(Emit.Types.declare(Emit.Ast.getPointerType(bufferType(
                                            Emit.Ast, Path.back()->getType())),
                                        bufferName(Path)) +
                     ";");
        }
        Soa.line("const void *const *soaview_address;");
      },
      ";");
  std::vector<SpecBuffer> Buffers = specBuffers(G, F);
  W.block("static std::size_t bytes_for(std::size_t n)", [&](CodeWriter &Fn) {
    std::vector<std::string> Terms;
    for (const SpecBuffer &B : Buffers)
      Terms.push_back(fill("${Arena}::round_up(sizeof(${Type}) * n)",
                           {{"Arena", rt::Arena}, {"Type", B.Type}}));
    Fn.spread("return 0", Terms, "+ ", ";");
  });
  W.block(fill("static void carve(soa &s, ${Arena} &a, std::size_t n)",
               {{"Arena", rt::Arena}}),
          [&](CodeWriter &Fn) {
            for (const SpecBuffer &B : Buffers)
              Fn.line(fill("s.${Name} = a.take<${Type}>(n);",
                           {{"Name", B.Name}, {"Type", B.Type}}));
          });
}

/// One field copied between an element and its slot: assignment for
/// scalars and components, memcpy for arrays and whole structs.
void ViewEmitter::copyField(const ViewGroup &G, const FieldPath &Path,
                            bool ToSlot, std::string &Tags,
                            std::vector<std::string> &Statements) const {
  std::string Slot = "s." + bufferName(Path) + "[i]";
  if (isUnionLeaf(Path)) { // the union's bytes, from its first member on
    FieldPath First = Path;
    First.push_back(*Path.back()->getType()->getAsRecordDecl()->field_begin());
    std::string Field = accessPath(G, First, "e", Tags);
    Statements.push_back(fill("std::memcpy(&${To}, &${From}, sizeof ${Slot});",
                              {{"To", ToSlot ? Slot : Field},
                               {"From", ToSlot ? Field : Slot},
                               {"Slot", Slot}}));
    return;
  }
  std::string Field = accessPath(G, Path, "e", Tags);
  QualType Elem;
  if (unsigned N = splitComponents(Emit.Ast, Path.back()->getType(), Elem)) {
    for (unsigned C = 0; C < N; ++C) {
      std::string K = "[" + std::to_string(C) + "]";
      std::string ComponentSlot = "s." + bufferName(Path) + K + "[i]";
      std::string Component = Field + K;
      Statements.push_back((ToSlot ? ComponentSlot : Component) + " = " +
                           (ToSlot ? Component : ComponentSlot) + ";");
    }
    return;
  }
  const std::string &To = ToSlot ? Slot : Field, &From = ToSlot ? Field : Slot;
  QualType T = Path.back()->getType();
  if (T->isScalarType())
    Statements.push_back(To + " = " + From + ";");
  else // a class carried as bytes (copiesAsBytes): a plain pointer for memcpy
    Statements.push_back(
        fill("std::memcpy(${Void}&${To}, &${From}, sizeof "
             "${Slot});",
             {{"Void", T.isTriviallyCopyableType(Emit.Ast) ? "" : "(void *)"},
              {"To", To},
              {"From", From},
              {"Slot", Slot}}));
}

/// gather and scatter (between elements and slots), the host/device buffer
/// pairs, and at(): the view of slot i, built by the loop's constructor.
void ViewEmitter::specCopies(CodeWriter &W, const ViewGroup &G, size_t Loop,
                             std::string &Tags) const {
  const Fields &Own = G.Fields.at(Loop);
  auto Copies = [&](bool ToSlot) {
    return [&, ToSlot](CodeWriter &F) {
      std::vector<std::string> Statements;
      for (auto &[Path, A] : Own)
        if (ToSlot || A.Written)
          copyField(G, Path, ToSlot, Tags, Statements);
      for (const std::string &S : Statements)
        F.line(S);
    };
  };
  W.block("static void gather(soa &s, std::size_t i, const element &e)",
          Copies(true));
  W.block(
      "template <class F> static void pairs(const soa &h, const soa &d, F &&f)",
      [&](CodeWriter &F) {
        for (const SpecBuffer &B : specBuffers(G, Own))
          F.line(fill("f(h.${Name}, d.${Name}, sizeof(${Type}), ${Written});",
                      {{"Name", B.Name},
                       {"Type", B.Type},
                       {"Written", B.Written ? "true" : "false"}}));
      });
  W.block("static void scatter(const soa &s, std::size_t i, element &e)",
          Copies(false));
  W.line(fill("static ${Mark}view at(const soa &s, std::size_t i) { return "
              "view(::soaview::loop_tag<${K}>{}, s, i); }",
              {{"Mark", Emit.Target.deviceMark(G.Device)},
               {"K", std::to_string(Loop)}}));
}

/// The spec of loop Loop: its head, buffers, fields() for a swept view (each
/// buffer with the element's field it holds, so that a sweep's inner view
/// can use the local view's buffers of the fields both views read:
/// soaview/sweep.h), and copies.
void ViewEmitter::spec(CodeWriter &W, const NestPlan &Nest, const ViewGroup &G,
                       size_t Loop, std::string &Tags) const {
  const LoopPlan &P = Nest.Loops[Loop];
  const Fields &Own = G.Fields.at(Loop);
  bool Writes = llvm::any_of(Own, [](auto &F) { return F.second.Written; });
  W.line(fill(
      "// soaview: buffers of the view of '${Element}' at ${Where}",
      {{"Element", P.View.ElementType.getAsString(PrintingPolicy(Emit.Lang))},
       {"Where", Emit.Source.where(P.Annotation->ForLoc)}}));
  W.block(
      "struct " + Emit.Names.view(P) + "_spec",
      [&](CodeWriter &S) {
        S.line("using element = " + Emit.Types.name(P.View.ElementType) + ";");
        S.line("using view = " + G.Name + ";");
        S.line(std::string("static constexpr bool writes = ") +
               (Writes ? "true" : "false") + ";");
        specLayout(S, G, Own);
        if (Nest.Sweep)
          S.block("template <class F> static void fields(soa &s, F &&f)",
                  [&](CodeWriter &F) {
                    for (const SpecBuffer &B : specBuffers(G, Own))
                      F.line(fill("f(s.${Name}, \"${Field}\");",
                                  {{"Name", B.Name}, {"Field", B.Field}}));
                  });
        specCopies(S, G, Loop, Tags);
      },
      ";");
}

//--- Both, in the element's namespace -----------------------------------------

void ViewEmitter::emit(const NestPlan &Nest, Chunks &Forward, Chunks &Main) {
  for (size_t I = 0; I < Nest.Loops.size(); ++I) {
    ViewGroup G = groupOf(Nest, I, Emit);
    if (G.Loops.front() == I)
      emitGroup(Nest, G, Forward, Main);
  }
}

void ViewEmitter::emitGroup(const NestPlan &Nest, const ViewGroup &G,
                            Chunks &Forward, Chunks &Main) {
  if (!DoneViews.insert(G.Name).second)
    return;
  const LoopPlan &First = Nest.Loops[G.Loops.front()];
  const DeclContext *ElementNS = namespaceOf(G.Union.Element);
  // Views live in the element's namespace, in `soaview_gen` and in an
  // unnamed namespace inside it: each translation unit has its own, so a
  // file compiled twice into one program (say strict and fast-math builds)
  // does not define the same view twice. Both are inline, so that
  // argument-dependent lookup on a view also searches the element's
  // namespace (where the user's functions taking the element are).
  // nvcc cannot reopen an inline unnamed namespace (its own generated code
  // opens the unnamed namespace first, not inline): with the CUDA backend
  // the unnamed namespace is plain.
  const std::string Open =
      GeneratedNames::openGen() + Emit.Target.viewsNamespace();
  Forward.add(ElementNS, Open + " struct " + G.Name + "; } }\n");

  std::string Tags, Where, Select;
  CodeWriter Specs;
  for (size_t Loop : G.Loops) {
    const LoopPlan &P = Nest.Loops[Loop];
    spec(Specs, Nest, G, Loop, Tags);
    Where +=
        (Where.empty() ? "" : ", ") + Emit.Source.where(P.Annotation->ForLoc);
    // Templates find their loop's spec through this declaration, by
    // argument-dependent lookup on the element type: it lives in the
    // inline `soaview_gen`, outside the unnamed namespace.
    if (P.InTemplate)
      Select += fill("${Spec}_spec ${Selector}(${Element} *);\n",
                     {{"Spec", Emit.Names.view(P)},
                      {"Selector", Emit.Names.selector(P)},
                      {"Element", Emit.Types.name(P.View.ElementType)}});
  }
  CodeWriter Body;
  Body.line(
      fill("// soaview: view of '${Element}' for the ${Loops} at ${Where}",
           {{"Element",
             First.View.ElementType.getAsString(PrintingPolicy(Emit.Lang))},
            {"Loops", G.Loops.size() > 1 ? "loops" : "loop"},
            {"Where", Where}}));
  unionMirrors(Body, G);
  proxy(Body, Nest, G, proxyTree(G), G.Name, ";", Tags);
  if (!Tags.empty())
    Tags = fill("template <auto M, class Tag> struct ${View}_expose { friend "
                "constexpr auto ${Member}(Tag) noexcept { return M; } };\n",
                {{"View", G.Name}, {"Member", Emit.Names.memberFunction()}}) +
           Tags;
  // The proxy and the specs' at() run where the loops run.
  Main.add(ElementNS, Open + "\n" + Tags +
                          Emit.Target.declareTargetBegin(G.Device) +
                          Body.take() + Specs.take() +
                          Emit.Target.declareTargetEnd(G.Device) +
                          "} // namespace\n" + Select + "} // namespace " +
                          GeneratedNames::GenNamespace + "\n");
}

} // namespace soaview
