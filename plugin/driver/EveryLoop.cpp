//===- EveryLoop.cpp - annotate=all: the nests that convert ---------------===//
#include "driver/EveryLoop.h"

#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

namespace {
unsigned keyOf(const LoopInstance &I) {
  return I.Annotation->ForLoc.getRawEncoding();
}

/// The nests of N without its outermost loop, grouped as findNests groups.
std::vector<std::vector<LoopInstance>>
innerNests(const SourceManager &SM, const std::vector<LoopInstance> &N) {
  std::vector<std::vector<LoopInstance>> Nests;
  for (size_t I = 1; I < N.size(); ++I) {
    bool Nested = false;
    for (size_t J = 1; J < N.size(); ++J)
      Nested |= contains(SM, N[J].Loop, N[I].Loop);
    if (Nested)
      continue;
    std::vector<LoopInstance> Inner{N[I]};
    for (size_t J = 1; J < N.size(); ++J)
      if (contains(SM, N[I].Loop, N[J].Loop))
        Inner.push_back(N[J]);
    Nests.push_back(std::move(Inner));
  }
  return Nests;
}
} // namespace

std::vector<NestPlan>
EveryLoop::convertible(const std::vector<std::vector<LoopInstance>> &Nests) {
  for (const std::vector<LoopInstance> &N : Nests)
    tryNest(N);
  dropFailedInstances();
  return std::move(Passed);
}

void EveryLoop::dropFailedInstances() {
  auto HasFailed = [&](const NestPlan &Nest) {
    for (const LoopPlan &P : Nest.Loops)
      if (Failed.count(P.Annotation->ForLoc.getRawEncoding()))
        return true;
    return false;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto It = Passed.begin(); It != Passed.end();) {
      if (!HasFailed(*It)) {
        ++It;
        continue;
      }
      for (const LoopPlan &P : It->Loops) {
        Failed.insert(P.Annotation->ForLoc.getRawEncoding());
        if (Host)
          Diags.report(P.Annotation->ForLoc,
                       diag::remark_not_converted_instance);
      }
      It = Passed.erase(It);
      Changed = true;
    }
  }
}

void EveryLoop::tryNest(const std::vector<LoopInstance> &N) {
  DiagStore Trial(SM);
  std::optional<NestPlan> Nest = Plan(N, Trial);
  if (Nest && Instances.place(*Nest, Trial)) {
    Passed.push_back(std::move(*Nest));
    return;
  }
  Failed.insert(keyOf(N.front()));
  const StoredDiag *Why = Trial.firstReason();
  remarkNotConverted(N.front().Annotation->ForLoc,
                     Why ? Why->Message : std::string("no reason given"),
                     Why ? Why->Loc : StoredLoc(),
                     Why ? Why->Notes : std::vector<StoredNote>());
  for (const std::vector<LoopInstance> &Inner : innerNests(SM, N))
    tryNest(Inner);
}

/// The remark at a loop annotate=all leaves as written, and a note where
/// the reason was found.
void EveryLoop::remarkNotConverted(SourceLocation For, const std::string &Why,
                                   const StoredLoc &At,
                                   const std::vector<StoredNote> &Notes) {
  if (!Host)
    return;
  StringRef Reason(Why);
  Reason.consume_front("soaview: ");
  StoredDiag &D =
      Diags.report(For, {diag::remark_not_converted, {Reason.str()}});
  if (At.valid())
    Diags.note(D, At, diag::note_not_converted_at);
  for (const StoredNote &N : Notes)
    D.Notes.push_back(N); // what the error would have said
}

} // namespace soaview
