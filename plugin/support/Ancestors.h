//===- Ancestors.h - the one walk up the AST out of a body -------*- C++
//-*-===//
//
// Walks that leave a function body (the loops or the OpenMP construct around
// a statement, the function or lambda it is in, the operands of types) go up
// the ASTContext's parent map, which clang builds once per translation unit
// on first use. ancestors(Ctx, N) is that walk: N's parent, its parent, and
// so on, following the first parent of each node (a node in a template
// instantiation has one), innermost first. Walks inside one body use the
// body's ParentMap instead (AstHelpers.h, parentThrough).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_ANCESTORS_H
#define SOAVIEW_ANCESTORS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/ParentMapContext.h"

#include <iterator>

namespace soaview {

/// The ancestors of one node, innermost first, as a range of DynTypedNode.
class Ancestors {
public:
  // NOLINTNEXTLINE(readability-identifier-naming): the standard's name
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = clang::DynTypedNode;
    using difference_type = std::ptrdiff_t;
    using pointer = const clang::DynTypedNode *;
    using reference = const clang::DynTypedNode &;

    iterator() = default;
    iterator(clang::ASTContext &Ctx, const clang::DynTypedNode &From)
        : Ctx(&Ctx) {
      step(From);
    }
    reference operator*() const { return Node; }
    pointer operator->() const { return &Node; }
    iterator &operator++() {
      step(Node);
      return *this;
    }
    bool operator==(const iterator &O) const {
      return Done == O.Done && (Done || Node == O.Node);
    }
    bool operator!=(const iterator &O) const { return !(*this == O); }

  private:
    void step(const clang::DynTypedNode &From) {
      clang::DynTypedNodeList Parents = Ctx->getParents(From);
      Done = Parents.empty();
      if (!Done)
        Node = Parents[0];
    }
    clang::ASTContext *Ctx = nullptr;
    clang::DynTypedNode Node;
    bool Done = true;
  };

  Ancestors(clang::ASTContext &Ctx, const clang::DynTypedNode &N)
      : Ctx(Ctx), Start(N) {}
  iterator begin() const { return iterator(Ctx, Start); }
  iterator end() const { return iterator(); }

private:
  clang::ASTContext &Ctx;
  clang::DynTypedNode Start; ///< the node whose ancestors these are
};

/// The ancestors of N (a Stmt, Decl or DynTypedNode), innermost first.
inline Ancestors ancestors(clang::ASTContext &Ctx,
                           const clang::DynTypedNode &N) {
  return Ancestors(Ctx, N);
}
template <class T> Ancestors ancestors(clang::ASTContext &Ctx, const T &N) {
  return Ancestors(Ctx, clang::DynTypedNode::create(N));
}

/// The first parent of N, or an empty node when it has none.
template <class T>
clang::DynTypedNode firstParent(clang::ASTContext &Ctx, const T &N) {
  for (const clang::DynTypedNode &P : ancestors(Ctx, N))
    return P;
  return clang::DynTypedNode();
}

} // namespace soaview

#endif
