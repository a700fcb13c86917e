//===- Keys.h - how a loop and its selector spell an instance key --------===//
//
// A loop whose instantiations with one element type use different fields
// picks its spec by `::soaview::instance_key<...>` as well (plan/
// InstanceKey.h): the loop writes the template parameters' names, each
// selector overload the instantiation's arguments. Non-type parameters go in
// as `::soaview::value_key<N>`. Test: test/Rewrite/template-instances.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_KEYS_H
#define SOAVIEW_KEYS_H

#include <string>

namespace clang {
class FunctionDecl;
}

namespace soaview {

class TypeSpeller;

/// `::soaview::instance_key<T, ::soaview::value_key<N>>`, as the loop in
/// Fn's template writes it.
std::string instanceKeyPattern(const clang::FunctionDecl *Fn);
/// `::soaview::instance_key<::F1, ::soaview::value_key<(int)3>>`: Fn's
/// arguments, spelt at namespace scope (checked spellable by the driver).
std::string instanceKeyType(const TypeSpeller &Types,
                            const clang::FunctionDecl *Fn);

} // namespace soaview

#endif
