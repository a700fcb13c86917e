//===- Forms.h - what recognition hands on: the shapes of a nest -*- C++
//-*-===//
//
// The product of the first stage after the loop finder: each annotated
// loop's recognised shape (LoopForm), where its view is built (hoisting), and
// the nest's root and sweep. Written by forms/ (recogniseNest) only; every
// later stage reads it (docs/design.md, "Stages and their products").
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_FORMS_H
#define SOAVIEW_FORMS_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <optional>
#include <string>
#include <vector>

namespace soaview {

struct LoopAnnotation;

enum class LoopFormKind { Range, Index, Iterator };

/// How an index loop's condition bounds its index: `i < n`, `i <= n`,
/// `i != n` (soaview::bound in soaview/frame.h).
enum class IndexBound { Below, UpTo, Until };

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
  /// `for (auto &[key, p] : range)`: the one binding that is a struct or a
  /// pointer to one (`p`, the element; LoopVar is the decomposition), and
  /// the text before `[` (`auto &`).
  const clang::BindingDecl *ElementBinding = nullptr;
  std::string BindingSpec;
  bool VarIsPointer = false; ///< `auto *p` (else a reference or a copy)
  bool VarIsCopy = false;    ///< `Particle p` : no scatter
  bool VarIsConst = false;
  const clang::Expr *RangeInit = nullptr;
  /// The range holds `std::reference_wrapper<T>` (`for (T &e : refs)`):
  /// pointers in all but name. The frame gathers the elements they refer
  /// to (`&w.get()`, picked as pointers: an element held twice shares its
  /// slot).
  bool Wrapped = false;
  /// ... and the loop variable is the wrapper (`for (auto &r : refs)`): the
  /// body reaches the element only as `r.get()` or by converting `r` to
  /// `T &` (TargetUses); in the rewrite `r` wraps the view.
  bool VarIsWrapper = false;
  /// The `r` of each conversion of the wrapper to `T &` (`T &e = r;`): the
  /// rewrite spells it `r.get()`, since the rewritten `T &` is `auto &`.
  std::vector<const clang::Expr *> WrapperConversions;

  // Index form.
  const clang::VarDecl *IndexVar = nullptr;
  const clang::Expr *Lo = nullptr;
  const clang::Expr *Hi = nullptr;
  IndexBound Bound = IndexBound::Below;
  /// The subscript of every use of the target (`i`, `i - first`): affine in
  /// the index, i + c with c loop-invariant.
  const clang::Expr *Subscript = nullptr;
  const clang::NamedDecl *Target = nullptr;
  std::string TargetName;
  /// A neighbour-list loop: every element is `target[list[i + c]]`, and
  /// Subscript is the list's `i + c`. The frame gathers through the list
  /// (soaview::index_list_at); an index it holds twice shares one slot.
  const clang::DeclRefExpr *IndexList = nullptr;
  /// The expressions that are the element: `buf[i]`, or an iterator loop's
  /// `*it` over structs.
  std::vector<const clang::Expr *> TargetUses;
  /// The expressions that point at the element: an iterator loop's `it` of
  /// `it->` (or the `operator->` call), or `*it` over pointers.
  std::vector<const clang::Expr *> PointerUses;

  // Iterator form: `for (auto it = Begin; it != End; ++it)`; RangeInit is
  // the container Begin starts (`c` of `c.begin()`), or Begin itself.
  const clang::VarDecl *Iterator = nullptr;
  const clang::Expr *Begin = nullptr;
  const clang::Expr *End = nullptr;
  /// Begin calls something that is not begin/end, const or constexpr
  /// (ls1-mardyn's `molCont->iterator(...)`): the converted loop evaluates
  /// it once, as the loop does, but nothing may evaluate it again or
  /// earlier (soa_conversion_hoist; the nest as written after a repeat).
  bool BeginHasEffects = false;
  /// Or, with no End, a condition that asks the iterator whether it is at
  /// the end: `it.isValid()`, `!it.atEnd()` (a const member function of the
  /// iterator, without arguments).
  const clang::Expr *Valid = nullptr;
  /// The target names (`bodies` of `bodies[i]`) of uses inside another
  /// annotated loop over the same target, whose own `bodies` shadows ours:
  /// they are renamed to an alias of this loop's shadow.
  std::vector<const clang::DeclRefExpr *> ShadowedUses;
  /// The target names of uses that reach no element of this loop
  /// (`bodies[target]`, `bodies.size()`): renamed to an alias of the target
  /// declared before its shadow, so they reach the elements as written.
  struct OriginalUse {
    const clang::DeclRefExpr *Name;
    const clang::Stmt *Use; ///< `bodies[target]`, `bodies.size`
  };
  std::vector<OriginalUse> OriginalUses;

  /// The element's name in the body: the loop variable, or the binding that
  /// stands for the element.
  const clang::ValueDecl *elementVar() const {
    if (ElementBinding)
      return ElementBinding;
    return LoopVar;
  }
};

/// One annotated loop (one instantiation) as recognition leaves it.
struct RecognisedLoop {
  const LoopAnnotation *Annotation = nullptr;
  LoopForm Form;
  bool InTemplate = false;
  /// In a template, a range whose type does not depend on the template's
  /// parameters (`std::vector<P> ps` of the class): the code naming the
  /// view's spec must be made dependent, or it would be looked up before
  /// the spec is declared.
  /// (An index loop whose target's type is known in the pattern, likewise:
  /// its frame names the target through the same lambda.)
  bool NondependentRange = false;
  /// Instantiations with one element type use different fields here: the
  /// loop picks its spec by its template's arguments too
  /// (plan/InstanceKey.h), and this instantiation's view is the Use'th
  /// distinct one of the loop (set by the driver once planned).
  bool Keyed = false;
  unsigned Use = 0;
  /// soa_conversion_hoist(n): the loop statement n levels out before which
  /// the view is built (null: the loop itself).
  const clang::Stmt *HoistTo = nullptr;
  unsigned HoistLevels = 0;
  /// A symmetric pair loop (`for (j = i + 1; j < n; ++j)` in the loop over
  /// `i`, `for (jt = std::next(it); jt != end; ++jt)` in the loop over
  /// `it`): the nest's loop over the same range whose view it walks, from
  /// that loop's slot plus PairStart, with no view of its own
  /// (forms/PairForm.cpp).
  std::optional<size_t> WalksViewOf;
  unsigned PairStart = 0;
  /// The outer loop of a pair nest over pointers: when its frame finds an
  /// object the range holds twice (two live views of it would disagree),
  /// the nest runs as written instead (emit/Loops.cpp, repeatsFallback).
  bool RepeatsRunAsWritten = false;
};

/// A loop over cells annotated soa_conversion_offload_compute whose body
/// runs one annotated nest: offloaded whole, with one gather, one transfer
/// and one launch (soaview/sweep.h).
struct SweepForm {
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
struct RecognisedNest {
  std::vector<RecognisedLoop> Loops; ///< outermost first
  bool InTemplate = false;
  /// What the analysis walks: the outermost loop's body, or the body of an
  /// enclosing loop a view is hoisted out of (code there could change the
  /// hoisted view's fields).
  const clang::Stmt *Root = nullptr;
  /// The loop over cells around the nest, when the nest is swept.
  std::optional<SweepForm> Sweep;
  /// The nest is swept in a view region: its views share the region's
  /// buffers, so they hold anonymous unions whole (ViewModel::normalise).
  bool RegionSweep = false;
};

} // namespace soaview

#endif
