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
//  * globals must be constants nvcc can fold into device code;
//  * every user function reached is compiled for the device: marked
//    __host__ __device__ by the emitter when it is in the translated file,
//    or already marked (a macro, __device__, constexpr) when in a header.
//===----------------------------------------------------------------------===//
#include "checks/CudaChecks.h"

#include "frontend/Annotations.h"
#include "diag/Diagnostics.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <optional>
#include <set>

using namespace clang;

namespace soaview {

bool markedForDevice(ASTContext &Ctx, const FunctionDecl *FD) {
  if (FD->isConstexpr())
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  // The text before the name, back to the end of the previous declaration
  // or directive: macros there expand to nothing in this (host) parse.
  SourceLocation Name = SM.getFileLoc(FD->getLocation());
  auto [FID, Off] = SM.getDecomposedLoc(Name);
  StringRef Buf = SM.getBufferData(FID);
  unsigned B = Off;
  while (B > 0 && !StringRef(";{}>#").contains(Buf[B - 1]))
    --B;
  StringRef Before = Buf.slice(B, Off);
  for (size_t I = 0; I < Before.size();) {
    if (!isAsciiIdentifierStart(Before[I])) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Before.size() && isAsciiIdentifierContinue(Before[J]))
      ++J;
    StringRef Word = Before.slice(I, J);
    if (Word == "__device__" ||
        Ctx.Idents.get(Word).hadMacroDefinition())
      return true;
    I = J;
  }
  return false;
}

namespace {

/// True when S lies in the body of a lambda: the loop finder names the
/// function around the lambda as the loop's function.
bool insideLambda(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    if (Parents[0].get<LambdaExpr>())
      return true;
    if (Parents[0].get<FunctionDecl>() && !Parents[0].get<CXXMethodDecl>())
      return false;
    Parents = Ctx.getParents(Parents[0]);
  }
  return false;
}

/// A value a by-copy capture carries to the device intact.
bool deviceCopyable(ASTContext &Ctx, QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *AT = Ctx.getAsArrayType(T))
    return deviceCopyable(Ctx, AT->getElementType());
  if (T->isArithmeticType() || T->isEnumeralType())
    return true;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || !RD->isTriviallyCopyable())
    return false;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (!deviceCopyable(Ctx, Base.getType()))
      return false;
  for (const FieldDecl *F : RD->fields())
    if (!deviceCopyable(Ctx, F->getType()))
      return false;
  return true;
}

/// A global nvcc lets device code read: constexpr, or a const scalar with a
/// constant initializer.
bool deviceConstant(ASTContext &Ctx, const VarDecl *V) {
  if (V->isConstexpr())
    return true;
  QualType T = V->getType();
  return T.isConstQualified() && T->isScalarType() && !T->isPointerType() &&
         V->hasConstantInitialization();
}

/// What device code reaches in a statement: the calls it makes (functions
/// and constructors) and the first variable with static storage that device
/// code cannot read (not a constant); Derived adds its own visits and says
/// which static locals are its own (`ownStatic`).
template <class Derived> struct DeviceWalk : RecursiveASTVisitor<Derived> {
  using Base = RecursiveASTVisitor<Derived>;
  ASTContext &Ctx;
  /// Placement arguments soaview replaces (`new (std::nothrow) T` routed
  /// to the device heap): not compiled for the device.
  const std::set<const Stmt *> &Replaced;
  std::vector<std::pair<const FunctionDecl *, SourceLocation>> Calls;
  const DeclRefExpr *BadGlobal = nullptr;
  DeviceWalk(ASTContext &Ctx, const std::set<const Stmt *> &Replaced)
      : Ctx(Ctx), Replaced(Replaced) {}
  bool ownStatic(const VarDecl *) const { return false; }
  bool TraverseStmt(Stmt *S) {
    return Replaced.count(S) ? true : Base::TraverseStmt(S);
  }
  bool VisitCallExpr(CallExpr *E) {
    if (const FunctionDecl *FD = E->getDirectCallee())
      Calls.push_back({FD, E->getExprLoc()});
    return true;
  }
  /// Constructors and the destructors that end what they build.
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Calls.push_back({E->getConstructor(), E->getExprLoc()});
    destructor(E->getType(), E->getExprLoc());
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    destructor(E->getDestroyedType(), E->getBeginLoc());
    return true;
  }
  void destructor(QualType T, SourceLocation L) {
    if (const CXXRecordDecl *RD = classWithDestructor(Ctx, T))
      if (const CXXDestructorDecl *D = RD->getDestructor())
        Calls.push_back({D, L});
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (V && V->hasGlobalStorage() && !BadGlobal && !deviceConstant(Ctx, V) &&
        !(V->isStaticLocal() && static_cast<Derived *>(this)->ownStatic(V)))
      BadGlobal = E;
    return true;
  }
};

class Checker {
public:
  Checker(ASTContext &Ctx, const NestPlan &Nest, const LoopPlan &P,
          DiagStore &Diags)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Nest(Nest), P(P), Diags(Diags),
        Attr(P.OffloadAttr) {
    for (const HeapRoute &H : Nest.HeapRoutes)
      if (const auto *NE = dyn_cast<CXXNewExpr>(H.E))
        for (const Expr *A : NE->placement_arguments())
          Routed.insert(A);
  }

  bool run();
  /// User functions the loop reaches that the emitter must mark
  /// __host__ __device__.
  std::vector<const FunctionDecl *> DeviceFunctions;

private:
  bool refuse(SourceLocation L, const Msg &Error, const Msg &Note) {
    StoredDiag &D = Diags.report(L, Error);
    Diags.note(D, Attr->Range.getBegin(), Note);
    return false;
  }
  bool enclosingFunction();
  bool body();
  bool reach(const FunctionDecl *FD, SourceLocation CallLoc);
  bool inLoop(SourceLocation L) const {
    return !SM.isBeforeInTranslationUnit(L, P.Form.Loop->getBeginLoc()) &&
           !SM.isBeforeInTranslationUnit(P.Form.Loop->getEndLoc(), L);
  }
  /// Functions that get a view-typed clone or are copied into a view: the
  /// emitter writes those for the device; their callees still need a look.
  bool emittedByView(const FunctionDecl *FD) const {
    const FunctionDecl *C = FD->getCanonicalDecl();
    for (const CalleeUse &U : Nest.Callees)
      if (U.NeedsClone && U.FD->getCanonicalDecl() == C)
        return true;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      for (const LoopPlan &L : Nest.Loops)
        for (auto &[Path, Ms] : L.View.Methods)
          for (const CXXMethodDecl *M : Ms)
            if (M->getCanonicalDecl() == MD->getCanonicalDecl())
              return true;
    return false;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const NestPlan &Nest;
  const LoopPlan &P;
  DiagStore &Diags;
  const AttrUse *Attr;
  std::set<const FunctionDecl *> Seen;
  std::set<const Stmt *> Routed; ///< placement arguments routing replaces
};

bool Checker::enclosingFunction() {
  const FunctionDecl *Fn = P.Form.Function;
  if (const FunctionDecl *Pat = Fn->getTemplateInstantiationPattern())
    Fn = Pat;
  std::optional<diag::Id> Why;
  if (insideLambda(Ctx, P.Form.Loop))
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
  return refuse(P.Annotation->ForLoc, *Why, diag::note_cuda_function);
}

bool Checker::body() {
  // Expressions of the loop headers soaview replaces: not in the kernel.
  std::vector<const Expr *> Replaced;
  for (const LoopPlan *In : P.DeviceInners) {
    if (In->Form.RangeInit)
      Replaced.push_back(In->Form.RangeInit);
    if (In->Form.Lo)
      Replaced.push_back(In->Form.Lo);
    if (In->Form.Hi)
      Replaced.push_back(In->Form.Hi);
  }
  std::set<const NamedDecl *> Targets;
  for (const LoopPlan &L : Nest.Loops)
    if (L.Form.Kind == LoopFormKind::Index && L.Form.Target)
      Targets.insert(L.Form.Target);

  struct Walk : DeviceWalk<Walk> {
    using Base = DeviceWalk<Walk>;
    Checker &C;
    const std::vector<const Expr *> &Skip;
    const std::set<const NamedDecl *> &Targets;
    const Stmt *BadThis = nullptr;
    const DeclRefExpr *BadCapture = nullptr;
    Walk(Checker &C, const std::vector<const Expr *> &Skip,
         const std::set<const NamedDecl *> &Targets)
        : Base(C.Ctx, C.Routed), C(C), Skip(Skip), Targets(Targets) {}
    /// Static locals of the loop body itself are compiled into the kernel.
    bool ownStatic(const VarDecl *V) const { return C.inLoop(V->getLocation()); }
    bool TraverseStmt(Stmt *S) {
      for (const Expr *E : Skip)
        if (S == E)
          return true;
      return Base::TraverseStmt(S);
    }
    bool VisitCXXThisExpr(CXXThisExpr *E) {
      if (!BadThis)
        BadThis = E;
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *V = dyn_cast<VarDecl>(E->getDecl());
      if (!V || Targets.count(V)) // index-loop targets become the view
        return true;
      Base::VisitDeclRefExpr(E);
      if (!V->hasGlobalStorage() && !C.inLoop(V->getLocation()) &&
          !deviceCopyable(C.Ctx, V->getType()) && !BadCapture)
        BadCapture = E;
      return true;
    }
  } W(*this, Replaced, Targets);
  W.TraverseStmt(const_cast<Stmt *>(P.Form.Body));
  if (W.BadThis)
    return refuse(W.BadThis->getBeginLoc(), diag::err_cuda_this,
                  diag::note_cuda_this);
  if (W.BadCapture) {
    const auto *V = cast<VarDecl>(W.BadCapture->getDecl());
    return refuse(W.BadCapture->getLocation(),
                  {diag::err_cuda_capture,
                   {V->getName().str(), qualifiedName(Ctx, V->getType())}},
                  diag::note_cuda_capture);
  }
  if (W.BadGlobal)
    return refuse(W.BadGlobal->getLocation(),
                  {diag::err_cuda_global,
                   {W.BadGlobal->getDecl()->getName().str()}},
                  diag::note_cuda_global);
  for (auto &[FD, L] : W.Calls)
    if (!reach(FD, L))
      return false;
  return true;
}

bool Checker::reach(const FunctionDecl *FD, SourceLocation CallLoc) {
  if (FD->isImplicit() && !FD->hasBody())
    return true;
  if (const FunctionDecl *Pat = FD->getTemplateInstantiationPattern())
    FD = Pat;
  if (!Seen.insert(FD->getCanonicalDecl()).second)
    return true;
  if (SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())))
    return true; // the standard library's device versions (math) or none
  if (FD->isImplicit())
    return true; // nvcc compiles implicit members for both sides
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (MD && MD->getParent()->isLambda()) {
    if (!inLoop(MD->getParent()->getLocation()))
      return refuse(CallLoc, diag::err_cuda_outer_lambda,
                    diag::note_cuda_outer_lambda);
  } else if (!emittedByView(FD) && !markedForDevice(Ctx, FD)) {
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def) {
      StoredDiag &D = Diags.report(
          CallLoc, {diag::err_cuda_no_definition, {FD->getQualifiedNameAsString()}});
      Diags.note(D, FD->getLocation(), diag::note_cuda_no_definition);
      Diags.note(D, Attr->Range.getBegin(), diag::note_offloaded_here);
      return false;
    }
    for (const FunctionDecl *R : FD->redecls())
      if (SM.getFileID(SM.getFileLoc(R->getLocation())) != SM.getMainFileID()) {
        StoredDiag &D = Diags.report(
            CallLoc, {diag::err_cuda_in_header, {FD->getQualifiedNameAsString()}});
        Diags.note(D, R->getLocation(), diag::note_cuda_in_header);
        Diags.note(D, Attr->Range.getBegin(), diag::note_offloaded_here);
        return false;
      }
    DeviceFunctions.push_back(FD);
  }
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def))
    return true;
  struct Reached : DeviceWalk<Reached> {
    using DeviceWalk<Reached>::DeviceWalk;
  } K(Ctx, Routed);
  K.TraverseStmt(Def->getBody());
  if (K.BadGlobal)
    return refuse(K.BadGlobal->getLocation(),
                  {diag::err_cuda_callee_global,
                   {FD->getNameAsString(),
                    K.BadGlobal->getDecl()->getName().str()}},
                  diag::note_cuda_callee_global);
  for (auto &[G, L] : K.Calls)
    if (!reach(G, L))
      return false;
  return true;
}

bool Checker::run() { return enclosingFunction() && body(); }

} // namespace

std::optional<std::vector<const FunctionDecl *>>
checkCudaOffload(ASTContext &Ctx, const NestPlan &Nest, const LoopPlan &P,
                 DiagStore &Diags) {
  Checker C(Ctx, Nest, P, Diags);
  if (!C.run())
    return std::nullopt;
  return std::move(C.DeviceFunctions);
}

} // namespace soaview
