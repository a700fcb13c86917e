//===- Checks.h - what may not be converted, hoisted or offloaded -*- C++
//-*-===//
//
// Checks only: each reads what the earlier stages produced, reports a
// located error (with a note saying how to write the loop instead) and
// returns false; none writes a product. The CUDA backend's own rules are in
// CudaChecks.h.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_CHECKS_H
#define SOAVIEW_CHECKS_H

#include "plan/Plan.h"

namespace clang {
class ASTContext;
}

namespace soaview {
class DiagStore;

//--- LoopChecks.cpp: one loop, while it is recognised ------------------------
/// soa_conversion_hoist(n) needs n enclosing loops.
bool checkHoistLevel(clang::ASTContext &Ctx, const LoopAnnotation &A,
                     const clang::Stmt *Loop, DiagStore &Diags);
/// A loop an OpenMP directive applies to is the directive's, not ours.
bool checkNotOpenMPLoop(clang::ASTContext &Ctx, const LoopAnnotation &A,
                        const clang::Stmt *Loop, DiagStore &Diags);
/// Generated code is not constexpr: the loop may not be in a constexpr or
/// consteval function.
bool checkNotConstexpr(const LoopAnnotation &A, const clang::FunctionDecl *Fn,
                       DiagStore &Diags);
/// The view is declared at namespace scope: it must be able to name the
/// element's class (not a private or protected nested class).
bool checkElementNameable(const LoopForm &F, const LoopAnnotation &A,
                          DiagStore &Diags);
//--- ContainerChecks.cpp ------------------------------------------------------
/// The view is built before the loop: neither the loop nor a function it
/// reaches may change its range (the container, bounds, target or list).
bool checkContainerUnchanged(clang::ASTContext &Ctx, const LoopForm &F,
                             const LoopAnnotation &Annotation,
                             DiagStore &Diags);

//--- LoopChecks.cpp
//------------------------------------------------------------
/// What a hoisted view is built from exists before, and does not change in,
/// the loop it moves out of.
bool checkHoist(clang::ASTContext &Ctx, const RecognisedLoop &Loop,
                DiagStore &Diags);

//--- ViewChecks.cpp: the analysed nest ---------------------------------------
/// Foreign accesses that conflict with a view, written members of an
/// anonymous union kept apart, fields written through one view and held by
/// another of the same element type.
bool checkViews(const RecognisedNest &Recognised, const AnalysedNest &Analysed,
                DiagStore &Diags);

//--- LoopChecks.cpp: the plan ------------------------------------------------
/// Every loop of the nest uses some field (else warns; the nest stays as
/// written).
bool checkUsesFields(clang::ASTContext &Ctx, const NestPlan &Nest,
                     DiagStore &Diags);
/// A symmetric pair loop runs on the host (forms/PairForm.cpp).
bool checkPairPlacement(const NestPlan &Nest, DiagStore &Diags);
/// A check of the dynamic type (Nest.Guards) that a class of this
/// translation unit derived from the checked one fails: warns, naming the
/// class, since for its objects the nest runs as written.
void warnGuardsDerived(clang::ASTContext &Ctx, const NestPlan &Nest,
                       DiagStore &Diags);
/// The generated code has a place: views go before the function holding
/// the loop (outside system headers, after the element's definition) and
/// clones rewrite their parameters' types.
bool checkPlacement(clang::ASTContext &Ctx, const NestPlan &Nest,
                    DiagStore &Diags);

//--- OffloadChecks.cpp --------------------------------------------------------
/// What an offloaded loop P of Nest may not do (early exits, writes to
/// variables outside it, address comparisons, shapes of nests).
bool checkOffload(clang::ASTContext &Ctx, const NestPlan &Nest,
                  const LoopPlan &P, DiagStore &Diags);
/// A loop form the device cannot run, at Loc: Error with Note.
struct HostOnlyForm {
  clang::SourceLocation Loc;
  Msg Error;
  diag::Id Note;
};
/// What of F's form stays on the host (structured bindings, reference
/// wrappers, other elements of the target): offloaded and swept loops
/// refuse it.
std::optional<HostOnlyForm> hostOnlyForm(const clang::ASTContext &Ctx,
                                         const LoopForm &F);

//--- HeapChecks.cpp ----------------------------------------------------------
/// Allocation in the code offloaded loop P runs (P.Heap): what cannot be
/// routed to the device heap, frees of system headers, pointer fields a
/// loop that allocates writes.
/// Whether a constant table's device copy (or declare target) can go right
/// after V's definition: at namespace scope, outside macros, in a file
/// soaview rewrites (with InMainFile, the translated file itself: the CUDA
/// backend's output).
bool tableDeclarable(const clang::SourceManager &SM, const clang::VarDecl *V,
                     bool InMainFile);

bool checkDeviceHeap(const NestPlan &Nest, const LoopPlan &P, DiagStore &Diags);

//--- SweepChecks.cpp ---------------------------------------------------------
/// What a sweep over cells (Nest.Sweep) may not do: an inner view built
/// elsewhere than before the local loop, uses of the cell loop's variables
/// in the nest, declarations that change something or read the elements.
bool checkSweep(clang::ASTContext &Ctx, const NestPlan &Nest, DiagStore &Diags);

//--- Profitability.cpp --------------------------------------------------------
/// The profitability rule (docs/semantics.md), decided from the attributes
/// alone, before the loop is analysed.
bool conversionPays(const LoopAnnotation &A, size_t NestSize, bool CanOffload);
/// The remark (with a fix-it) for a loop the rule leaves as written.
void remarkUnconverted(clang::ASTContext &Ctx, const LoopAnnotation &A,
                       DiagStore &Diags);
/// The warning for a loop the rule leaves as written that could not be
/// converted either (Trial holds why): legality is reported before cost,
/// and no fix-it leads into an error.
void warnNeverConverts(const LoopAnnotation &A, const DiagStore &Trial,
                       DiagStore &Diags);

} // namespace soaview

#endif
