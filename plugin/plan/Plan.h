//===- Plan.h - the plan of a nest: what checks and emission read -*- C++
//-*-===//
//
// Planning's product and the read-only plan it assembles. Planning decides
// where each loop runs (host, device), whether a nest over cells is swept,
// where generated code goes, and what device code an offloaded loop reaches
// and allocates with; it reports nothing. The NestPlan joins the three
// products -- RecognisedLoop (forms/), LoopAnalysis (analysis/),
// LoopPlacement (plan/) -- and is only read afterwards: the checks judge it,
// the emitter writes it out (docs/design.md, "Stages and their products").
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_PLAN_H
#define SOAVIEW_PLAN_H

#include "analysis/View.h"
#include "diag/Diagnostics.h"
#include "forms/Forms.h"
#include "plan/Placement.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace soaview {

struct AttrUse;

/// An allocation or deallocation the emitter routes to the device heap:
/// a call of malloc, calloc, aligned_alloc or free (the callee is renamed),
/// a new-expression (placed on the heap) or a delete-expression (a call of
/// the heap's delete_object or delete_array).
struct HeapRoute {
  const clang::Expr *E; ///< CallExpr, CXXNewExpr or CXXDeleteExpr
};

/// The allocation in the code an offloaded loop runs (its body and every
/// user function it reaches, constructors and destructors included):
/// plan/DeviceCode.cpp finds it, checks/HeapChecks.cpp judges it.
struct HeapUse {
  std::vector<HeapRoute> Routes;
  /// Some route allocates (not only frees).
  bool Allocates = false;
  /// The first allocation that cannot be routed: where, and why.
  std::optional<std::pair<clang::SourceLocation, Msg>> Unroutable;
  /// A function of a system header that frees memory, and the call from the
  /// user's code that reaches it.
  std::optional<std::pair<clang::SourceLocation, const clang::FunctionDecl *>>
      SystemFree;
};

/// A user function that device code reaches (CUDA backend).
struct ReachedFunction {
  const clang::FunctionDecl *FD;
  clang::SourceLocation CallLoc;
  /// A variable with static storage its body reads that device code cannot
  /// (not a constant); null when none.
  const clang::DeclRefExpr *HostGlobal = nullptr;
  /// The same, not counting constant tables (OpenMP copies those).
  const clang::DeclRefExpr *HostVariable = nullptr;
  /// The references to constant tables in its body.
  std::vector<const clang::DeclRefExpr *> TableRefs;
  /// Copied for the device as a view's member or a clone (the copy can be
  /// edited wherever the function is written).
  bool Copied = false;
  /// A lambda called from the loop (it must be written in the loop).
  bool Lambda = false;
  /// Not compiled for the device yet: the emitter marks it __host__
  /// __device__ (not a view's copy or clone, not marked by the user).
  bool NeedsMark = false;
};

/// The code a CUDA kernel runs for an offloaded loop: what its body uses
/// that a kernel cannot, and every user function it reaches, in the order
/// a depth-first walk from the body meets them (plan/DeviceCode.cpp).
struct DeviceReach {
  const clang::Stmt *ThisUse = nullptr;
  /// A variable from outside the loop that a copy does not carry intact.
  const clang::DeclRefExpr *BadCapture = nullptr;
  const clang::DeclRefExpr *HostGlobal = nullptr;
  /// The same, not counting constant tables.
  const clang::DeclRefExpr *HostVariable = nullptr;
  /// Constant tables device code reads (const, constant initializer, at
  /// namespace scope: SWIFT's kernel coefficients); OpenMP declares them
  /// for the device.
  std::vector<const clang::VarDecl *> Tables;
  /// The references to them in the loop's body (those of the functions it
  /// reaches are theirs); the CUDA backend spells them through
  /// SOAVIEW_DEVICE_TABLE.
  std::vector<const clang::DeclRefExpr *> TableRefs;
  /// The OpenMP backend's checks judge host variables (constant tables get
  /// a device copy); the CUDA backend's own checks judge them.
  bool CopiesTables = false;
  std::vector<ReachedFunction> Functions;
  /// Where the code the kernel runs may use OpenMP first: a directive, a
  /// call of OpenMP's runtime (`omp_`, `ompx_`, `__kmpc_`), or a call the
  /// walk cannot follow (through a pointer, of a virtual function, of a
  /// function defined elsewhere). An OpenMP sweep's kernel runs without
  /// OpenMP's device runtime (emit/Sweeps.cpp) only where there is none
  /// (invalid).
  clang::SourceLocation OpenMPUse;
};

/// Where one loop runs; written by planning.
struct LoopPlacement {
  /// Run on a device (soa_conversion_offload_compute, or the local loop of
  /// a swept nest, when the compile can offload).
  bool Offload = false;
  /// The attribute that offloads it: its own, or the sweep's (set with
  /// Offload; notes of offload refusals point at it).
  const AttrUse *OffloadAttr = nullptr;
  /// The inner loop of an offloaded nest: its view is hoisted out of the
  /// offloaded loop, copied to the device, and the loop runs in the target
  /// region over the device buffers.
  bool DeviceInner = false;
  /// For an offloaded loop: the indices of the device-inner loops whose
  /// views it captures.
  std::vector<size_t> DeviceInners;
  /// Offloaded: the allocation its code does (empty with --device-heap=off).
  HeapUse Heap;
  /// Offloaded with the CUDA backend: the code its kernel runs.
  DeviceReach Reach;
  /// A read-only inner host loop whose body branches around its work: its
  /// frame builds every view once (packed_frame) and each iteration takes
  /// a reference to its view, instead of loading all the view's fields
  /// before the branch.
  bool Packed = false;
  /// Fields of the nest that one view writes and another holds, which every
  /// view reaches in the element itself (SharedField::InPlace): the view
  /// has a reference member for each and no buffer.
  std::set<FieldPath> InPlace;
  /// Its launch is wrapped in the device heap's loop scope.
  bool usesHeap() const { return !Heap.Routes.empty(); }
};

/// One loop as every stage left it (each base written by its own stage).
struct LoopPlan : RecognisedLoop, LoopAnalysis, LoopPlacement {
  LoopPlan(RecognisedLoop R, LoopAnalysis A, LoopPlacement P)
      : RecognisedLoop(std::move(R)), LoopAnalysis(std::move(A)),
        LoopPlacement(std::move(P)) {}
};

/// The loop's body runs on a device: offloaded, or inside an offloaded one.
inline bool runsOnDevice(const LoopPlan &P) {
  return P.Offload || P.DeviceInner;
}

/// How many iterations a loop of a gated nest runs, evaluated once more for
/// the gate: a range's size (::soaview::range_size) or an index loop's
/// trip count (::soaview::trip_count of `lo` and `hi`).
struct GateExtent {
  const clang::Expr *Range = nullptr;
  const clang::Expr *Lo = nullptr, *Hi = nullptr;
};

/// The profitability rule at run time (plan/Planner.cpp, sizeGate): a host
/// nest whose inner view is hoisted out of the outer loop, or a symmetric
/// pair nest, runs converted only when its extents give enough pairs per
/// element gathered (::soaview::pays_off), as written otherwise. Each
/// extent's expressions name their containers or bounds without calls (or
/// with a library container's size()), so evaluating them once more for the
/// check changes nothing. A pair nest walks one frame: both extents are the
/// outer loop's.
struct SizeGate {
  GateExtent Outer;
  GateExtent Inner; ///< the hoisted loop's, or the outer loop's again
};

/// The plan of a nest: assembled once by planNest (plan/Planner.h), then
/// only read.
/// The loops of a nest that share one view: those over one element type.
struct ViewGroup {
  /// The loop the view is named after (emit/Names.h, view()).
  const LoopPlan *NamedAfter = nullptr;
  /// The loops (indices into NestPlan::Loops), each with the fields it
  /// gathers: its own, widened to a whole record where another loop of the
  /// group uses that record whole.
  std::vector<size_t> Loops;
  std::map<size_t, std::vector<std::pair<FieldPath, LeafAccess>>> Fields;
  /// Every loop's fields, methods and aliases together.
  ViewModel Union;
  /// Some loop of the group runs on a device.
  bool Device = false;
  /// Fields every loop's constructor binds a reference member to, in the
  /// element itself (LoopPlacement::InPlace): no buffer, no write-back.
  std::set<FieldPath> InPlace;
};

struct NestPlan {
  std::vector<LoopPlan> Loops; ///< outermost first
  std::vector<CalleeUse> Callees;
  std::vector<ForeignAccess> Foreign;
  std::vector<DispatchGuard> Guards;
  std::optional<SizeGate> Gate;
  /// A view region reaches the nest: its copy as written (a dispatch guard's)
  /// first writes the region's views back (::soaview::region_sync()).
  bool InRegion = false;
  bool InTemplate = false;
  /// An OpenMP sweep of this nest may run as a bare kernel where its code
  /// allows (unless -fplugin-arg-soaview-bare-kernels=off; emit/Sweeps.cpp).
  bool BareKernels = false;
  const clang::Stmt *Root = nullptr;
  /// Set when the nest runs as one sweep over the cells of this loop.
  std::optional<SweepForm> Sweep;
  /// A sweep in a view region whose loop over the cells reads nothing but
  /// these lists (plan/KeptCells.h): a region that writes no list records
  /// its cells once.
  std::vector<const clang::VarDecl *> KeptCellLists;
  /// Where the nest's views and clones are inserted (plan/Placement.cpp).
  InsertionPoint Insert;
  /// The views the emitter writes: one per group of loops that share one
  /// (plan/ViewGroups.h), in the order of their first loops.
  std::vector<ViewGroup> Views;

  NestPlan() = default;
  NestPlan(NestPlan &&) = default; ///< Views point into Loops: not copied
  NestPlan &operator=(NestPlan &&) = default;

  /// Every loop's heap routes (the emitter rewrites them in place).
  std::vector<HeapRoute> heapRoutes() const;
  /// User functions device code reaches that the emitter marks
  /// __host__ __device__ (CUDA backend).
  std::vector<const clang::FunctionDecl *> deviceFunctions() const;
  /// Every loop's element address comparisons.
  std::vector<const clang::Expr *> identities() const;
  /// Every loop's qualified members of the element (LoopAnalysis::Qualified).
  std::vector<const clang::MemberExpr *> qualifiedMembers() const;
  /// Every reference to a constant table in device code: offloaded loops'
  /// bodies and the functions they reach.
  std::vector<const clang::DeclRefExpr *> tableRefs() const;
  /// True when a loop of the nest is offloaded.
  bool offloads() const;
  /// True when the nest is swept on the host: a sweep in a view region of a
  /// compile that cannot offload (its views stay in host memory).
  bool hostSweep() const { return Sweep && !Loops.front().Offload; }
};

/// What a view moves per element: the one count that the report, the
/// remarks and the generated code's comments use. The gather fills every
/// field of the view (a written field may be written in part, so it is
/// gathered too); the scatter writes back the written fields, unless the
/// loop variable is a copy (`for (P p : ps)`), which scatters nothing.
/// Fields in place move nothing.
struct ViewSize {
  unsigned InFields = 0, OutFields = 0; ///< fields read, fields written
  uint64_t GatherBytes = 0, ScatterBytes = 0;
};
ViewSize viewSize(const clang::ASTContext &Ctx, const LoopPlan &P);

} // namespace soaview

#endif
