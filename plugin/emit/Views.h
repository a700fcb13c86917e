//===- Views.h - the proxy view and the spec of a loop -----------*- C++
//-*-===//
//
// One proxy per view: the values of one element's fields for one iteration
// (written back by its destructor), copies of the member functions the loop
// reaches, forwards of the class's static names. One spec per view: the SoA
// buffers, gather, scatter, and at(). Private fields are reached through
// member pointers named in explicit instantiations, where access is not
// checked. docs/generated-code.md shows both; tests: test/Rewrite/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_VIEWS_H
#define SOAVIEW_VIEWS_H

#include "emit/Chunks.h"
#include "emit/CodeWriter.h"
#include "emit/EmitContext.h"

#include <memory>
#include <set>

namespace soaview {

/// A small one-dimensional array of arithmetic values (`double x[3]`) is
/// stored one buffer per component (`double *x[3]` in the soa), so that loops
/// reading `p->x[0]` load consecutive slots, as hand-written SoA does. Returns
/// the component count and sets Elem, or 0 for fields stored whole.
unsigned splitComponents(const clang::ASTContext &Ctx, clang::QualType T,
                         clang::QualType &Elem);

class ViewEmitter {
public:
  explicit ViewEmitter(EmitContext &Emit) : Emit(Emit) {}

  /// The view and spec of Nest's loop P (once per view): the forward
  /// declaration into Forward, the definitions into Main.
  void emit(const NestPlan &Nest, const LoopPlan &P, Chunks &Forward,
            Chunks &Main);

private:
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
  /// What the proxy's constructor and destructor do besides declaring.
  struct ProxyParts {
    std::vector<std::string> Inits;
    std::vector<std::string> Copies;    ///< statements of the constructor
    std::vector<std::string> WriteBack; ///< statements of the destructor
  };

  ProxyNode proxyTree(const LoopPlan &P) const;
  void proxy(CodeWriter &W, const NestPlan &Nest, const LoopPlan &P,
             const ProxyNode &N, const std::string &Name,
             llvm::StringRef Tail) const;
  void proxyMembers(CodeWriter &W, const NestPlan &Nest, const LoopPlan &P,
                    const ProxyNode &N, ProxyParts &Parts) const;
  void outSlots(CodeWriter &W, const LoopPlan &P, ProxyParts &Parts) const;
  void forwarders(CodeWriter &W, const LoopPlan &P, const ProxyNode &N) const;
  void templateArguments(CodeWriter &W, const clang::RecordDecl *RD) const;
  std::string methodText(const NestPlan &Nest, const LoopPlan &P,
                         const clang::CXXMethodDecl *MD,
                         const std::string &ProxyName) const;
  std::string accessPath(const LoopPlan &P, const FieldPath &Path,
                         llvm::StringRef Obj, std::string &Tags) const;
  std::vector<SpecBuffer> specBuffers(const LoopPlan &P) const;
  void spec(CodeWriter &W, const LoopPlan &P, bool Swept,
            std::string &Tags) const;
  void specLayout(CodeWriter &W, const LoopPlan &P) const;
  void specCopies(CodeWriter &W, const LoopPlan &P, std::string &Tags) const;
  void copyField(const LoopPlan &P, const FieldPath &Path, bool ToSlot,
                 std::string &Tags, std::vector<std::string> &Statements) const;

  EmitContext &Emit;
  std::set<std::string> DoneViews;
};

} // namespace soaview

#endif
