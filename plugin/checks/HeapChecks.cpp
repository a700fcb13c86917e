//===- HeapChecks.cpp - allocation in offloaded code ----------------------===//
//
// An offloaded loop's code (its body and every user function it reaches,
// including the constructors and destructors it runs) allocates from
// soaview's device heap: each malloc, calloc, aligned_alloc, free, new and
// delete there is routed (NestPlan::HeapRoutes; the emitter rewrites them,
// soaview/heap_route.h says into what). Routed functions keep the standard
// allocation when called from host code, so routing a function that host
// code calls too changes nothing there.
//
// Refused, with the reason: realloc; explicit calls of operator new and
// delete; class-specific or user placement operators; arrays of types with
// destructors (their count lives in an ABI cookie); delete through a virtual
// destructor; allocation spelt inside a macro; frees inside system headers
// (std::unique_ptr, containers) in a loop that allocates from the heap,
// since those would free heap blocks with the device runtime's free; and
// pointer fields written by a loop that allocates (heap blocks cannot
// outlive the launch).
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <set>

using namespace clang;

namespace soaview {

namespace {

/// The C allocation functions soaview routes (and realloc, which it
/// refuses): declared in a system header, at global scope or in std.
std::optional<StringRef> cAllocation(const SourceManager &SM, const FunctionDecl *FD) {
  if (!FD->getIdentifier() ||
      !SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())))
    return std::nullopt;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext(); // past extern "C"
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
/// first thing that cannot be.
class Walk : public RecursiveASTVisitor<Walk> {
public:
  Walk(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  std::vector<HeapRoute> Routes;
  bool Allocates = false;
  /// The first refusal: where, what and why.
  std::optional<std::pair<SourceLocation, Msg>> Refusal;
  /// A system-header function that frees memory, and the call reaching it.
  std::optional<std::pair<SourceLocation, const FunctionDecl *>> SystemFree;

  void walkFunction(const FunctionDecl *FD, SourceLocation From);

  bool VisitCallExpr(CallExpr *E);
  bool VisitCXXNewExpr(CXXNewExpr *E);
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E);
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    walkFunction(E->getConstructor(), E->getExprLoc());
    walkDestructor(E->getType(), E->getExprLoc());
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (!V->getType()->isReferenceType())
      walkDestructor(V->getType(), V->getLocation());
    return true;
  }

private:
  void refuse(SourceLocation L, Msg M) {
    if (!Refusal)
      Refusal = {{L, std::move(M)}};
  }
  void unroutable(SourceLocation L, std::string What, std::string Why) {
    refuse(L, {diag::err_heap_unroutable, {std::move(What), std::move(Why)}});
  }
  bool inMacro(const Expr *E) {
    return E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID();
  }
  void walkDestructor(QualType T, SourceLocation From);
  void systemFree() {
    if (!SystemFree)
      SystemFree = {{SystemEntry, SystemEntryFn}};
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  std::set<const Decl *> Seen;
  /// Set while walking a system header's function: only frees are looked
  /// for there (it is never rewritten).
  bool InSystem = false;
  /// The call from user code into the system function being walked.
  SourceLocation SystemEntry;
  const FunctionDecl *SystemEntryFn = nullptr;
};

void Walk::walkFunction(const FunctionDecl *FD, SourceLocation From) {
  if (!FD)
    return;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Seen.insert(Def).second)
    return;
  bool System = SM.isInSystemHeader(SM.getFileLoc(Def->getLocation()));
  bool Was = InSystem;
  if (System && !Was) { // entered from the user's code
    SystemEntry = From;
    SystemEntryFn = Def;
  }
  InSystem = System; // user code a system function calls is the user's
  TraverseDecl(const_cast<FunctionDecl *>(Def));
  InSystem = Was;
}

/// The destructors an object of type T runs: its class's, its bases' and
/// its fields'.
void Walk::walkDestructor(QualType T, SourceLocation From) {
  const CXXRecordDecl *RD = classWithDestructor(Ctx, T);
  if (!RD || !Seen.insert(RD).second)
    return;
  walkFunction(RD->getDestructor(), From);
  for (const CXXBaseSpecifier &B : RD->bases())
    walkDestructor(B.getType(), From);
  for (const FieldDecl *F : RD->fields())
    walkDestructor(F->getType(), From);
}

bool Walk::VisitCallExpr(CallExpr *E) {
  const FunctionDecl *FD = E->getDirectCallee();
  if (!FD)
    return true;
  if (std::optional<StringRef> C = cAllocation(SM, FD)) {
    if (InSystem) {
      if (*C == "free")
        systemFree();
      return true;
    }
    if (*C == "realloc")
      refuse(E->getExprLoc(), {diag::err_heap_realloc, {FD->getNameAsString()}});
    else if (inMacro(E))
      unroutable(E->getExprLoc(), "'" + C->str() + "'", "it is written inside a macro");
    else {
      Routes.push_back({E});
      Allocates |= *C != "free";
    }
    return true;
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
    return true;
  }
  walkFunction(FD, E->getExprLoc());
  return true;
}

bool Walk::VisitCXXNewExpr(CXXNewExpr *E) {
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
               "the elements of type '" + T.getAsString() + "' have a destructor");
  else if (inMacro(E))
    unroutable(E->getBeginLoc(), What, "it is written inside a macro");
  else {
    Routes.push_back({E});
    Allocates = true;
  }
  return true;
}

bool Walk::VisitCXXDeleteExpr(CXXDeleteExpr *E) {
  QualType T = E->getDestroyedType();
  walkDestructor(T, E->getBeginLoc());
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
               "the elements of type '" + T.getAsString() + "' have a destructor");
  else if (RD && RD->hasDefinition() && RD->isPolymorphic())
    unroutable(E->getBeginLoc(), What,
               "'" + T.getAsString() + "' is polymorphic (the object may be "
               "a different class's)");
  else if (inMacro(E))
    unroutable(E->getBeginLoc(), What, "it is written inside a macro");
  else
    Routes.push_back({E});
  return true;
}

} // namespace

bool planDeviceHeap(ASTContext &Ctx, NestPlan &Nest, LoopPlan &P,
                    DiagStore &Diags) {
  Walk W(Ctx);
  W.TraverseStmt(const_cast<Stmt *>(P.Form.Body));
  auto Refuse = [&](SourceLocation L, const Msg &Error, const Msg &Note) {
    StoredDiag &D = Diags.report(L, Error);
    Diags.note(D, P.OffloadAttr->Range.getBegin(), Note);
    return false;
  };
  if (W.Refusal) {
    diag::Id Note = W.Refusal->second.Id == diag::err_heap_realloc
                        ? diag::note_heap_realloc
                        : diag::note_heap_unroutable;
    return Refuse(W.Refusal->first, W.Refusal->second, Note);
  }
  if (W.Allocates && W.SystemFree)
    return Refuse(W.SystemFree->first,
                  {diag::err_heap_system_free,
                   {W.SystemFree->second->getQualifiedNameAsString()}},
                  diag::note_heap_system_free);
  if (W.Allocates)
    for (const LoopPlan &L : Nest.Loops)
      for (auto &[Path, Acc] : L.View.orderedLeaves())
        if (Acc.Written && Path.back()->getType()->isPointerType())
          return Refuse(Acc.FirstUse.isValid() ? Acc.FirstUse : L.Annotation->ForLoc,
                        {diag::err_heap_escape, {dotted(Path)}},
                        diag::note_heap_escape);
  P.UsesHeap = !W.Routes.empty();
  Nest.HeapRoutes.insert(Nest.HeapRoutes.end(), W.Routes.begin(), W.Routes.end());
  return true;
}

} // namespace soaview
