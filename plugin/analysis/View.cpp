//===- View.cpp - views: leaves, folding, declaration order
//----------------===//
#include "analysis/View.h"

#include <algorithm>

using namespace clang;

namespace soaview {

std::string dotted(const FieldPath &P) {
  std::string S;
  for (const FieldDecl *F : P) {
    if (F->isAnonymousStructOrUnion())
      continue; // its members are named as the enclosing record's
    if (!S.empty())
      S += '.';
    S += F->getName();
  }
  return S;
}

static bool isPrefix(const FieldPath &Pre, const FieldPath &P) {
  return Pre.size() <= P.size() &&
         std::equal(Pre.begin(), Pre.end(), P.begin());
}

void ViewModel::normalise() {
  // Outermost whole records win.
  for (auto It = Wholes.begin(); It != Wholes.end();) {
    LeafAccess *Outer = nullptr;
    for (auto &W : Wholes)
      if (W.first != It->first && isPrefix(W.first, It->first))
        Outer = &W.second;
    if (Outer) {
      Outer->Read |= It->second.Read;
      Outer->Written |= It->second.Written;
      It = Wholes.erase(It);
    } else
      ++It;
  }
  for (auto &W : Wholes) {
    for (auto It = Leaves.begin(); It != Leaves.end();) {
      if (isPrefix(W.first, It->first)) {
        W.second.Read |= It->second.Read;
        W.second.Written |= It->second.Written;
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

} // namespace soaview
