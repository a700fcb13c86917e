//===- KeptCells.h - sweeps whose cells a kept region records once -*- C++
//-*-===//
//
// A sweep records its cells on the host at every run: the loop over the
// cells as written, one range per cell and loop (at 884,736 SWIFT particles
// in 50,653 cells, 0.4-0.8 ms per sweep on the H200 node's host). In a view
// region whose code writes no list (region_lists::kept), a loop over the
// cells that reads nothing but lists (`for (std::size_t c = 0; c <
// locals.size(); ++c)` over `locals[c]` and `actives[c]`, standard
// containers that hold the sweep's elements) records the same ranges at
// every run from the same lists: the generated code asks the runtime
// (sweep_host::cells_kept) whether this site recorded them from those lists
// since code last ran as outside the region, and skips the loop then.
// Tests: test/Rewrite/regions.cpp (`stepKeptCells`), test/Unit/sweep_test.cpp
// (`keptCells`).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_KEPTCELLS_H
#define SOAVIEW_KEPTCELLS_H

#include "forms/Forms.h"

#include <vector>

namespace clang {
class ASTContext;
class VarDecl;
} // namespace clang

namespace soaview {

/// The lists the loop over a swept nest's cells reads, when it reads
/// nothing else (see above): the nest's outer loop over the cell's local
/// elements, and its inner loop, if any. Empty when the loop reads other
/// things, or the lists are not standard containers of the elements.
std::vector<const clang::VarDecl *> keptCellLists(const clang::ASTContext &Ctx,
                                                  const SweepForm &S,
                                                  const RecognisedLoop &Local,
                                                  const RecognisedLoop *Inner);

} // namespace soaview

#endif
