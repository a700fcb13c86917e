//===- Views.h - the proxy view and the specs of a nest ---------*- C++ -*-===//
//
// One view (proxy) per element type and nest, standing in for the element
// wherever it stood: the values of one element's fields for one iteration
// (written back by its destructor), copies of the member functions the
// loops reach, forwards of the class's static names. Every loop of the nest
// over that type builds it from its own spec (a constructor per loop); the
// fields the other loops use stay unset. One spec per loop: the SoA
// buffers, gather, scatter, and at(). Private fields are reached through
// member pointers named in explicit instantiations, where access is not
// checked. docs/generated-code.md shows both; tests: test/Rewrite/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_VIEWS_H
#define SOAVIEW_VIEWS_H

#include "emit/Chunks.h"
#include "emit/CodeWriter.h"
#include "emit/EmitContext.h"
#include "plan/ViewGroups.h"

#include <map>
#include <memory>
#include <set>

namespace soaview {

/// Name of the SoA buffer of a leaf: the path joined with '_'
/// (Views.cpp; the proxy and the specs name buffers alike).
std::string bufferName(const FieldPath &P);

class ViewEmitter {
public:
  explicit ViewEmitter(EmitContext &Emit) : Emit(Emit) {}

  /// The views and specs of Nest (once per view): the forward declarations
  /// into Forward, the definitions into Main.
  void emit(const NestPlan &Nest, Chunks &Forward, Chunks &Main);

private:
  /// The view's name.
  std::string viewName(const ViewGroup &G) const {
    return Emit.Names.view(*G.NamedAfter);
  }
  /// One node of a view's proxy: a field on the way to a leaf.
  struct ProxyNode {
    const clang::FieldDecl *Field = nullptr; ///< null for the root
    FieldPath Path;
    bool Leaf = false;
    std::vector<std::unique_ptr<ProxyNode>> Kids;
  };
  /// One buffer of a spec.
  struct SpecBuffer {
    std::string Name; ///< in the soa (a component of a split array: `x[1]`)
    std::string Type;
    bool Written;
    std::string Field; ///< the element's field (`x[1]` for a component)
  };
  /// What the proxy's constructor for one loop and its destructor do
  /// besides declaring.
  struct ProxyParts {
    std::vector<std::string> Inits;
    std::vector<std::string> Copies;    ///< statements of the constructor
    std::vector<std::string> WriteBack; ///< statements of the destructor
  };
  using Fields = std::vector<std::pair<FieldPath, LeafAccess>>;

  void keyedSelectors(const NestPlan &Nest, Chunks &Main);
  void emitGroup(const NestPlan &Nest, const ViewGroup &G, Chunks &Forward,
                 Chunks &Main);
  std::string selectors(const NestPlan &Nest, const ViewGroup &G) const;
  void breakForTest(CodeWriter &Body, const NestPlan &Nest,
                    const ViewGroup &G) const;
  ProxyNode proxyTree(const ViewGroup &G) const;
  void proxy(CodeWriter &W, const NestPlan &Nest, const ViewGroup &G,
             const ProxyNode &N, const std::string &Name,
             llvm::StringRef Tail) const;
  void members(CodeWriter &W, const NestPlan &Nest, const ViewGroup &G,
               const ProxyNode &N) const;
  ProxyParts constructorParts(const ViewGroup &G, size_t Loop,
                              const ProxyNode &N) const;
  void leafInit(const ViewGroup &G, const ProxyNode &Kid,
                ProxyParts &Parts) const;
  void outSlotMembers(CodeWriter &W, const ViewGroup &G) const;
  void outSlotInits(const ViewGroup &G, size_t Loop, ProxyParts &Parts) const;
  std::vector<std::string> writeBack(const ViewGroup &G) const;
  void forwarders(CodeWriter &W, const ViewGroup &G, const ProxyNode &N) const;
  void templateArguments(CodeWriter &W, const clang::RecordDecl *RD) const;
  std::string methodText(const NestPlan &Nest, const ViewGroup &G,
                         const clang::CXXMethodDecl *MD,
                         const std::string &ProxyName) const;
  void methodEdits(const ViewGroup &G, const clang::CXXMethodDecl *MD,
                   TextEdits &Edits) const;
  std::string accessPath(const ViewGroup &G, const FieldPath &Path,
                         llvm::StringRef Obj) const;
  std::string exposed(const ViewGroup &G, const FieldPath &Path) const;
  std::vector<SpecBuffer> specBuffers(const ViewGroup &G,
                                      const Fields &F) const;
  std::string unionMirror(const ViewGroup &G, const FieldPath &Path) const;
  std::vector<std::string> unionMembers(const FieldPath &Path) const;
  void unionMirrors(CodeWriter &W, const ViewGroup &G) const;
  void heldUnion(CodeWriter &W, const ViewGroup &G,
                 const FieldPath &Path) const;
  void spec(CodeWriter &W, const NestPlan &Nest, const ViewGroup &G,
            size_t Loop) const;
  void specLayout(CodeWriter &W, const ViewGroup &G, const Fields &F) const;
  void specCopies(CodeWriter &W, const ViewGroup &G, size_t Loop) const;
  void copyField(const ViewGroup &G, const FieldPath &Path, bool ToSlot,
                 std::vector<std::string> &Statements) const;
  void unionWriteBack(const ViewGroup &G, const FieldPath &Path,
                      const std::string &Slot,
                      std::vector<std::string> &Statements) const;

  /// The private fields one view group reaches through member pointers
  /// (exposed()): each tag's declaration once, in the order of first use,
  /// printed before the group's proxy.
  class ExposedFields {
  public:
    void add(const std::string &Tag, const std::string &Declaration) {
      if (Seen.insert(Tag).second)
        Text += Declaration;
    }
    bool empty() const { return Text.empty(); }
    const std::string &declarations() const { return Text; }

  private:
    std::set<std::string> Seen;
    std::string Text;
  };

  EmitContext &Emit;
  /// Of the group emitGroup is writing (emptied as it starts one; the
  /// const spec writers fill it).
  mutable ExposedFields Exposed;
  std::set<std::string> DoneViews;
  std::set<std::string> DoneSelectors;
};

} // namespace soaview

#endif
