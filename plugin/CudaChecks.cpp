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
#include "CudaChecks.h"

#include "Annotations.h"
#include "Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

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
  ASTContext &Ctx;
  std::vector<std::pair<const FunctionDecl *, SourceLocation>> Calls;
  const DeclRefExpr *BadGlobal = nullptr;
  explicit DeviceWalk(ASTContext &Ctx) : Ctx(Ctx) {}
  bool ownStatic(const VarDecl *) const { return false; }
  bool VisitCallExpr(CallExpr *E) {
    if (const FunctionDecl *FD = E->getDirectCallee())
      Calls.push_back({FD, E->getExprLoc()});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Calls.push_back({E->getConstructor(), E->getExprLoc()});
    return true;
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
  Checker(ASTContext &Ctx, NestPlan &Nest, const LoopPlan &P, DiagStore &Diags)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Nest(Nest), P(P), Diags(Diags),
        Attr(P.Annotation->get(AttrKind::Offload)) {}

  bool run();

private:
  bool refuse(SourceLocation L, const std::string &Msg, const std::string &Note) {
    StoredDiag &D = Diags.error(L, "cannot offload loop to CUDA: " + Msg);
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
  NestPlan &Nest;
  const LoopPlan &P;
  DiagStore &Diags;
  const AttrUse *Attr;
  std::set<const FunctionDecl *> Seen;
};

bool Checker::enclosingFunction() {
  const FunctionDecl *Fn = P.Form.Function;
  if (const FunctionDecl *Pat = Fn->getTemplateInstantiationPattern())
    Fn = Pat;
  const char *Why = nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Fn)) {
    if (MD->getParent()->isLambda())
      Why = "it is inside a lambda";
    for (const DeclContext *DC = MD->getParent(); !Why && DC && DC->isRecord();
         DC = DC->getParent()) {
      const auto *RD = cast<RecordDecl>(DC);
      if (RD->getAccess() == AS_private || RD->getAccess() == AS_protected)
        Why = "the function holding it is a member of a private or protected "
              "nested class";
      else if (!RD->getIdentifier())
        Why = "the function holding it is a member of an unnamed class";
    }
    if (!Why && MD->getAccess() != AS_public && MD->getAccess() != AS_none)
      Why = "the function holding it is a private or protected member";
  }
  if (!Why && Fn->getReturnType()->getContainedDeducedType())
    Why = "the function holding it has a deduced return type";
  if (!Why)
    return true;
  return refuse(P.Annotation->ForLoc, Why,
                "nvcc accepts the kernel's __device__ lambda only in a named "
                "function with a declared return type that is public where "
                "it is a member: move the loop into such a function");
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
        : Base(C.Ctx), C(C), Skip(Skip), Targets(Targets) {}
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
    return refuse(W.BadThis->getBeginLoc(),
                  "it uses 'this' (members of the enclosing object)",
                  "the kernel receives copies of the values it uses; the "
                  "object stays in host memory: copy the members it needs "
                  "into local variables before the loop");
  if (W.BadCapture) {
    const auto *V = cast<VarDecl>(W.BadCapture->getDecl());
    return refuse(W.BadCapture->getLocation(),
                  "it uses '" + V->getName().str() + "' (of type '" +
                      qualifiedName(Ctx, V->getType()) +
                      "'), declared outside the loop",
                  "the kernel receives a copy of each value it uses; "
                  "pointers, references and objects holding them would "
                  "refer to host memory: use plain values, or fields of the "
                  "elements");
  }
  if (W.BadGlobal)
    return refuse(W.BadGlobal->getLocation(),
                  "it uses the variable '" +
                      W.BadGlobal->getDecl()->getName().str() +
                      "', which lives in host memory",
                  "device code sees only constants (constexpr, or const "
                  "scalars with constant initializers): pass the value "
                  "through a local variable");
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
      return refuse(CallLoc, "it calls a lambda defined outside the loop",
                    "a lambda's call operator is compiled for the host "
                    "where it is defined: define the lambda inside the loop "
                    "body, or make it a function");
  } else if (!emittedByView(FD) && !markedForDevice(Ctx, FD)) {
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def) {
      StoredDiag &D = Diags.error(
          CallLoc, "cannot offload loop to CUDA: it calls '" +
                       FD->getQualifiedNameAsString() +
                       "', whose definition is not in this file");
      Diags.note(D, FD->getLocation(),
                 "the device needs the function's code: define it in the "
                 "translated file or in a header, marked __host__ __device__");
      Diags.note(D, Attr->Range.getBegin(), "offloaded here");
      return false;
    }
    for (const FunctionDecl *R : FD->redecls())
      if (SM.getFileID(SM.getFileLoc(R->getLocation())) != SM.getMainFileID()) {
        StoredDiag &D = Diags.error(
            CallLoc, "cannot offload loop to CUDA: it calls '" +
                         FD->getQualifiedNameAsString() +
                         "', declared in a header that soaview-translate "
                         "does not rewrite");
        Diags.note(D, R->getLocation(),
                   "mark the function for the device there: a macro that is "
                   "'__host__ __device__' under nvcc and empty otherwise "
                   "(soaview accepts any macro in the declaration), or "
                   "constexpr");
        Diags.note(D, Attr->Range.getBegin(), "offloaded here");
        return false;
      }
    Nest.DeviceFunctions.push_back(FD);
  }
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def))
    return true;
  struct Reached : DeviceWalk<Reached> {
    using DeviceWalk<Reached>::DeviceWalk;
  } K(Ctx);
  K.TraverseStmt(Def->getBody());
  if (K.BadGlobal)
    return refuse(K.BadGlobal->getLocation(),
                  "'" + FD->getNameAsString() + "', called in the loop, uses "
                  "the variable '" + K.BadGlobal->getDecl()->getName().str() +
                  "', which lives in host memory",
                  "device code sees only constants (constexpr, or const "
                  "scalars with constant initializers)");
  for (auto &[G, L] : K.Calls)
    if (!reach(G, L))
      return false;
  return true;
}

bool Checker::run() { return enclosingFunction() && body(); }

} // namespace

bool checkCudaOffload(ASTContext &Ctx, NestPlan &Nest, const LoopPlan &P,
                      DiagStore &Diags) {
  return Checker(Ctx, Nest, P, Diags).run();
}

} // namespace soaview
