//===- CudaChecks.cpp - what a loop offloaded to CUDA may use -------------===//
//
// nvcc compiles the translated loop body as a __device__ lambda captured by
// value ([=]) and launched by soaview::cuda::device_frame::launch. So:
//  * the function holding the loop must be one nvcc accepts extended lambdas
//    in (named, not a lambda, no deduced return type, not a private or
//    protected member);
//  * the body may not use `this` (the object stays in host memory);
//  * variables from outside the loop are copied into the kernel: they must
//    be plain values (no pointers, references or objects holding them);
//  * globals must be constants nvcc can fold into device code, or constant
//    tables at namespace scope of the translated file: each gets a device
//    copy after its definition, and device code names the copy
//    (SOAVIEW_DEVICE_TABLE), so each reference must be in text soaview
//    edits;
//  * every user function reached is compiled for the device: marked
//    __host__ __device__ by the emitter when it is in the translated file,
//    or already marked (a macro, __device__, constexpr) when in a header.
// What the kernel reaches is found by plan/DeviceCode.cpp; judged here in
// the order a depth-first walk from the body meets it.
//===----------------------------------------------------------------------===//
#include "checks/CudaChecks.h"

#include "checks/Checks.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"
#include "support/Ancestors.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

#include <optional>

using namespace clang;

namespace soaview {

namespace {

/// True when S lies in the body of a lambda: the loop finder names the
/// function around the lambda as the loop's function.
bool insideLambda(ASTContext &Ctx, const Stmt *S) {
  for (const DynTypedNode &N : ancestors(Ctx, *S)) {
    if (N.get<LambdaExpr>())
      return true;
    if (N.get<FunctionDecl>() && !N.get<CXXMethodDecl>())
      return false;
  }
  return false;
}

class Checker {
public:
  Checker(ASTContext &Ctx, const LoopPlan &Plan, DiagStore &Diags)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Plan(Plan), Diags(Diags),
        Attr(Plan.OffloadAttr) {}

  bool run() { return enclosingFunction() && body() && reached() && tables(); }

private:
  bool refuse(SourceLocation L, const Msg &Error, const Msg &Note) {
    StoredDiag &D = Diags.report(L, Error);
    Diags.note(D, Attr->Range.getBegin(), Note);
    return false;
  }
  /// An error with a note at the declaration and one at the attribute.
  bool refuseAt(SourceLocation L, const Msg &Error, SourceLocation Decl,
                diag::Id DeclNote) {
    StoredDiag &D = Diags.report(L, Error);
    Diags.note(D, Decl, DeclNote);
    Diags.note(D, Attr->Range.getBegin(), diag::note_offloaded_here);
    return false;
  }
  bool enclosingFunction();
  bool body();
  bool reached();
  bool function(const ReachedFunction &Reached);
  bool tables();
  bool editableReference(const DeclRefExpr *E, bool Copied);
  bool inLoop(SourceLocation L) const {
    return !SM.isBeforeInTranslationUnit(L, Plan.Form.Loop->getBeginLoc()) &&
           !SM.isBeforeInTranslationUnit(Plan.Form.Loop->getEndLoc(), L);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const LoopPlan &Plan;
  DiagStore &Diags;
  const AttrUse *Attr;
};

bool Checker::enclosingFunction() {
  const FunctionDecl *Fn = Plan.Form.Function;
  Fn = writtenFunction(Fn);
  std::optional<diag::Id> Why;
  if (insideLambda(Ctx, Plan.Form.Loop))
    Why = diag::err_cuda_in_lambda;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Fn); MD && !Why) {
    if (MD->getParent()->isLambda())
      Why = diag::err_cuda_in_lambda;
    for (const DeclContext *DC = MD->getParent(); !Why && DC && DC->isRecord();
         DC = DC->getParent()) {
      const auto *RD = cast<RecordDecl>(DC);
      if (RD->getAccess() == AS_private || RD->getAccess() == AS_protected)
        Why = diag::err_cuda_private_nested_class;
      else if (!RD->getIdentifier())
        Why = diag::err_cuda_unnamed_class;
    }
    if (!Why && MD->getAccess() != AS_public && MD->getAccess() != AS_none)
      Why = diag::err_cuda_private_member;
  }
  if (!Why && Fn->getReturnType()->getContainedDeducedType())
    Why = diag::err_cuda_deduced_return;
  if (!Why)
    return true;
  return refuse(Plan.Annotation->ForLoc, *Why, diag::note_cuda_function);
}

/// What the loop body itself uses.
bool Checker::body() {
  const DeviceReach &Reach = Plan.Reach;
  if (Reach.ThisUse)
    return refuse(Reach.ThisUse->getBeginLoc(), diag::err_cuda_this,
                  diag::note_cuda_this);
  if (const DeclRefExpr *Capture = Reach.BadCapture) {
    const auto *V = cast<VarDecl>(Capture->getDecl());
    return refuse(Capture->getLocation(),
                  {diag::err_cuda_capture,
                   {V->getName().str(), qualifiedName(Ctx, V->getType())}},
                  diag::note_cuda_capture);
  }
  if (const DeclRefExpr *Global = Reach.HostVariable)
    return refuse(Global->getLocation(),
                  {diag::err_cuda_global, {Global->getDecl()->getName().str()}},
                  diag::note_cuda_global);
  return true;
}

bool Checker::reached() {
  for (const ReachedFunction &Reached : Plan.Reach.Functions)
    if (!function(Reached))
      return false;
  return true;
}

/// One function the kernel reaches: a lambda must be the loop's own; a
/// function to be marked for the device must be defined in the translated
/// file; what it reads must be on the device.
bool Checker::function(const ReachedFunction &Reached) {
  const FunctionDecl *FD = Reached.FD;
  std::string Name = FD->getQualifiedNameAsString();
  if (Reached.Lambda &&
      !inLoop(cast<CXXMethodDecl>(FD)->getParent()->getLocation()))
    return refuse(Reached.CallLoc, diag::err_cuda_outer_lambda,
                  diag::note_cuda_outer_lambda);
  if (Reached.NeedsMark) {
    if (!FD->getDefinition())
      return refuseAt(Reached.CallLoc, {diag::err_cuda_no_definition, {Name}},
                      FD->getLocation(), diag::note_cuda_no_definition);
    for (const FunctionDecl *Decl : FD->redecls())
      if (SM.getFileID(SM.getFileLoc(Decl->getLocation())) !=
          SM.getMainFileID())
        return refuseAt(Reached.CallLoc, {diag::err_cuda_in_header, {Name}},
                        Decl->getLocation(), diag::note_cuda_in_header);
  }
  if (const DeclRefExpr *Global = Reached.HostVariable)
    return refuse(Global->getLocation(),
                  {diag::err_cuda_callee_global,
                   {FD->getNameAsString(), Global->getDecl()->getName().str()}},
                  diag::note_cuda_callee_global);
  return true;
}

/// The constant tables device code reads: defined at namespace scope of the
/// translated file (their copies go right after them), and named where
/// soaview can spell the copy instead.
bool Checker::tables() {
  for (const VarDecl *V : Plan.Reach.Tables)
    if (!tableDeclarable(SM, V, true))
      return refuseAt(V->getLocation(),
                      {diag::err_offload_table_place, {V->getNameAsString()}},
                      V->getLocation(), diag::note_offload_table_place);
  for (const DeclRefExpr *E : Plan.Reach.TableRefs)
    if (!editableReference(E, false))
      return false;
  for (const ReachedFunction &Reached : Plan.Reach.Functions)
    for (const DeclRefExpr *E : Reached.TableRefs)
      if (!editableReference(E, Reached.Copied))
        return false;
  return true;
}

/// A reference to a table in the loop's body or a function it reaches:
/// written outside macros, in the translated file unless the function is
/// copied for the device (a clone or a view's member).
bool Checker::editableReference(const DeclRefExpr *E, bool Copied) {
  SourceLocation L = E->getBeginLoc();
  std::string Name = E->getDecl()->getNameAsString();
  if (L.isMacroID() || E->getEndLoc().isMacroID())
    return refuseAt(SM.getExpansionLoc(L), {diag::err_cuda_table_macro, {Name}},
                    SM.getSpellingLoc(L), diag::note_cuda_table_macro);
  if (!Copied && !SM.isInMainFile(L))
    return refuseAt(L, {diag::err_cuda_table_header, {Name}},
                    E->getDecl()->getLocation(), diag::note_cuda_table_header);
  return true;
}

} // namespace

bool checkCudaOffload(ASTContext &Ctx, const LoopPlan &P, DiagStore &Diags) {
  return Checker(Ctx, P, Diags).run();
}

} // namespace soaview
