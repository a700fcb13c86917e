//===- InstanceKey.h - the template arguments a loop's spec is chosen by
//---===//
//
// One rewrite of a template's loop serves every instantiation. Where
// instantiations with one element type use different fields, the loop picks
// its spec by the element type and by the template arguments in scope at the
// loop (the function template's and those of its enclosing class templates):
// the loop passes `(::soaview::instance_key<T, F> *)nullptr`, written with the
// parameters' names, and each instantiation gets an overload of the selector
// that spells its arguments at namespace scope. Tests:
// test/Rewrite/template-instances.cpp, test/Sema/instance-keys.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_INSTANCEKEY_H
#define SOAVIEW_INSTANCEKEY_H

#include "clang/AST/TemplateBase.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
class NamedDecl;
} // namespace clang

namespace soaview {

/// One template parameter in scope at a loop and this instantiation's
/// argument for it (a pack's argument is a pack).
struct KeyPart {
  const clang::NamedDecl *Param;
  clang::TemplateArgument Arg;
};

/// The template parameters in scope at Fn, innermost template first, with
/// the arguments of Fn's instantiation.
std::vector<KeyPart> instanceKeyParts(const clang::FunctionDecl *Fn);

/// An argument that cannot be spelt after the translation unit: the
/// parameter it is given for, what it is (for the diagnostic) and where
/// that is declared.
struct UnspellableArgument {
  const clang::NamedDecl *Param;
  std::string What;
  clang::SourceLocation At;
};
std::optional<UnspellableArgument>
unspellableKey(const std::vector<KeyPart> &Parts);

} // namespace soaview

#endif
