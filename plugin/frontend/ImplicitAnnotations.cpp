//===- ImplicitAnnotations.cpp - every loop over structs, annotated -------===//
#include "frontend/ImplicitAnnotations.h"

#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

namespace {

/// A struct (class, not a union) or a pointer to one, seen through
/// references.
bool overStructs(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && !RD->isUnion() && RD->hasDefinition();
}

/// A loop variable over structs: one, or structured bindings of which one
/// at least can stand for the element (elementBinding: recognition picks
/// the element among them, or says why it cannot; `[key, value]` of a
/// std::map<int, std::string> is no loop over structs).
bool overStructs(const VarDecl *Var, const SourceManager &SM) {
  const auto *DD = dyn_cast<DecompositionDecl>(Var);
  if (!DD)
    return overStructs(Var->getType());
  return llvm::any_of(DD->bindings(), [&](const BindingDecl *B) {
    return elementBinding(B, SM);
  });
}

class LoopsOverStructs : public RecursiveASTVisitor<LoopsOverStructs> {
public:
  LoopsOverStructs(const SourceManager &SM, AnnotationCollector &C)
      : SM(SM), Collector(C) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    SourceLocation For = S->getForLoc();
    const VarDecl *Var = S->getLoopVariable();
    if (For.isMacroID() || SM.isInSystemHeader(For) || !Var ||
        Var->getType()->isDependentType() || !overStructs(Var, SM) ||
        Collector.Loops.count(For))
      return true;
    LoopAnnotation &A = Collector.Loops[For];
    A.ForLoc = For;
    A.Implicit = true;
    AttrUse Use{AttrKind::Convert, SourceRange(For, For), {}, 0};
    Use.Always = true;
    A.Attrs.push_back(std::move(Use));
    return true;
  }

private:
  const SourceManager &SM;
  AnnotationCollector &Collector;
};

} // namespace

void annotateEveryLoop(ASTContext &Ctx, AnnotationCollector &C) {
  LoopsOverStructs Finder(Ctx.getSourceManager(), C);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
}

} // namespace soaview
