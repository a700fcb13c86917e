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

} // namespace

ViewGroup viewGroupOf(const NestPlan &Nest, size_t Loop) {
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
    for (auto &[Path, Methods] : V.Methods)
      G.Union.Methods[Path].insert(Methods.begin(), Methods.end());
    G.Union.Aliases.insert(V.Aliases.begin(), V.Aliases.end());
    G.Device |= runsOnDevice(Nest.Loops[I]);
  }
  // A record one loop uses whole holds what another reads of it.
  for (auto It = G.Union.Leaves.begin(); It != G.Union.Leaves.end();) {
    auto Whole = llvm::find_if(G.Union.Leaves, [&](const auto &W) {
      return isPrefixOf(W.first, It->first);
    });
    if (Whole == G.Union.Leaves.end()) {
      ++It;
      continue;
    }
    Whole->second.join(It->second);
    It = G.Union.Leaves.erase(It);
  }
  for (auto &Leaf : G.Union.Leaves)
    if (Nest.Loops[Loop].InPlace.count(Leaf.first))
      G.InPlace.insert(Leaf.first);
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
  // A loop leaves the others' members unset: their types must allow that,
  // else each loop keeps a view of its own.
  for (size_t I : G.Loops)
    for (auto &Leaf : G.Union.Leaves)
      if (!defaultConstructible(Leaf.first.back()->getType()) &&
          !G.InPlace.count(Leaf.first) &&
          !llvm::any_of(G.Fields[I],
                        [&](auto &F) { return F.first == Leaf.first; }) &&
          G.Loops.size() > 1) {
        ViewGroup Own;
        Own.Loops = {Loop};
        Own.Union = Nest.Loops[Loop].View;
        for (auto &F : Own.Union.orderedLeaves()) {
          if (G.InPlace.count(F.first))
            Own.InPlace.insert(F.first);
          else
            Own.Fields[Loop].push_back(F);
        }
        Own.Device = runsOnDevice(Nest.Loops[Loop]);
        Own.NamedAfter = &Nest.Loops[Loop];
        return Own;
      }
  G.NamedAfter = &First;
  return G;
}

} // namespace soaview
