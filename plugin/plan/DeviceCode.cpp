//===- DeviceCode.cpp - the code an offloaded loop runs -------------------===//
//
// Two walks over the code an offloaded loop runs, from its body through
// every user function it calls (constructors and destructors included):
//  * the allocation it does (HeapUse): each malloc, calloc, aligned_alloc,
//    free, new and delete is routed to soaview's device heap, what cannot
//    be is recorded (realloc; explicit calls of operator new and delete;
//    class-specific or user placement operators; arrays of types with
//    destructors, whose count lives in an ABI cookie; delete through a
//    virtual destructor; allocation spelt inside a macro), and so are frees
//    inside system headers (std::unique_ptr, containers), which would free
//    heap blocks with the device runtime's free;
//  * for the CUDA backend, what its kernel runs (DeviceReach): `this`,
//    captures a copy does not carry, globals only the host has, and every
//    user function reached, in depth-first order, with whether the emitter
//    must mark it __host__ __device__.
// checks/HeapChecks.cpp and checks/CudaChecks.cpp judge what these find.
//===----------------------------------------------------------------------===//
#include "plan/DeviceCode.h"

#include "support/AstHelpers.h"
#include "support/Reach.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <set>

using namespace clang;

namespace soaview {

/// Text without its comments and preprocessor directives (Text starts in
/// a directive when InDirective).
static std::string codeOnly(StringRef Text, bool InDirective) {
  std::string Code;
  bool LineStart = true;
  for (size_t I = 0; I < Text.size();) {
    if (InDirective || (LineStart && Text[I] == '#') ||
        Text.substr(I).starts_with("//")) {
      while (I < Text.size() && Text[I] != '\n')
        I += Text[I] == '\\' ? 2 : 1; // a backslash continues a directive
      InDirective = false;
      continue;
    }
    if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      I = End == StringRef::npos ? Text.size() : End + 2;
      Code += ' ';
      continue;
    }
    LineStart = Text[I] == '\n' || (LineStart && isWhitespace(Text[I]));
    Code += Text[I++];
  }
  return Code;
}

bool markedForDevice(ASTContext &Ctx, const FunctionDecl *FD) {
  if (FD->isConstexpr())
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  // The code before the name, back to the end of the previous declaration
  // or directive: macros there expand to nothing in this (host) parse.
  // Words in comments and in a directive (`#define KERNEL_ROOT ...` just
  // before a function) are not the declaration's.
  SourceLocation Name = SM.getFileLoc(FD->getLocation());
  auto [FID, Off] = SM.getDecomposedLoc(Name);
  StringRef Buf = SM.getBufferData(FID);
  unsigned B = Off;
  while (B > 0 && !StringRef(";{}>#").contains(Buf[B - 1]))
    --B;
  std::string Code = codeOnly(Buf.slice(B, Off), B > 0 && Buf[B - 1] == '#');
  StringRef Before = Code;
  for (size_t I = 0; I < Before.size();) {
    if (!isAsciiIdentifierStart(Before[I])) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Before.size() && isAsciiIdentifierContinue(Before[J]))
      ++J;
    StringRef Word = Before.slice(I, J);
    if (Word == "__device__" || Ctx.Idents.get(Word).hadMacroDefinition())
      return true;
    I = J;
  }
  return false;
}

namespace {

//--- Allocation --------------------------------------------------------------

/// The C allocation functions soaview routes (and realloc, which it
/// refuses): declared in a system header, at global scope or in std.
std::optional<StringRef> cAllocation(const SourceManager &SM,
                                     const FunctionDecl *FD) {
  if (!FD->getIdentifier() ||
      !SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())))
    return std::nullopt;
  const DeclContext *DC =
      FD->getDeclContext()->getRedeclContext(); // past extern "C"
  if (!DC->isTranslationUnit() && !DC->isStdNamespace())
    return std::nullopt;
  StringRef N = FD->getName();
  if (N == "malloc" || N == "calloc" || N == "aligned_alloc" || N == "free" ||
      N == "realloc")
    return N;
  return std::nullopt;
}

bool isAllocationOperator(const FunctionDecl *FD) {
  OverloadedOperatorKind K = FD->getOverloadedOperator();
  return K == OO_New || K == OO_Array_New || K == OO_Delete ||
         K == OO_Array_Delete;
}

/// Walks the code an offloaded loop runs, recording what to route and the
/// first thing that cannot be. The functions it runs are walked where they
/// are met (ReachedFunctions::now), each once.
class HeapWalk : public RecursiveASTVisitor<HeapWalk> {
public:
  HeapWalk(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()),
        Reach([this](const Entry &E) { enter(E); }) {}

  std::vector<HeapRoute> Routes;
  bool Allocates = false;
  /// The first allocation that cannot be routed: where, what and why.
  std::optional<std::pair<SourceLocation, Msg>> Unroutable;
  /// A system-header function that frees memory, and the call reaching it.
  std::optional<std::pair<SourceLocation, const FunctionDecl *>> SystemFree;

  /// The functions S runs: calls (allocation aside), constructions, the
  /// destructors of what it builds or deletes.
  bool VisitStmt(Stmt *S) {
    runsAt(Ctx, S, Runs, [&](const Run &R) {
      if (R.Kind == RunKind::Call)
        call(cast<CallExpr>(R.Site), R.FD);
      else
        walkFunction(R.FD, cast<Expr>(R.Site)->getExprLoc());
    });
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *E);
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E);
  bool VisitVarDecl(VarDecl *V) {
    if (!V->getType()->isReferenceType())
      destructorsOf(Ctx, V->getType(), Runs.Destructors,
                    [&](const CXXDestructorDecl *D) {
                      walkFunction(D, V->getLocation());
                    });
    return true;
  }

private:
  /// A function definition the walk enters, and the code that runs it.
  struct Entry {
    const FunctionDecl *Def;
    SourceLocation From;
  };
  void call(const CallExpr *E, const FunctionDecl *FD);
  void walkFunction(const FunctionDecl *FD, SourceLocation From) {
    const FunctionDecl *Def = nullptr;
    if (FD && FD->hasBody(Def))
      Reach.now(Def, {Def, From});
  }
  void enter(const Entry &E);
  void cannotRoute(SourceLocation L, Msg M) {
    if (!Unroutable)
      Unroutable = {{L, std::move(M)}};
  }
  void unroutable(SourceLocation L, std::string What, std::string Why) {
    cannotRoute(L,
                {diag::err_heap_unroutable, {std::move(What), std::move(Why)}});
  }
  bool inMacro(const Expr *E) {
    return E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID();
  }
  void systemFree() {
    if (!SystemFree)
      SystemFree = {{SystemEntry, SystemEntryFn}};
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  /// Destructors count with their bases' and fields'.
  const RunRule Runs{DestructorRule::WithParts};
  ReachedFunctions<const FunctionDecl *, Entry> Reach;
  /// Set while walking a system header's function: only frees are looked
  /// for there (it is never rewritten).
  bool InSystem = false;
  /// The call from user code into the system function being walked.
  SourceLocation SystemEntry;
  const FunctionDecl *SystemEntryFn = nullptr;
};

void HeapWalk::enter(const Entry &E) {
  bool System = SM.isInSystemHeader(SM.getFileLoc(E.Def->getLocation()));
  bool Was = InSystem;
  if (System && !Was) { // entered from the user's code
    SystemEntry = E.From;
    SystemEntryFn = E.Def;
  }
  InSystem = System; // user code a system function calls is the user's
  TraverseDecl(const_cast<FunctionDecl *>(E.Def));
  InSystem = Was;
}

void HeapWalk::call(const CallExpr *E, const FunctionDecl *FD) {
  if (!FD)
    return;
  if (std::optional<StringRef> C = cAllocation(SM, FD)) {
    if (InSystem) {
      if (*C == "free")
        systemFree();
      return;
    }
    if (*C == "realloc")
      cannotRoute(E->getExprLoc(),
                  {diag::err_heap_realloc, {FD->getNameAsString()}});
    else if (inMacro(E))
      unroutable(E->getExprLoc(), "'" + C->str() + "'",
                 "it is written inside a macro");
    else {
      Routes.push_back({E});
      Allocates |= *C != "free";
    }
    return;
  }
  if (isAllocationOperator(FD)) {
    bool Frees = FD->getOverloadedOperator() == OO_Delete ||
                 FD->getOverloadedOperator() == OO_Array_Delete;
    if (InSystem && Frees)
      systemFree();
    else if (!InSystem)
      unroutable(E->getExprLoc(),
                 "the call of '" + FD->getQualifiedNameAsString() + "'",
                 "explicit calls of allocation functions are not routed");
    return;
  }
  walkFunction(FD, E->getExprLoc());
}

bool HeapWalk::VisitCXXNewExpr(CXXNewExpr *E) {
  const FunctionDecl *Op = E->getOperatorNew();
  if (InSystem || !Op || Op->isReservedGlobalPlacementOperator())
    return true; // placement into storage the code already has
  std::string What = E->isArray() ? "'new[]'" : "'new'";
  QualType T = E->getAllocatedType();
  if (!Op->isReplaceableGlobalAllocationFunction())
    unroutable(E->getBeginLoc(), What,
               "it calls '" + Op->getQualifiedNameAsString() + "' of '" +
                   T.getAsString() + "'");
  else if (E->isArray() && Ctx.getBaseElementType(T).isDestructedType())
    unroutable(E->getBeginLoc(), What,
               "the elements of type '" + T.getAsString() +
                   "' have a destructor");
  else if (inMacro(E))
    unroutable(E->getBeginLoc(), What, "it is written inside a macro");
  else {
    Routes.push_back({E});
    Allocates = true;
  }
  return true;
}

bool HeapWalk::VisitCXXDeleteExpr(CXXDeleteExpr *E) {
  QualType T = E->getDestroyedType(); // its destructors: VisitStmt
  if (InSystem) {
    systemFree();
    return true;
  }
  std::string What = E->isArrayForm() ? "'delete[]'" : "'delete'";
  const FunctionDecl *Op = E->getOperatorDelete();
  const auto *RD = T->getAsCXXRecordDecl();
  if (Op && !Op->isReplaceableGlobalAllocationFunction())
    unroutable(E->getBeginLoc(), What,
               "it calls '" + Op->getQualifiedNameAsString() + "' of '" +
                   T.getAsString() + "'");
  else if (E->isArrayForm() && T.isDestructedType())
    unroutable(E->getBeginLoc(), What,
               "the elements of type '" + T.getAsString() +
                   "' have a destructor");
  else if (RD && RD->hasDefinition() && RD->isPolymorphic())
    unroutable(E->getBeginLoc(), What,
               "'" + T.getAsString() +
                   "' is polymorphic (the object may be "
                   "a different class's)");
  else if (inMacro(E))
    unroutable(E->getBeginLoc(), What, "it is written inside a macro");
  else
    Routes.push_back({E});
  return true;
}

//--- What a CUDA kernel runs -------------------------------------------------

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

/// A constant table: a const variable at namespace scope (or a static data
/// member) with a constant initializer that is not a device constant
/// (an array). OpenMP's `declare target` gives the device its own copy.
bool constantTable(const VarDecl *V) {
  return V->getType().isConstQualified() && !V->isStaticLocal() &&
         V->hasConstantInitialization() && V->getDefinition();
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
  const DeclRefExpr *BadVariable = nullptr;   ///< BadGlobal, tables aside
  std::vector<const DeclRefExpr *> TableRefs; ///< to constant tables
  SourceLocation OpenMPUse;                   ///< DeviceReach::OpenMPUse
  // A RecursiveASTVisitor's names and a base its walkers build on:
  // NOLINTBEGIN(readability-identifier-naming,bugprone-crtp-constructor-accessibility)
  DeviceWalk(ASTContext &Ctx, const std::set<const Stmt *> &Replaced)
      : Ctx(Ctx), Replaced(Replaced) {}
  bool ownStatic(const VarDecl *) const { return false; }
  bool TraverseStmt(Stmt *S) {
    return Replaced.count(S) ? true : Base::TraverseStmt(S);
  }
  /// Calls, constructors and the destructors that end what a statement
  /// builds or deletes (the class's own: nvcc compiles implicit ones for
  /// both sides).
  bool VisitStmt(Stmt *S) {
    if (OpenMPUse.isInvalid() && isa<OMPExecutableDirective>(S))
      OpenMPUse = S->getBeginLoc();
    runsAt(Ctx, S, RunRule{}, [&](const Run &R) {
      const auto *E = dyn_cast<Expr>(R.Site);
      SourceLocation Loc = E ? E->getExprLoc() : R.Site->getBeginLoc();
      if (OpenMPUse.isInvalid() && mayUseOpenMP(R))
        OpenMPUse = Loc;
      if (R.FD)
        Calls.push_back({R.FD, Loc});
    });
    return true;
  }
  /// A call of OpenMP's runtime (omp.h, ompx.h, the device runtime), or one
  /// whose callee the walk cannot see (DeviceReach::OpenMPUse). A call in a
  /// template that depends on its parameters has its callee only in the
  /// instances, which the walk reads too (Read::Instance).
  static bool mayUseOpenMP(const Run &R) {
    if (!R.FD) {
      const auto *E = dyn_cast<Expr>(R.Site);
      return !E || !E->isInstantiationDependent();
    }
    if (const auto *MD = dyn_cast<CXXMethodDecl>(R.FD); MD && MD->isVirtual())
      return true;
    const IdentifierInfo *Id = R.FD->getIdentifier();
    if (!Id)
      return false;
    StringRef Name = Id->getName();
    return Name.starts_with("omp_") || Name.starts_with("ompx_") ||
           Name.starts_with("__kmpc_");
  }
  /// An object of an empty class (`std::nothrow`): no data to read.
  static bool tag(const VarDecl *V) {
    const auto *RD = V->getType()->getAsCXXRecordDecl();
    return RD && RD->hasDefinition() && RD->isEmpty();
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (!V || !V->hasGlobalStorage() || deviceConstant(Ctx, V) || tag(V) ||
        (V->isStaticLocal() && static_cast<Derived *>(this)->ownStatic(V)))
      return true;
    if (!BadGlobal)
      BadGlobal = E;
    if (constantTable(V))
      TableRefs.push_back(E);
    else if (!BadVariable)
      BadVariable = E;
    return true;
  }
  // NOLINTEND(readability-identifier-naming,bugprone-crtp-constructor-accessibility)
};

/// The depth-first walk from an offloaded loop's body through the user
/// functions it reaches.
class Reacher {
public:
  Reacher(ASTContext &Ctx, const NestPlan &Nest, const LoopPlan &Plan)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Nest(Nest), Plan(Plan) {
    for (const HeapRoute &H : Nest.heapRoutes())
      if (const auto *NE = dyn_cast<CXXNewExpr>(H.E))
        for (const Expr *A : NE->placement_arguments())
          Routed.insert(A);
  }

  DeviceReach run();

private:
  /// What the walk reads: the loop's body, a function as written (a
  /// template's pattern), a template's instance or an implicit member.
  enum class Read { Body, Written, Instance, Implicit };
  struct Item {
    Read What;
    const FunctionDecl *FD;
    SourceLocation CallLoc;
  };
  /// Each function once as written and each instance once.
  using Key = std::pair<Read, const FunctionDecl *>;

  void read(const Item &I);
  void body();
  void reach(const FunctionDecl *FD, SourceLocation CallLoc);
  void reachWritten(const FunctionDecl *FD, SourceLocation CallLoc);
  void followCalls(const FunctionDecl *Def);
  bool inLoop(SourceLocation L) const {
    return !SM.isBeforeInTranslationUnit(L, Plan.Form.Loop->getBeginLoc()) &&
           !SM.isBeforeInTranslationUnit(Plan.Form.Loop->getEndLoc(), L);
  }
  /// Functions that get a view-typed clone or are copied into a view: the
  /// emitter writes those for the device; their callees still need a look.
  bool emittedByView(const FunctionDecl *FD) const;
  /// The first place the kernel's code may use OpenMP (DeviceReach::OpenMPUse).
  void noteOpenMPUse(SourceLocation L) {
    if (Found.OpenMPUse.isInvalid())
      Found.OpenMPUse = L;
  }
  /// The tables Refs name, once each (their definitions).
  void addTables(const std::vector<const DeclRefExpr *> &Refs) {
    for (const DeclRefExpr *E : Refs)
      if (const VarDecl *V = cast<VarDecl>(E->getDecl())->getDefinition();
          !llvm::is_contained(Found.Tables, V))
        Found.Tables.push_back(V);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const NestPlan &Nest;
  const LoopPlan &Plan;
  DeviceReach Found;
  /// Depth first, each body's calls once it is read: Found.Functions is in
  /// that order.
  ReachedFunctions<Key, Item> Reach{[this](const Item &I) { read(I); }};
  std::set<const Stmt *> Routed; ///< placement arguments routing replaces
};

bool Reacher::emittedByView(const FunctionDecl *FD) const {
  const FunctionDecl *C = FD->getCanonicalDecl();
  for (const CalleeUse &U : Nest.Callees)
    if (U.NeedsClone && U.FD->getCanonicalDecl() == C)
      return true;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    for (const LoopPlan &L : Nest.Loops)
      for (auto &[Path, Methods] : L.View.Methods)
        for (const CXXMethodDecl *M : Methods)
          if (M->getCanonicalDecl() == MD->getCanonicalDecl())
            return true;
  return false;
}

/// Expressions of the loop headers soaview replaces: not in the kernel.
static std::vector<const Expr *> replacedHeaders(const NestPlan &Nest,
                                                 const LoopPlan &Plan) {
  std::vector<const Expr *> Replaced;
  for (size_t Inner : Plan.DeviceInners) {
    const LoopForm &F = Nest.Loops[Inner].Form;
    for (const Expr *E : {F.RangeInit, F.Lo, F.Hi, F.Begin, F.End})
      if (E)
        Replaced.push_back(E);
  }
  return Replaced;
}

void Reacher::body() {
  const std::vector<const Expr *> Replaced = replacedHeaders(Nest, Plan);
  std::set<const NamedDecl *> Targets;
  for (const LoopPlan &L : Nest.Loops)
    if (L.Form.Kind == LoopFormKind::Index && L.Form.Target)
      Targets.insert(L.Form.Target);

  struct Walk : DeviceWalk<Walk> {
    using Base = DeviceWalk<Walk>;
    const Reacher &Owner;
    const std::vector<const Expr *> &Skip;
    const std::set<const NamedDecl *> &Targets;
    const Stmt *BadThis = nullptr;
    const DeclRefExpr *BadCapture = nullptr;
    Walk(const Reacher &Owner, const std::vector<const Expr *> &Skip,
         const std::set<const NamedDecl *> &Targets)
        : Base(Owner.Ctx, Owner.Routed), Owner(Owner), Skip(Skip),
          Targets(Targets) {}
    /// Static locals of the loop body itself are compiled into the kernel.
    bool ownStatic(const VarDecl *V) const {
      return Owner.inLoop(V->getLocation());
    }
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
      if (!V->hasGlobalStorage() && !Owner.inLoop(V->getLocation()) &&
          !deviceCopyable(Owner.Ctx, V->getType()) && !BadCapture)
        BadCapture = E;
      return true;
    }
  } W(*this, Replaced, Targets);
  W.TraverseStmt(const_cast<Stmt *>(Plan.Form.Body));
  Found.ThisUse = W.BadThis;
  Found.BadCapture = W.BadCapture;
  Found.HostGlobal = W.BadGlobal;
  Found.HostVariable = W.BadVariable;
  noteOpenMPUse(W.OpenMPUse);
  addTables(W.TableRefs);
  Found.TableRefs = W.TableRefs;
  for (auto &[FD, L] : W.Calls)
    reach(FD, L);
}

void Reacher::read(const Item &I) {
  switch (I.What) {
  case Read::Body:
    return body();
  case Read::Written:
    return reachWritten(I.FD, I.CallLoc);
  case Read::Instance:
  case Read::Implicit:
    return followCalls(I.FD);
  }
}

/// A call the code being read makes: its function as written, then (a
/// template's) the instance called, once the caller is read.
void Reacher::reach(const FunctionDecl *FD, SourceLocation CallLoc) {
  if (FD->isImplicit() && !FD->hasBody())
    return;
  const FunctionDecl *Instance = FD;
  FD = writtenFunction(FD);
  if (SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())))
    return; // the standard library's device versions (math) or none
  if (const FunctionDecl *Def = nullptr; FD->isImplicit()) {
    if (FD->hasBody(Def)) // what it runs is the user's (members' constructors)
      Reach.afterBody({Read::Implicit, Def->getCanonicalDecl()},
                      {Read::Implicit, Def, CallLoc});
    return;
  }
  Reach.afterBody({Read::Written, FD->getCanonicalDecl()},
                  {Read::Written, FD, CallLoc});
  const FunctionDecl *Def = nullptr;
  if (Instance != FD && Instance->hasBody(Def))
    Reach.afterBody({Read::Instance, Def->getCanonicalDecl()},
                    {Read::Instance, Def, CallLoc});
}

/// The body of a function device code reaches (DeviceWalk's findings).
struct ReachedWalk : DeviceWalk<ReachedWalk> {
  using DeviceWalk<ReachedWalk>::DeviceWalk;
};

/// Walks Def with K: a constructor's member and base initialisers, written
/// or from a member's default (they run on the device where it does), then
/// the body, and after a destructor's body its fields' and bases'
/// destructors.
void walkDefinition(ReachedWalk &K, const FunctionDecl *Def) {
  definitionCode(Def,
                 [&](const Stmt *S) { K.TraverseStmt(const_cast<Stmt *>(S)); });
  if (const auto *Dt = dyn_cast<CXXDestructorDecl>(Def))
    partsDestroyed(K.Ctx, Dt, DestructorRule::Own,
                   [&](const CXXDestructorDecl *D) {
                     K.Calls.push_back({D, Dt->getLocation()});
                   });
}

/// A function as written (a template's pattern): recorded, its body walked
/// for what device code may not use and for the calls it makes.
void Reacher::reachWritten(const FunctionDecl *FD, SourceLocation CallLoc) {
  ReachedFunction Reached{FD, CallLoc};
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  Reached.Lambda = MD && MD->getParent()->isLambda();
  Reached.Copied = emittedByView(FD);
  Reached.NeedsMark =
      !Reached.Lambda && !Reached.Copied && !markedForDevice(Ctx, FD);
  size_t At = Found.Functions.size();
  Found.Functions.push_back(Reached);
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def)) {
    noteOpenMPUse(CallLoc); // defined elsewhere: not seen
    return;
  }
  ReachedWalk K(Ctx, Routed);
  walkDefinition(K, Def);
  Found.Functions[At].HostGlobal = K.BadGlobal;
  Found.Functions[At].HostVariable = K.BadVariable;
  noteOpenMPUse(K.OpenMPUse);
  addTables(K.TableRefs);
  Found.Functions[At].TableRefs = K.TableRefs;
  for (auto &[Callee, L] : K.Calls)
    reach(Callee, L);
}

/// The calls of a definition that is not recorded: a template's instance
/// (the calls its pattern makes through dependent names, `per(a->x - b->x)`
/// with `a` of a template parameter's type, have a callee only here), or an
/// implicit member, which nvcc compiles for both sides but whose members'
/// and bases' constructors and destructors are the user's.
void Reacher::followCalls(const FunctionDecl *Def) {
  ReachedWalk K(Ctx, Routed);
  walkDefinition(K, Def);
  noteOpenMPUse(K.OpenMPUse);
  for (auto &[Callee, L] : K.Calls)
    reach(Callee, L);
}

DeviceReach Reacher::run() {
  Reach.run({Read::Body, nullptr, {}});
  return std::move(Found);
}

} // namespace

HeapUse findHeapUse(ASTContext &Ctx, const Stmt *Body) {
  HeapWalk W(Ctx);
  W.TraverseStmt(const_cast<Stmt *>(Body));
  HeapUse Use;
  Use.Routes = std::move(W.Routes);
  Use.Allocates = W.Allocates;
  Use.Unroutable = std::move(W.Unroutable);
  Use.SystemFree = W.SystemFree;
  return Use;
}

DeviceReach reachDeviceCode(ASTContext &Ctx, const NestPlan &Nest,
                            const LoopPlan &P) {
  return Reacher(Ctx, Nest, P).run();
}

} // namespace soaview
