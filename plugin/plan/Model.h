//===- Model.h - what the analysis finds about one annotated loop -*- C++ -*-===//
//
// The data passed between the stages: recognised forms, views, plans of
// loops and nests; the one byte count of a view (viewSize).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_MODEL_H
#define SOAVIEW_MODEL_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace soaview {

struct LoopAnnotation;
struct AttrUse;

/// A chain of fields from the element: {kin, v} is `kin.v`.
using FieldPath = std::vector<const clang::FieldDecl *>;

std::string dotted(const FieldPath &P);
/// A type as messages name it: fully qualified, no tag keyword
/// ('ns::Particle', 'const ns::Particle *').
std::string qualifiedName(const clang::ASTContext &Ctx, clang::QualType T);

struct LeafAccess {
  bool Read = false;
  bool Written = false;
  clang::SourceLocation FirstUse;
};

/// Fields by path in declaration order (a map keyed by pointers is not:
/// messages and generated code use this order).
std::vector<std::pair<FieldPath, LeafAccess>>
inDeclarationOrder(const std::map<FieldPath, LeafAccess> &Fields);

/// The view of one element type for one loop: which leaves are read and
/// written, which member functions are reached (per sub-object path) and so
/// must exist on the proxy.
struct ViewModel {
  const clang::CXXRecordDecl *Element = nullptr;
  clang::QualType ElementType;
  std::map<FieldPath, LeafAccess> Leaves;
  /// Record-typed fields used as a whole (copied, passed on, assigned).
  std::map<FieldPath, LeafAccess> Wholes;
  /// Member functions reached with `this` = the sub-object at the path.
  std::map<FieldPath, llvm::SetVector<const clang::CXXMethodDecl *>> Methods;
  /// Local variables (anywhere in analysed code) that alias the element:
  /// their written element type must become the proxy type.
  llvm::SetVector<const clang::VarDecl *> Aliases;

  /// Folds leaves below whole records into the whole record.
  void normalise();
  /// Leaves in declaration order.
  std::vector<std::pair<FieldPath, LeafAccess>> orderedLeaves() const;
  /// True when the loop writes some leaf (the view has fields to scatter).
  bool writes() const {
    for (const auto &[Path, A] : Leaves)
      if (A.Written)
        return true;
    return false;
  }
};

/// A free function reached with at least one element argument.
struct CalleeUse {
  const clang::FunctionDecl *FD = nullptr;
  /// Per parameter: index of the view (loop of the nest) whose element it
  /// receives, or -1. Two calls binding differently get two clones.
  std::vector<int> ParamViews;
  /// False for template instantiations whose element parameter is dependent:
  /// the template simply instantiates again with the proxy type.
  bool NeedsClone = true;
};

enum class LoopFormKind { Range, Index };

/// The recognised shape of an annotated loop.
struct LoopForm {
  LoopFormKind Kind = LoopFormKind::Range;
  const clang::Stmt *Loop = nullptr;
  const clang::Stmt *Body = nullptr;
  const clang::FunctionDecl *Function = nullptr; ///< function holding the loop
  const clang::CXXRecordDecl *Element = nullptr;
  clang::QualType ElementType;

  // Range form.
  const clang::VarDecl *LoopVar = nullptr;
  bool VarIsPointer = false; ///< `auto *p` (else a reference or a copy)
  bool VarIsCopy = false;    ///< `Particle p` : no scatter
  bool VarIsConst = false;
  const clang::Expr *RangeInit = nullptr;

  // Index form.
  const clang::VarDecl *IndexVar = nullptr;
  const clang::Expr *Lo = nullptr;
  const clang::Expr *Hi = nullptr;
  const clang::NamedDecl *Target = nullptr;
  std::string TargetName;
  std::vector<const clang::Expr *> TargetUses; ///< the `buf[i]` expressions
  /// The target names (`bodies` of `bodies[i]`) of uses inside another
  /// annotated loop over the same target, whose own `bodies` shadows ours:
  /// they are renamed to an alias of this loop's shadow.
  std::vector<const clang::DeclRefExpr *> ShadowedUses;
};

/// Everything needed to rewrite one annotated loop (one instantiation).
struct LoopPlan {
  const LoopAnnotation *Annotation = nullptr;
  LoopForm Form;
  ViewModel View;
  bool InTemplate = false;
  /// soa_conversion_hoist(n): the loop statement n levels out before which
  /// the view is built (null: the loop itself).
  const clang::Stmt *HoistTo = nullptr;
  unsigned HoistLevels = 0;
  /// Run on an OpenMP device (soa_conversion_offload_compute with -fopenmp).
  bool Offload = false;
  /// The attribute that offloads it: its own, or the sweep's (set with
  /// Offload; notes of offload refusals point at it).
  const AttrUse *OffloadAttr = nullptr;
  /// The inner loop of an offloaded nest: its view is hoisted out of the
  /// offloaded loop, copied to the device, and the loop runs in the target
  /// region over the device buffers.
  bool DeviceInner = false;
  /// For an offloaded loop: prefixes of the device-inner views it captures.
  std::vector<const LoopPlan *> DeviceInners;
  /// Comparisons of element addresses, rewritten to compare the original
  /// objects' addresses: the operand expressions to wrap.
  std::vector<const clang::Expr *> Identities;
  /// An offloaded loop whose code allocates or frees through the device
  /// heap: its launch is wrapped in the heap's loop scope.
  bool UsesHeap = false;
};

/// An allocation or deallocation the emitter routes to the device heap:
/// a call of malloc, calloc, aligned_alloc or free (the callee is renamed),
/// a new-expression (placed on the heap) or a delete-expression (a call of
/// the heap's delete_object or delete_array).
struct HeapRoute {
  const clang::Expr *E; ///< CallExpr, CXXNewExpr or CXXDeleteExpr
};

/// A loop over cells annotated soa_conversion_offload_compute whose body
/// runs one annotated nest (the nest's loops are NestPlan::Loops): offloaded
/// whole, with one gather, one transfer and one launch (soaview/sweep.h).
struct SweepPlan {
  const LoopAnnotation *Annotation = nullptr;
  const clang::Stmt *Loop = nullptr; ///< for, range-for or while
  const clang::Stmt *Body = nullptr;
  /// The declarations of the body before the nest, as written: run once
  /// per cell while the cells are recorded.
  std::vector<const clang::DeclStmt *> Decls;
  /// The body's statement that is the nest (its attributes included).
  const clang::Stmt *NestStmt = nullptr;
};

/// Annotated loops nested in one another in one function (one
/// instantiation): analysed together, since one call can receive elements of
/// several of them (`Density(local, active)`).
struct NestPlan {
  std::vector<LoopPlan> Loops; ///< outermost first
  std::vector<CalleeUse> Callees;
  bool InTemplate = false;
  /// What the analysis walks: the outermost loop's body, or the body of an
  /// enclosing loop a view is hoisted out of (code there could change the
  /// hoisted view's fields).
  const clang::Stmt *Root = nullptr;
  /// The declaration at namespace scope the nest's views and clones are
  /// inserted before (plan/Placement.cpp; set by planPlacement).
  const clang::Decl *InsertBefore = nullptr;
  /// CUDA backend: user functions the offloaded loop calls (directly or
  /// through other calls) that must be compiled for the device too; the
  /// emitter marks them __host__ __device__.
  std::vector<const clang::FunctionDecl *> DeviceFunctions;
  /// Allocation and deallocation in the offloaded loop's code (its body and
  /// every function it reaches) that the emitter routes to the device heap
  /// (soaview/heap_route.h; checks/HeapChecks.cpp).
  std::vector<HeapRoute> HeapRoutes;
  /// Set when the nest runs as one sweep over the cells of this loop.
  std::optional<SweepPlan> Sweep;
};

/// What a view moves per element: the one count that the report, the
/// remarks and the generated code's comments use. The gather fills every
/// field of the view (a written field may be written in part, so it is
/// gathered too); the scatter writes back the written fields, unless the
/// loop variable is a copy (`for (P p : ps)`), which scatters nothing.
struct ViewSize {
  unsigned InFields = 0, OutFields = 0; ///< fields read, fields written
  uint64_t GatherBytes = 0, ScatterBytes = 0;
};
ViewSize viewSize(const clang::ASTContext &Ctx, const LoopPlan &P);

} // namespace soaview

#endif
