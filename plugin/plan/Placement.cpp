//===- Placement.cpp - where the generated code of a loop goes ------------===//
#include "plan/Placement.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <functional>

using namespace clang;

namespace soaview {

/// The declaration at namespace scope whose source holds Point, or the
/// namespace holding Point between declarations.
static const Decl *declarationAt(ASTContext &Ctx, SourceLocation Point) {
  SourceManager &SM = Ctx.getSourceManager();
  SourceLocation POI = SM.getFileLoc(Point);
  const Decl *Best = nullptr;
  std::function<void(const DeclContext *)> Walk = [&](const DeclContext *DC) {
    for (const Decl *C : DC->decls()) {
      if (C->isImplicit())
        continue;
      SourceRange R = C->getSourceRange();
      if (R.isInvalid())
        continue;
      SourceLocation B = SM.getFileLoc(R.getBegin()),
                     End = SM.getFileLoc(R.getEnd());
      if (SM.isBeforeInTranslationUnit(POI, B) ||
          SM.isBeforeInTranslationUnit(End, POI))
        continue;
      Best = C;
      if (isa<NamespaceDecl>(C) || isa<LinkageSpecDecl>(C))
        Walk(cast<DeclContext>(C));
      return;
    }
  };
  Walk(Ctx.getTranslationUnitDecl());
  return Best;
}
static bool inTemplateSource(const Decl *D);

/// Whether Clang instantiates Fn where its type is first needed, during the
/// parse, rather than at the end of the translation unit: a specialization
/// whose return type is deduced from its body (`template <class F> auto
/// f(F)`). Clang records no point of instantiation for it. (A lambda's call
/// operator is placed by the function holding the lambda.)
static bool instantiatedWhereUsed(const FunctionDecl *Fn) {
  const FunctionDecl *Pattern = Fn->getTemplateInstantiationPattern();
  const auto *MD = dyn_cast<CXXMethodDecl>(Fn);
  return Pattern && Pattern->getReturnType()->getContainedDeducedType() &&
         !(MD && MD->getParent()->isLambda());
}

namespace {

/// The references to one function in the translation unit (instantiations
/// included), each with the function it lies in.
class ReferenceFinder : public RecursiveASTVisitor<ReferenceFinder> {
public:
  explicit ReferenceFinder(const FunctionDecl *Fn)
      : Target(Fn->getCanonicalDecl()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Enclosing.push_back(FD);
    bool Continue = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Enclosing.pop_back();
    return Continue;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    see(E->getDecl(), E->getExprLoc());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    see(E->getMemberDecl(), E->getExprLoc());
    return true;
  }

  struct Reference {
    SourceLocation Loc;
    const FunctionDecl *In; ///< null at namespace scope
  };
  std::vector<Reference> References;

private:
  void see(const Decl *D, SourceLocation L) {
    if (D && D->getCanonicalDecl() == Target)
      References.push_back({L, Enclosing.empty() ? nullptr : Enclosing.back()});
  }
  const Decl *Target;
  std::vector<const FunctionDecl *> Enclosing;
};

} // namespace

static SmallVector<SourceLocation, 4>
placingPoints(ASTContext &Ctx, const FunctionDecl *Fn, unsigned Depth = 0);

/// Where Fn, instantiated where it is first used (instantiatedWhereUsed),
/// is instantiated: the earliest of its references that lies outside any
/// template's source, or, for a reference in the body of another
/// instantiation, where that one is instantiated (at most a few levels
/// deep). Invalid when none is known.
static SourceLocation firstUse(ASTContext &Ctx, const FunctionDecl *Fn,
                               unsigned Depth) {
  SourceManager &SM = Ctx.getSourceManager();
  ReferenceFinder Finder(Fn);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  SourceLocation First;
  auto Consider = [&](SourceLocation L) {
    const Decl *D = declarationAt(Ctx, L);
    if (!D || isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D) ||
        inTemplateSource(D))
      return false;
    if (First.isInvalid() ||
        SM.isBeforeInTranslationUnit(SM.getFileLoc(L), SM.getFileLoc(First)))
      First = L;
    return true;
  };
  for (const ReferenceFinder::Reference &R : Finder.References) {
    if (Consider(R.Loc) || !R.In || !R.In->getTemplateInstantiationPattern())
      continue;
    for (SourceLocation Outer : placingPoints(Ctx, R.In, Depth + 1))
      if (Consider(Outer))
        break;
  }
  return First;
}

/// The points of instantiation that may place the views of a loop in Fn,
/// innermost first: Fn's own, then those of the functions and class
/// template specializations Fn is nested in. Fn has none of its own when it
/// is a lambda's call operator, or a function or member function with a
/// deduced return type, instantiated when its type was needed: for the
/// latter, the first reference to it stands for its point of instantiation.
static SmallVector<SourceLocation, 4>
placingPoints(ASTContext &Ctx, const FunctionDecl *Fn, unsigned Depth) {
  SmallVector<SourceLocation, 4> Points;
  if (Fn->getPointOfInstantiation().isValid())
    Points.push_back(Fn->getPointOfInstantiation());
  else if (Depth < 4 && instantiatedWhereUsed(Fn))
    if (SourceLocation Use = firstUse(Ctx, Fn, Depth); Use.isValid())
      Points.push_back(Use);
  for (const DeclContext *DC = Fn->getParent(); DC; DC = DC->getParent()) {
    SourceLocation Outer;
    if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
      Outer = FD->getPointOfInstantiation();
      if (Outer.isInvalid() && Depth < 4 && instantiatedWhereUsed(FD))
        Outer = firstUse(Ctx, FD, Depth);
    } else if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(DC))
      Outer = CTS->getPointOfInstantiation();
    if (Outer.isValid())
      Points.push_back(Outer);
  }
  return Points;
}

/// A point inside a template's own source (a use in another template's
/// body) says nothing about where the instantiation happens.
static bool inTemplateSource(const Decl *D) {
  return isa<RedeclarableTemplateDecl>(D) ||
         isa<ClassTemplatePartialSpecializationDecl>(D) || D->isTemplated();
}

/// The last declaration at namespace scope of the main file.
static const Decl *lastMainFileDecl(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Decl *Last = nullptr;
  const DeclContext *DC = Ctx.getTranslationUnitDecl();
  while (DC) {
    const Decl *InDC = nullptr;
    for (const Decl *C : DC->decls())
      if (!C->isImplicit() && C->getBeginLoc().isValid() &&
          SM.isInMainFile(SM.getFileLoc(C->getBeginLoc())))
        InDC = C;
    if (!InDC)
      break;
    Last = InDC;
    DC = isa<NamespaceDecl>(InDC) || isa<LinkageSpecDecl>(InDC)
             ? cast<DeclContext>(InDC)
             : nullptr;
  }
  return Last && !isa<NamespaceDecl>(Last) && !isa<LinkageSpecDecl>(Last)
             ? Last
             : nullptr;
}

/// Where the views of instantiations go: before the declaration outside any
/// template source that holds the innermost usable point of instantiation.
/// Where every point lies in template source (the instantiation began in
/// another library template, say a standard type trait), before the main
/// file's last declaration: the function bodies of instantiations are
/// instantiated at the end of the translation unit, and their template
/// arguments are declared by then.
static const Decl *instantiatingDecl(ASTContext &Ctx, const FunctionDecl *Fn) {
  const Decl *Fallback = nullptr;
  for (SourceLocation Point : placingPoints(Ctx, Fn)) {
    const Decl *D = declarationAt(Ctx, Point);
    if (!D || isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D))
      continue;
    if (!inTemplateSource(D))
      return D;
    if (!Fallback)
      Fallback = D;
  }
  if (const Decl *Last = lastMainFileDecl(Ctx))
    return Last;
  return Fallback;
}

const Decl *viewInsertionDecl(ASTContext &Ctx, const RecognisedLoop &P) {
  const Decl *D = P.Form.Function;
  if (P.InTemplate) {
    // Views of instantiations go before the declaration that instantiates.
    if (const Decl *Best = instantiatingDecl(Ctx, P.Form.Function))
      return Best;
    if (const FunctionDecl *Pat =
            P.Form.Function->getTemplateInstantiationPattern())
      D = Pat;
  }
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate())
      D = FTD;
  while (true) {
    const DeclContext *DC = D->getLexicalDeclContext();
    if (isa<TranslationUnitDecl>(DC) || isa<NamespaceDecl>(DC) ||
        isa<LinkageSpecDecl>(DC))
      return D;
    D = cast<Decl>(DC);
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
      if (const ClassTemplateDecl *CTD = RD->getDescribedClassTemplate())
        D = CTD;
  }
}

} // namespace soaview
