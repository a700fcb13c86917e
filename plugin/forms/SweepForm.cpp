//===- SweepForm.cpp - a loop over cells swept whole
//-----------------------===//
#include "forms/SweepForm.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

namespace {
const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return F->getBody();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return R->getBody();
  return nullptr;
}

/// The statements of a loop body: a compound's children, or the body.
std::vector<const Stmt *> statements(const Stmt *Body) {
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    return {CS->body_begin(), CS->body_end()};
  return {Body};
}
/// The variables a loop's header declares.
std::vector<const VarDecl *> headerVariables(const Stmt *Loop) {
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return {R->getLoopVariable()};
  std::vector<const VarDecl *> Vs;
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Vs.push_back(V);
  return Vs;
}

/// True when the body of N[1] uses a variable of N[0]'s header other than
/// in the ranges of the loops nested in N[1]: `for (auto *p : a) for (auto
/// *q : b) p->x += q->y` is a nest over elements, not a sweep over cells.
bool bodyUsesOuterElement(const std::vector<LoopInstance> &N) {
  std::vector<const VarDecl *> Vars = headerVariables(N[0].Loop);
  std::vector<const Stmt *> Ranges;
  for (size_t I = 2; I < N.size(); ++I)
    if (const auto *R = dyn_cast<CXXForRangeStmt>(N[I].Loop))
      Ranges.push_back(
          R->getRangeInit()); // evaluated when the cell is recorded
  return findVarUse(
      loopBody(N[1].Loop),
      [&](const VarDecl *V) { return llvm::is_contained(Vars, V); }, Ranges);
}
} // namespace

bool looksLikeSweep(const std::vector<LoopInstance> &N) {
  if (N.size() < 2 || !N[0].Annotation->has(AttrKind::Offload) ||
      N[1].Annotation->has(AttrKind::Hoist))
    return false;
  const Stmt *Body = loopBody(N[0].Loop);
  if (!Body)
    return false;
  for (const Stmt *S : statements(Body))
    if (S == N[1].Loop)
      return !bodyUsesOuterElement(N);
  return false;
}

std::optional<SweepForm> recogniseSweep(ASTContext &Ctx,
                                        const std::vector<LoopInstance> &N,
                                        DiagStore &Diags) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LoopAnnotation &Annotation = *N[0].Annotation;
  auto Refuse = [&](SourceLocation L,
                    const char *Why) -> std::optional<SweepForm> {
    StoredDiag &D = Diags.report(L, {diag::err_sweep_shape, {Why}});
    Diags.note(D, Annotation.get(AttrKind::Offload)->Range.getBegin(),
               diag::note_sweep_shape);
    return std::nullopt;
  };
  SweepForm S;
  S.Annotation = &Annotation;
  S.Loop = N[0].Loop;
  S.Body = loopBody(S.Loop);
  const FunctionDecl *Fn = N[0].Fn;
  if (Fn->getTemplateInstantiationPattern() || Fn->isTemplateInstantiation() ||
      Fn->isDependentContext())
    return Refuse(Annotation.ForLoc,
                  "it is in a template (write the sweep in a function "
                  "that is not a template)");
  if (Annotation.has(AttrKind::Hoist) ||
      (Annotation.has(AttrKind::Target) &&
       !Annotation.get(AttrKind::Target)->Inferred))
    return Refuse(Annotation.ForLoc,
                  "a cell loop takes no hoist or target attribute");
  if (S.Loop->getBeginLoc().isMacroID() || S.Body->getBeginLoc().isMacroID() ||
      S.Body->getEndLoc().isMacroID())
    return Refuse(Annotation.ForLoc, "it is written in a macro");
  for (size_t I = 1; I < N.size(); ++I)
    if (!isa<CXXForRangeStmt>(N[I].Loop))
      return Refuse(N[I].Annotation->ForLoc,
                    "the nest's loops must be range loops");
  for (const Stmt *St : statements(S.Body)) {
    if (St == N[1].Loop) {
      S.NestStmt = St;
      continue;
    }
    if (isa<NullStmt>(St))
      continue;
    const auto *DS = dyn_cast<DeclStmt>(St);
    if (!DS || S.NestStmt)
      return Refuse(SM.getFileLoc(St->getBeginLoc()),
                    "its body may hold only declarations, then the annotated "
                    "nest");
    if (DS->getBeginLoc().isMacroID() || DS->getEndLoc().isMacroID())
      return Refuse(DS->getBeginLoc(), "it is written in a macro");
    S.Decls.push_back(DS);
  }
  return S;
}

} // namespace soaview
