//===- Shared.cpp - fields two views of a nest share
//------------------------===//
//
// A pair loop that writes both particles (Newton's third law: AutoPas's
// functors with newton3, SWIFT's symmetric interactions) writes a field
// through the view of each loop. The containers may hold the same
// elements, so two copies of the field, one per view, could disagree.
// Where every view can reach such a field in the element itself, the views
// share it as the original loops do (docs/semantics.md, "Fields in
// place"); elsewhere the nest is refused (checks/ViewChecks.cpp).
//===----------------------------------------------------------------------===//
#include "analysis/Analysis.h"

#include "support/AstHelpers.h"

namespace soaview {

namespace {

/// The loops of the nest whose element type has the field (the element or
/// a class derived from the field's class).
bool hasField(const RecognisedLoop &L, const clang::FieldDecl *F) {
  return isElementOrBase(F->getParent(), L.Form.Element);
}

/// Every view can reach Path in the element itself: Path is a field of
/// the element (its first step; not a member of an anonymous struct or
/// union), each loop whose element has it holds it only as a whole, uses
/// it nowhere a reference member would mean something else, and visits
/// the elements themselves, not copies.
bool reachableInPlace(const FieldPath &Path, const RecognisedNest &Recognised,
                      const AnalysedNest &Analysed) {
  const clang::FieldDecl *F = Path.front();
  if (Path.size() != 1 || F->isBitField() || F->isAnonymousStructOrUnion() ||
      F->getParent()->isUnion() || F->getParent()->isAnonymousStructOrUnion())
    return false;
  for (size_t I = 0; I < Recognised.Loops.size(); ++I) {
    if (!hasField(Recognised.Loops[I], F))
      continue;
    for (auto &[P, Access] : Analysed.Loops[I].View.Leaves)
      if (overlaps(P, Path) &&
          (P != Path || Access.RefSensitive ||
           (Recognised.Loops[I].Form.Kind == LoopFormKind::Range &&
            Recognised.Loops[I].Form.VarIsCopy)))
        return false;
  }
  return true;
}

/// A union both views hold whole, each using its members apart
/// (ViewModel::HeldMembers): one view writes members the other does not use,
/// and the other writes none. Each writes back only the members it writes
/// (emit/Views.cpp), so the other reads bytes nobody writes in the nest.
bool apartInUnion(const FieldPath &Union, const ViewModel &ViewA,
                  const ViewModel &ViewB) {
  auto InA = ViewA.HeldMembers.find(Union), InB = ViewB.HeldMembers.find(Union);
  if (InA == ViewA.HeldMembers.end() || InB == ViewB.HeldMembers.end())
    return false;
  auto Writes = [](const std::map<FieldPath, LeafAccess> &Members) {
    return llvm::any_of(Members, [](auto &M) { return M.second.Written; });
  };
  if (Writes(InA->second) && Writes(InB->second))
    return false;
  const auto &Writer = Writes(InA->second) ? InA->second : InB->second;
  const auto &Reader = Writes(InA->second) ? InB->second : InA->second;
  for (auto &[W, WA] : Writer)
    for (auto &[R, RA] : Reader)
      if (WA.Written && overlaps(W, R))
        return false;
  return true;
}

} // namespace

std::vector<SharedField> sharedFields(const RecognisedNest &Recognised,
                                      const AnalysedNest &Analysed) {
  std::vector<SharedField> Shared;
  for (size_t I = 0; I < Recognised.Loops.size(); ++I)
    for (size_t J = I + 1; J < Recognised.Loops.size(); ++J) {
      if (Recognised.Loops[J].WalksViewOf == I) // one view: a pair loop's slots
        continue;
      const ViewModel &VI = Analysed.Loops[I].View,
                      &VJ = Analysed.Loops[J].View;
      if (!isElementOrBase(VJ.Element, Recognised.Loops[I].Form.Element) &&
          !isElementOrBase(VI.Element, Recognised.Loops[J].Form.Element))
        continue;
      for (auto &[PathI, AccessI] : VI.orderedLeaves())
        for (auto &[PathJ, AccessJ] : VJ.orderedLeaves()) {
          if (!overlaps(PathI, PathJ) || (!AccessI.Written && !AccessJ.Written))
            continue;
          if (PathI == PathJ && apartInUnion(PathI, VI, VJ))
            continue;
          SharedField S;
          S.Path = AccessI.Written ? PathI : PathJ;
          S.Writer = AccessI.Written ? I : J;
          S.Holder = AccessI.Written ? J : I;
          S.WriteUse = (AccessI.Written ? AccessI : AccessJ).FirstUse;
          S.InPlace =
              PathI == PathJ && reachableInPlace(S.Path, Recognised, Analysed);
          Shared.push_back(S);
        }
    }
  return Shared;
}

} // namespace soaview
