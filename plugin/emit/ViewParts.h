//===- ViewParts.h - the pieces a view is written with ----------*- C++ -*-===//
//
// ViewEmitter (emit/Views.h) writes each view group with four pieces that
// share the EmitContext and the group's ExposedFields, passed by reference:
//   FieldAccess    how generated code reaches an element's field, private
//                  ones through member pointers (Specs.cpp)
//   CopiedMembers  the member functions copied into the proxy and the
//                  forwards of the class's names (ViewMembers.cpp)
//   SpecEmitter    one spec per loop and the unions' mirrors (Specs.cpp)
//   ProxyEmitter   the proxy: its tree, members, a constructor per loop,
//                  the destructor writing back (Proxy.cpp)
// Only the emit/View*.cpp, Specs.cpp and Proxy.cpp files include this.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_VIEWPARTS_H
#define SOAVIEW_VIEWPARTS_H

#include "emit/CodeWriter.h"
#include "emit/EmitContext.h"
#include "plan/ViewGroups.h"

#include <memory>
#include <set>

namespace soaview {

/// The view's name.
inline std::string viewName(const EmitContext &Emit, const ViewGroup &G) {
  return Emit.Names.view(*G.NamedAfter);
}
/// The name a view gives the field F: its own, or for an anonymous union
/// held whole (isUnionLeaf) `soaview_u<index>` (Proxy.cpp).
std::string memberName(const clang::FieldDecl *F);
/// The union type a view's buffers hold an anonymous union in (Specs.cpp).
std::string unionMirror(const EmitContext &Emit, const ViewGroup &G,
                        const FieldPath &Path);
/// The members of the anonymous union at Path, as the view declares them
/// (Specs.cpp).
std::vector<std::string> unionMembers(const EmitContext &Emit,
                                      const FieldPath &Path);

/// The private fields one view group reaches through member pointers
/// (FieldAccess::exposed()): each tag's declaration once, in the order of
/// first use, printed before the group's proxy.
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

/// How generated code names a field of an element: through member pointers
/// where it is private, declared once in the group's ExposedFields.
class FieldAccess {
public:
  FieldAccess(EmitContext &Context, ExposedFields &Fields)
      : Emit(Context), Exposed(Fields) {}

  /// Obj's field at Path (`e.kin.v`, `(e.*m(tag{}))`).
  std::string accessPath(const ViewGroup &G, const FieldPath &Path,
                         llvm::StringRef Obj) const;
  /// The call returning the member pointer of the private field at Path.
  std::string exposed(const ViewGroup &G, const FieldPath &Path) const;

private:
  EmitContext &Emit;
  ExposedFields &Exposed;
};

/// One node of a view's proxy: a field on the way to a leaf.
struct ProxyNode {
  const clang::FieldDecl *Field = nullptr; ///< null for the root
  FieldPath Path;
  bool Leaf = false;
  std::vector<std::unique_ptr<ProxyNode>> Kids;
};

using ViewFields = std::vector<std::pair<FieldPath, LeafAccess>>;

/// The member functions a proxy copies from the element's class, and the
/// forwards of the class's names.
class CopiedMembers {
public:
  CopiedMembers(EmitContext &Context, const FieldAccess &Fields)
      : Emit(Context), Access(Fields) {}

  /// MD's text as a member of the proxy ProxyName.
  std::string methodText(const NestPlan &Nest, const ViewGroup &G,
                         const clang::CXXMethodDecl *MD,
                         const std::string &ProxyName) const;
  /// The forwards of the names of node N's class.
  void forwarders(CodeWriter &W, const ViewGroup &G, const ProxyNode &N) const;

private:
  void methodEdits(const ViewGroup &G, const clang::CXXMethodDecl *MD,
                   TextEdits &Edits) const;
  void templateArguments(CodeWriter &W, const clang::RecordDecl *RD) const;

  EmitContext &Emit;
  const FieldAccess &Access;
};

/// The specs of a view group, one per loop, and the unions it holds whole.
class SpecEmitter {
public:
  SpecEmitter(EmitContext &Context, const FieldAccess &Fields)
      : Emit(Context), Access(Fields) {}

  void spec(CodeWriter &W, const NestPlan &Nest, const ViewGroup &G,
            size_t Loop) const;
  void unionMirrors(CodeWriter &W, const ViewGroup &G) const;

private:
  /// One buffer of a spec.
  struct SpecBuffer {
    std::string Name; ///< in the soa (a component of a split array: `x[1]`)
    std::string Type;
    bool Written;
    std::string Field; ///< the element's field (`x[1]` for a component)
  };

  std::vector<SpecBuffer> specBuffers(const ViewGroup &G,
                                      const ViewFields &F) const;
  void specLayout(CodeWriter &W, const ViewGroup &G, const ViewFields &F) const;
  void specCopies(CodeWriter &W, const ViewGroup &G, size_t Loop) const;
  void copyField(const ViewGroup &G, const FieldPath &Path, bool ToSlot,
                 std::vector<std::string> &Statements) const;

  EmitContext &Emit;
  const FieldAccess &Access;
};

/// The proxy of a view group.
class ProxyEmitter {
public:
  ProxyEmitter(EmitContext &Context, const FieldAccess &Fields,
               const CopiedMembers &Members)
      : Emit(Context), Access(Fields), Copied(Members) {}

  ProxyNode proxyTree(const ViewGroup &G) const;
  void proxy(CodeWriter &W, const NestPlan &Nest, const ViewGroup &G,
             const ProxyNode &N, const std::string &Name,
             llvm::StringRef Tail) const;

private:
  /// What the proxy's constructor for one loop and its destructor do
  /// besides declaring.
  struct ProxyParts {
    std::vector<std::string> Inits;
    std::vector<std::string> Copies;    ///< statements of the constructor
    std::vector<std::string> WriteBack; ///< statements of the destructor
  };

  void members(CodeWriter &W, const NestPlan &Nest, const ViewGroup &G,
               const ProxyNode &N) const;
  ProxyParts constructorParts(const ViewGroup &G, size_t Loop,
                              const ProxyNode &N) const;
  void leafInit(const ViewGroup &G, const ProxyNode &Kid,
                ProxyParts &Parts) const;
  void outSlotMembers(CodeWriter &W, const ViewGroup &G) const;
  void outSlotInits(const ViewGroup &G, size_t Loop, ProxyParts &Parts) const;
  std::vector<std::string> writeBack(const ViewGroup &G) const;
  void unionWriteBack(const ViewGroup &G, const FieldPath &Path,
                      const std::string &Slot,
                      std::vector<std::string> &Statements) const;
  void heldUnion(CodeWriter &W, const ViewGroup &G,
                 const FieldPath &Path) const;

  EmitContext &Emit;
  const FieldAccess &Access;
  const CopiedMembers &Copied;
};

} // namespace soaview

#endif
