//===- Names.h - the names generated code declares ---------------*- C++
//-*-===//
//
// Generated names (docs/generated-code.md, "Names"). None is reserved (no
// double underscore, no leading underscore); each is made unique against
// every identifier of the translation unit (FreshNames), so that no user
// name is hidden or shadowed, and each is a function of the source only, so
// that host and device compiles, and repeated compiles, agree.
// Tests: test/Unit/plugin_test.cpp, test/Rewrite/reproducible.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_NAMES_H
#define SOAVIEW_NAMES_H

#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class VarDecl;
} // namespace clang

namespace soaview {

struct RecognisedLoop;

/// An identifier made of S: every other character becomes '_', runs of '_'
/// one '_', no '_' at the end.
std::string sanitize(llvm::StringRef S);

/// Names no identifier of a translation unit starts with.
class FreshNames {
public:
  /// Taken: every identifier of the translation unit.
  explicit FreshNames(std::vector<std::string> Taken);
  /// Base, or Base followed by 'x's, such that no taken identifier starts
  /// with the result.
  std::string fresh(std::string Base) const;

private:
  std::vector<std::string> Taken; ///< sorted
};

/// The names of one translation unit's generated code.
class GeneratedNames {
public:
  GeneratedNames(clang::ASTContext &Ctx, const clang::PrintingPolicy &Policy)
      : Ctx(Ctx), Policy(Policy) {}

  /// The namespace of views: `soaview_gen`, inline in the element's.
  static constexpr const char *GenNamespace = "soaview_gen";
  /// `inline namespace soaview_gen { ` (the views' namespace, opened).
  static std::string openGen();

  /// `<line>_<col>` of the loop at At, after its file's name when the loop
  /// is not in the main file (two files may hold loops at the same place).
  std::string siteTag(clang::SourceLocation At) const;
  /// The prefix of the locals of the loop at At: `sv<line>_<col>_`.
  std::string prefix(clang::SourceLocation At) const;
  std::string prefix(const RecognisedLoop &L) const;
  /// The view of loop L over Element: `<Element>_<line>_<col>`; its spec,
  /// tags and selector are named after it.
  std::string view(const RecognisedLoop &L) const;
  /// The view with its namespaces: `::ns::soaview_gen::<view>`.
  std::string qualifiedView(const RecognisedLoop &L) const;
  /// The function a loop in a template selects its view's spec through, by
  /// argument-dependent lookup on the element: one name for every element
  /// type the template is instantiated with.
  std::string selector(const RecognisedLoop &L) const;
  /// The friend function a private field's member pointer comes from.
  std::string memberFunction() const;
  /// The template parameter of a clone that stands for the element type of
  /// its parameter K (`soaview_E2`).
  std::string cloneParameter(unsigned K) const;
  /// The constant holding the address of a function declared at At, which
  /// the converted program may no longer call (`soaview_keep_12_13`).
  std::string keep(clang::SourceLocation At) const;
  /// The device copy of the constant table V, declared beside it
  /// (`soaview_device_kTable`), and with its namespaces
  /// (`::kernel::soaview_device_kTable`).
  std::string deviceTable(const clang::VarDecl *V) const;
  std::string qualifiedDeviceTable(const clang::VarDecl *V) const;

private:
  std::string elementTag(const RecognisedLoop &L) const;
  std::string fresh(std::string Base) const;

  clang::ASTContext &Ctx;
  const clang::PrintingPolicy &Policy;
  mutable std::optional<FreshNames> Fresh; ///< built on first use
};

} // namespace soaview

#endif
