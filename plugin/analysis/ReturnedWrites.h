//===- ReturnedWrites.h - writes through returned references ---*- C++ -*-===//
//
// Private to analysis/. A function that returns a field of the element by
// non-const reference (`double &mass() { return m; }`) does not write it:
// its callers may. Whether such a field is written is decided once every
// call has been seen, from how the calls' results are used, following the
// callers that return the result on (docs/semantics.md, "What counts as a
// write"). Tests: test/Rewrite/accessor-reads.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_RETURNEDWRITES_H
#define SOAVIEW_RETURNEDWRITES_H

#include "analysis/Bindings.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace soaview {
namespace analysis {

class ReturnedWrites {
public:
  /// A returned field: the analysis From returns a reference to the leaf B
  /// (Whole: to the whole record).
  struct Leaf {
    AnalysisKey From;
    Binding B;
    bool Whole;
  };
  void returned(Leaf L) { Leaves.push_back(std::move(L)); }
  /// A call of the analysis Callee: its result is written through
  /// (Written), or returned on by reference from the analysis Into.
  void called(const AnalysisKey &Callee, bool Written,
              const std::optional<AnalysisKey> &Into);
  /// The returned leaves that some call writes through (a call not seen
  /// counts as writing, which is always safe).
  std::vector<Leaf> written() const;

private:
  bool writtenThrough(const AnalysisKey &K,
                      std::set<AnalysisKey> &Visited) const;

  /// Per analysed function, how its calls use the result.
  struct ResultUse {
    bool Written = false;
    std::set<AnalysisKey> Into;
  };
  std::vector<Leaf> Leaves;
  std::map<AnalysisKey, ResultUse> Results;
};

} // namespace analysis
} // namespace soaview

#endif
