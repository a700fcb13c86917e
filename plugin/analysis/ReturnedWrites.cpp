//===- ReturnedWrites.cpp - writes through returned references ------------===//
#include "analysis/ReturnedWrites.h"

namespace soaview {
namespace analysis {

void ReturnedWrites::called(const AnalysisKey &Callee, bool Written,
                            const std::optional<AnalysisKey> &Into) {
  ResultUse &U = Results[Callee];
  U.Written |= Written;
  if (Into)
    U.Into.insert(*Into);
}

bool ReturnedWrites::writtenThrough(const AnalysisKey &K,
                                    std::set<AnalysisKey> &Visited) const {
  auto It = Results.find(K);
  if (It == Results.end() || It->second.Written)
    return true; // no call seen: counted as written, as always safe
  if (!Visited.insert(K).second)
    return false; // a recursion: decided by the other callers
  for (const AnalysisKey &Caller : It->second.Into)
    if (writtenThrough(Caller, Visited))
      return true;
  return false;
}

std::vector<ReturnedWrites::Leaf> ReturnedWrites::written() const {
  std::vector<Leaf> Written;
  for (const Leaf &L : Leaves) {
    std::set<AnalysisKey> Visited;
    if (writtenThrough(L.From, Visited))
      Written.push_back(L);
  }
  return Written;
}

} // namespace analysis
} // namespace soaview
