//===- PairForm.h - symmetric pair loops: an inner loop on the outer's view
//-===//
//
// Molecular-dynamics codes visit each pair once and write both particles
// (Newton's third law): `for (j = i + 1; j < n; ++j)` inside the loop over
// `i`, or `for (jt = std::next(it); jt != end; ++jt)` inside the loop over
// `it`. Such an inner loop walks the outer loop's view (one gather, one
// scatter), so that writes through either element land in one slot
// (docs/attributes.md, "Symmetric pair loops"; test/Sema/pair-loops.cpp).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_PAIRFORM_H
#define SOAVIEW_PAIRFORM_H

#include "forms/Forms.h"

namespace clang {
class ASTContext;
}

namespace soaview {

class DiagStore;

/// Marks each inner loop of Nest that starts after an enclosing loop's
/// element over the same target or range (RecognisedLoop::WalksViewOf);
/// reports a located error and returns false when such a loop cannot walk
/// that view, or when an inner index loop over the outer loop's target
/// would gather its view inside the outer loop.
bool recognisePairs(clang::ASTContext &Ctx, RecognisedNest &Nest,
                    DiagStore &Diags);

} // namespace soaview

#endif
