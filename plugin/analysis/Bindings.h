//===- Bindings.h - what an analysed body's names are bound to -*- C++ -*-===//
//
// Private to analysis/: the values the analysis passes around. A Binding
// says which element (view) and sub-object an expression denotes; a Scope
// holds the bindings of one analysed function; an AnalysisKey names one
// analysis of a function (the function and its parameters' bindings).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_BINDINGS_H
#define SOAVIEW_BINDINGS_H

#include "analysis/View.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace soaview {
namespace analysis {

/// How an expression denotes the element: as a pointer to it, or as the
/// object itself (an lvalue).
enum class Kind { Pointer, Lvalue };

/// A call that an address of part of an element is handed to, with the
/// type it points to there (before any conversion to `void *`).
struct PassedAddress {
  const clang::CallExpr *Call;
  clang::QualType Pointee;
  bool ByReference = false; ///< the field itself is the argument
};

/// Which element an expression denotes: the view (loop of the nest) it
/// belongs to, and the sub-object path from the element.
struct Binding {
  int View = 0;
  FieldPath Path;
};

/// An expression that denotes a bound element, and how.
struct ElementExpr {
  const clang::Expr *E;
  Kind K;
};

/// The element bindings visible in one analysed function: its parameters
/// and local aliases, and `this` when the function is the element's method.
struct Env {
  llvm::DenseMap<const clang::ValueDecl *, std::pair<Binding, Kind>> Vars;
  bool HasThis = false;
  Binding This;
  const clang::FunctionDecl *Fn = nullptr;
};

/// Identifies one analysis of a function: the function and what its
/// parameters and `this` are bound to. A function is analysed once per key.
struct AnalysisKey {
  const clang::FunctionDecl *FD;
  /// (parameter index, view, dotted path), sorted by index.
  std::vector<std::tuple<unsigned, int, std::string>> Params;
  std::optional<std::pair<int, std::string>> This;
  bool operator<(const AnalysisKey &O) const {
    return std::tie(FD, Params, This) < std::tie(O.FD, O.Params, O.This);
  }
};
AnalysisKey keyOf(const clang::FunctionDecl *FD, const Env &Scope);

} // namespace analysis
} // namespace soaview

#endif
