//===- LibraryCalls.cpp - what calls do to a region's lists ---------------===//
//
// See LibraryCalls.h.
//===----------------------------------------------------------------------===//
#include "regions/LibraryCalls.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "clang/Basic/OperatorKinds.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace soaview {

/// A call of soaview::sync (soaview/sync.h), a synchronisation point.
bool isSync(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD && FD->getNameAsString() == "sync" &&
         FD->getQualifiedNameAsString() == "soaview::sync";
}

/// Whether E names a variable of its own (not a reference: not a place in
/// a container).
bool ownVariable(const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && !V->getType()->isReferenceType();
}

/// `char`, `signed char`, `unsigned char` or `std::byte`: what code writes
/// an object's bytes through.
bool isByte(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isCharType())
    return true;
  const auto *ET = T->getAs<EnumType>();
  return ET && ET->getDecl()->getName() == "byte" &&
         ET->getDecl()->isInStdNamespace();
}

/// Standard functions (and std::ranges' function objects of the same
/// names) that read through the positions and ranges they are given and
/// write nothing there: the algorithms that search, count and compare, the
/// steps of an iterator.
bool searches(llvm::StringRef Name) {
  static constexpr llvm::StringLiteral Names =
      " find find_if find_if_not find_end find_first_of adjacent_find count"
      " count_if mismatch equal is_permutation search search_n all_of any_of"
      " none_of lower_bound upper_bound equal_range binary_search min_element"
      " max_element minmax_element is_sorted is_sorted_until is_partitioned"
      " is_heap is_heap_until includes lexicographical_compare accumulate"
      " reduce inner_product distance next prev advance begin end cbegin cend"
      " size empty data min max minmax clamp ";
  return !Name.empty() && Names.contains((" " + Name + " ").str());
}

/// Standard functions that hand their argument on unchanged.
bool passesOn(llvm::StringRef Name) {
  static constexpr llvm::StringLiteral Names =
      " move forward addressof as_const ";
  return !Name.empty() && Names.contains((" " + Name + " ").str());
}

/// A library function as messages and the lists above name it: a function
/// object of std::ranges by its algorithm (`__sort_fn` of libstdc++,
/// `__sort::__fn` of libc++: `sort`).
std::string libraryName(const FunctionDecl *FD) {
  const auto *M = dyn_cast<CXXMethodDecl>(FD);
  if (!M || M->getOverloadedOperator() != OO_Call)
    return FD->getNameAsString();
  llvm::StringRef Name = M->getParent()->getName();
  if (Name == "__fn")
    if (const auto *NS = dyn_cast<NamespaceDecl>(M->getParent()->getParent()))
      Name = NS->getName();
  Name.consume_front("__");
  Name.consume_back("_fn");
  return Name.str();
}

/// Member functions of the standard containers that hand out their
/// elements without changing which they hold (non-const only for the
/// reference they return: a write through it is an assignment, checked
/// apart), and their iterators' steps.
bool isAccessor(const CXXMethodDecl *M) {
  switch (M->getOverloadedOperator()) {
  case OO_Subscript: // and an iterator's steps and dereference
  case OO_Star:
  case OO_Arrow:
  case OO_PlusPlus:
  case OO_MinusMinus:
  case OO_PlusEqual:
  case OO_MinusEqual:
    return true;
  default:
    break;
  }
  if (!M->getIdentifier())
    return false;
  static const char *const Names[] = {
      "at",          "front",       "back", "data", "begin",
      "end",         "rbegin",      "rend", "find", "lower_bound",
      "upper_bound", "equal_range", "size", "empty"};
  return llvm::is_contained(Names, M->getName());
}

} // namespace soaview
