//===- LibraryCalls.h - what calls do to a region's lists -----*- C++ -*-===//
//
// The region walk's (Regions.cpp) knowledge of the standard library and of
// the few shapes it lets through: which functions only read the lists and
// positions they are given, which member functions of a container only hand
// out its elements, and what a call, a variable or a type is.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_REGIONS_LIBRARYCALLS_H
#define SOAVIEW_REGIONS_LIBRARYCALLS_H

#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace clang {
class CallExpr;
class CXXMethodDecl;
class Expr;
class FunctionDecl;
} // namespace clang

namespace soaview {

/// A call of soaview::sync (soaview/sync.h), a synchronisation point.
bool isSync(const clang::CallExpr *Call);
/// Whether E names a variable of its own (not a reference: not a place in
/// a container).
bool ownVariable(const clang::Expr *E);
/// `char`, `signed char`, `unsigned char` or `std::byte`.
bool isByte(clang::QualType T);
/// Standard functions that only read through the positions and ranges
/// they are given (searches, counts, an iterator's steps).
bool searches(llvm::StringRef Name);
/// Standard functions that hand their argument on unchanged (std::move).
bool passesOn(llvm::StringRef Name);
/// A library function as messages and the lists above name it.
std::string libraryName(const clang::FunctionDecl *FD);
/// A standard container's member function that hands out its elements
/// without changing which it holds, or an iterator's step.
bool isAccessor(const clang::CXXMethodDecl *M);

} // namespace soaview

#endif
