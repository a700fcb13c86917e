//===- ViewGroups.cpp - which loops of a nest share a view --------------===//
//
// Tests: test/Rewrite/ (nests over one element type: one view with a
// constructor per loop), test/Exec/constructs/shared-fields.cpp.
//===----------------------------------------------------------------------===//
#include "plan/ViewGroups.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace soaview {

namespace {

/// A member of that type can be left unset by a loop's constructor.
bool defaultConstructible(QualType T) {
  const auto *RD = T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  return !RD || !RD->hasDefinition() || RD->hasDefaultConstructor();
}

/// The loops over Loop's element type, with every loop's leaves, methods
/// and aliases together; a record one loop uses whole holds what another
/// reads of it.
ViewGroup sameElement(const NestPlan &Nest, size_t Loop) {
  auto TypeOf = [&](size_t I) {
    return Nest.Loops[I]
        .View.ElementType.getCanonicalType()
        .getUnqualifiedType();
  };
  ViewGroup G;
  for (size_t I = 0; I < Nest.Loops.size(); ++I)
    if (TypeOf(I) == TypeOf(Loop))
      G.Loops.push_back(I);
  const LoopPlan &First = Nest.Loops[G.Loops.front()];
  G.Union.Element = First.View.Element;
  G.Union.ElementType = First.View.ElementType;
  for (size_t I : G.Loops) {
    const ViewModel &V = Nest.Loops[I].View;
    for (auto &[Path, A] : V.Leaves)
      G.Union.Leaves[Path].join(A);
    for (auto &[Union, Members] : V.HeldMembers)
      for (auto &[Member, A] : Members)
        G.Union.HeldMembers[Union][Member].join(A);
    for (auto &[Path, Methods] : V.Methods)
      G.Union.Methods[Path].insert(Methods.begin(), Methods.end());
    G.Union.Aliases.insert(V.Aliases.begin(), V.Aliases.end());
    G.Device |= runsOnDevice(Nest.Loops[I]);
  }
  for (auto It = G.Union.Leaves.begin(); It != G.Union.Leaves.end();) {
    auto Whole = llvm::find_if(G.Union.Leaves, [&](const auto &W) {
      return isPrefixOf(W.first, It->first);
    });
    if (Whole == G.Union.Leaves.end()) {
      ++It;
      continue;
    }
    Whole->second.join(It->second);
    if (isUnionLeaf(Whole->first)) // a member another loop uses apart
      G.Union.HeldMembers[Whole->first][It->first].join(It->second);
    It = G.Union.Leaves.erase(It);
  }
  for (auto &[Path, A] : G.Union.Leaves) // a loop holding a union whole
    if (isUnionLeaf(Path) &&
        llvm::any_of(G.Loops, [&, &Union = Path](size_t I) {
          return Nest.Loops[I].View.Leaves.count(Union) &&
                 !Nest.Loops[I].View.HeldMembers.count(Union);
        }))
      G.Union.HeldMembers.erase(Path);
  G.NamedAfter = &First;
  return G;
}

/// Each loop's own fields, widened to the group's whole records, less those
/// bound in place.
void ownFields(const NestPlan &Nest, ViewGroup &G) {
  for (size_t I : G.Loops) {
    std::map<FieldPath, LeafAccess> Own;
    for (auto &[Path, A] : Nest.Loops[I].View.Leaves) {
      FieldPath Held = Path;
      for (auto &[U, UA] : G.Union.Leaves)
        if (isPrefixOf(U, Path))
          Held = U;
      if (!G.InPlace.count(Held))
        Own[Held].join(A);
    }
    G.Fields[I] = inDeclarationOrder(Own);
  }
}

/// A loop of G leaves a member of another loop unset that its type does
/// not allow to be left so.
bool leavesUnsettable(const ViewGroup &G) {
  if (G.Loops.size() < 2)
    return false;
  for (size_t I : G.Loops)
    for (auto &Leaf : G.Union.Leaves)
      if (!defaultConstructible(Leaf.first.back()->getType()) &&
          !G.InPlace.count(Leaf.first) &&
          !llvm::any_of(G.Fields.at(I),
                        [&](auto &F) { return F.first == Leaf.first; }))
        return true;
  return false;
}

/// Loop's view alone.
ViewGroup ownView(const NestPlan &Nest, size_t Loop,
                  const std::set<FieldPath> &InPlace) {
  ViewGroup Own;
  Own.Loops = {Loop};
  Own.Union = Nest.Loops[Loop].View;
  for (auto &F : Own.Union.orderedLeaves()) {
    if (InPlace.count(F.first))
      Own.InPlace.insert(F.first);
    else
      Own.Fields[Loop].push_back(F);
  }
  Own.Device = runsOnDevice(Nest.Loops[Loop]);
  Own.NamedAfter = &Nest.Loops[Loop];
  return Own;
}

/// The group of Nest's loops that loop Loop's view serves.
ViewGroup viewGroupOf(const NestPlan &Nest, size_t Loop) {
  ViewGroup G = sameElement(Nest, Loop);
  for (auto &Leaf : G.Union.Leaves)
    if (Nest.Loops[Loop].InPlace.count(Leaf.first))
      G.InPlace.insert(Leaf.first);
  ownFields(Nest, G);
  // A loop leaves the others' members unset: their types must allow that,
  // else each loop keeps a view of its own.
  if (leavesUnsettable(G))
    return ownView(Nest, Loop, G.InPlace);
  return G;
}

} // namespace

std::vector<ViewGroup> viewGroups(const NestPlan &Nest) {
  std::vector<ViewGroup> Groups;
  for (size_t I = 0; I < Nest.Loops.size(); ++I)
    if (ViewGroup G = viewGroupOf(Nest, I); G.Loops.front() == I)
      Groups.push_back(std::move(G));
  return Groups;
}
} // namespace soaview
