//===- Chunks.h - generated declarations at namespace scope ------*- C++
//-*-===//
//
// Views, specs and clones go at namespace scope, each in the namespace of
// what it belongs to (the element's, the callee's), before the declaration
// that holds the loop. Chunks collects them in order and renders them at one
// place: it leaves the namespaces open there, reopens each chunk's own, and
// reopens those of the place again; consecutive chunks of one namespace
// share one block. Tests: test/Unit/plugin_test.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_CHUNKS_H
#define SOAVIEW_CHUNKS_H

#include <string>
#include <utility>
#include <vector>

namespace clang {
class Decl;
class DeclContext;
} // namespace clang

namespace soaview {

/// The namespace (or translation unit) that semantically encloses D.
const clang::DeclContext *namespaceOf(const clang::Decl *D);
/// The text that reopens each namespace (and linkage block) around DC,
/// outermost first: `namespace ns {`, `inline namespace v1 {`,
/// `extern "C++" {`.
std::vector<std::string> openers(const clang::DeclContext *DC);

/// One namespace as chunks name it: what identifies it (two blocks of one
/// namespace are different scopes) and the text that opens it.
struct Scope {
  const void *Key;
  std::vector<std::string> Openers;
};
Scope scopeOf(const clang::DeclContext *DC);

class Chunks {
public:
  void add(const Scope &Where, std::string Text);
  void add(const clang::DeclContext *Where, std::string Text) {
    add(scopeOf(Where), std::move(Text));
  }
  void append(const Chunks &Other);
  /// The chunks as text to insert at a place inside the namespaces Here
  /// opens.
  std::string render(const std::vector<std::string> &Here) const;
  bool empty() const { return Items.empty(); }

private:
  std::vector<std::pair<Scope, std::string>> Items;
};

} // namespace soaview

#endif
