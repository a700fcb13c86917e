//===- View.cpp - views: leaves, folding, declaration order
//----------------===//
#include "analysis/View.h"

#include "clang/AST/Type.h" // LLVM 22: Type::getAs*RecordDecl are inline here

#include <algorithm>
#include <set>

using namespace clang;

namespace soaview {

std::string dotted(const FieldPath &P) {
  std::string S;
  for (const FieldDecl *F : P) {
    if (F->isAnonymousStructOrUnion() && !(F == P.back() && isUnionLeaf(P)))
      continue; // its members are named as the enclosing record's
    if (!S.empty())
      S += '.';
    if (F->isAnonymousStructOrUnion()) { // held whole: `union {a, b}`
      std::string Members;
      for (const FieldDecl *M : F->getType()->getAsRecordDecl()->fields())
        Members += (Members.empty() ? "" : ", ") + M->getName().str();
      S += "union {" + Members + "}";
    } else {
      S += F->getName();
    }
  }
  return S;
}

static bool isPrefix(const FieldPath &Pre, const FieldPath &P) {
  return Pre.size() <= P.size() &&
         std::equal(Pre.begin(), Pre.end(), P.begin());
}

size_t unionEnd(const FieldPath &P) {
  for (size_t I = 0; I + 1 < P.size(); ++I)
    if (P[I]->isAnonymousStructOrUnion() && P[I]->getType()->isUnionType())
      return I + 1;
  return 0;
}

/// An anonymous union a view can hold whole: its members are named and
/// public, in a named class, so that the view can declare a union of the
/// same members (`decltype(C::density) density;`).
bool holdableUnion(const FieldDecl *U) {
  const auto *Parent = dyn_cast<CXXRecordDecl>(U->getParent());
  const auto *RD = U->getType()->getAsCXXRecordDecl();
  if (!Parent || !Parent->getIdentifier() || !RD || !RD->isTriviallyCopyable())
    return false;
  for (const FieldDecl *M : RD->fields())
    if (!M->getIdentifier() || M->isBitField() ||
        (M->getAccess() != AS_public && M->getAccess() != AS_none))
      return false;
  return !RD->field_empty();
}

void ViewModel::holdUnions(bool RegionSweep) {
  // Members of one anonymous union share storage: when the loop writes one
  // and uses another, the view holds the union whole (as the element does),
  // so that every write lands on the same bytes as it would in the element.
  // A sweep in a view region holds the union whole wherever it uses it: the
  // region keeps one buffer per field name for all its sweeps, and one
  // sweep's `d.w` and another's whole union would be two buffers of the
  // same bytes, neither seeing what the other wrote.
  std::map<FieldPath, std::map<FieldPath, LeafAccess>> Uses; // by union
  for (auto *Fields : {&Leaves, &Wholes})
    for (auto &[Path, A] : *Fields) {
      size_t End = unionEnd(Path);
      if (!End || !holdableUnion(Path[End - 1]) || End == Path.size())
        continue;
      Uses[FieldPath(Path.begin(), Path.begin() + End)][Path].join(A);
    }
  for (auto &[Union, Members] : Uses) {
    std::set<const FieldDecl *> Named; // the union's members used
    LeafAccess Access;
    for (auto &[Member, A] : Members) {
      Named.insert(Member[Union.size()]);
      Access.join(A);
    }
    if (!RegionSweep && !(Named.size() > 1 && Access.Written))
      continue;
    Wholes[Union] = Access;
    for (auto &[Member, A] : Members)
      HeldMembers[Union][Member].join(A);
  }
}

void ViewModel::normalise(bool RegionSweep) {
  holdUnions(RegionSweep);
  // Outermost whole records win.
  for (auto It = Wholes.begin(); It != Wholes.end();) {
    LeafAccess *Outer = nullptr;
    for (auto &W : Wholes)
      if (W.first != It->first && isPrefix(W.first, It->first))
        Outer = &W.second;
    if (Outer) {
      Outer->join(It->second);
      It = Wholes.erase(It);
    } else
      ++It;
  }
  for (auto &W : Wholes) {
    for (auto It = Leaves.begin(); It != Leaves.end();) {
      if (isPrefix(W.first, It->first)) {
        W.second.join(It->second);
        It = Leaves.erase(It);
      } else
        ++It;
    }
    for (auto It = Methods.begin(); It != Methods.end();) {
      if (!It->first.empty() && isPrefix(W.first, It->first))
        It = Methods.erase(It);
      else
        ++It;
    }
    Leaves[W.first] = W.second;
  }
  Wholes.clear();
  // A union inside a record held whole is that record's bytes.
  for (auto It = HeldMembers.begin(); It != HeldMembers.end();)
    It = Leaves.count(It->first) ? std::next(It) : HeldMembers.erase(It);
}

std::pair<std::string, std::string> ViewModel::inOutNames() const {
  std::string In, Out;
  for (auto &[Path, A] : orderedLeaves()) {
    if (A.Read)
      In += (In.empty() ? "" : ", ") + dotted(Path);
    if (A.Written)
      Out += (Out.empty() ? "" : ", ") + dotted(Path);
  }
  return {In, Out};
}

std::vector<std::pair<FieldPath, LeafAccess>> ViewModel::orderedLeaves() const {
  return inDeclarationOrder(Leaves);
}

bool ViewModel::writes() const {
  for (const auto &[Path, A] : Leaves)
    if (A.Written)
      return true;
  return false;
}

std::vector<std::pair<FieldPath, LeafAccess>>
inDeclarationOrder(const std::map<FieldPath, LeafAccess> &Fields) {
  std::vector<std::pair<FieldPath, LeafAccess>> V(Fields.begin(), Fields.end());
  auto Key = [](const FieldDecl *F) {
    return F->getLocation().getRawEncoding();
  };
  // Declaration order: fields of one record compare by index, fields of
  // different records (bases) by position in the file. The keys are distinct
  // paths, so the order is total: std::sort (libstdc++'s stable_sort uses
  // the deprecated get_temporary_buffer).
  std::sort(V.begin(), V.end(), [&](const auto &A, const auto &B) {
    for (size_t I = 0; I < A.first.size() && I < B.first.size(); ++I) {
      const FieldDecl *X = A.first[I], *Y = B.first[I];
      if (X == Y)
        continue;
      if (X->getParent() == Y->getParent())
        return X->getFieldIndex() < Y->getFieldIndex();
      return Key(X) < Key(Y);
    }
    return A.first.size() < B.first.size();
  });
  return V;
}

bool unionSiblings(const FieldPath &A, const FieldPath &B) {
  size_t N = std::min(A.size(), B.size());
  for (size_t I = 0; I < N; ++I)
    if (A[I] != B[I])
      return I > 0 && A[I - 1]->isAnonymousStructOrUnion() &&
             A[I - 1]->getType()->isUnionType();
  return false;
}

bool overlaps(const FieldPath &A, const FieldPath &B) {
  size_t N = std::min(A.size(), B.size());
  return std::equal(A.begin(), A.begin() + N, B.begin()) || unionSiblings(A, B);
}

void ViewModel::absorb(const ViewModel &Other) {
  for (auto &[Union, Members] : Other.HeldMembers)
    if (!Leaves.count(Union) || HeldMembers.count(Union)) // else held whole
      for (auto &[Member, A] : Members)
        HeldMembers[Union][Member].join(A);
  for (auto &[Path, A] : Other.Leaves) {
    if (isUnionLeaf(Path) && !Other.HeldMembers.count(Path))
      HeldMembers.erase(Path); // the other holds it whole
    Leaves[Path].join(A);
  }
  for (auto &[Path, A] : Other.Wholes)
    Wholes[Path].join(A);
  for (auto &[Path, Ms] : Other.Methods)
    Methods[Path].insert(Ms.begin(), Ms.end());
  Aliases.insert(Other.Aliases.begin(), Other.Aliases.end());
  normalise();
}

} // namespace soaview
