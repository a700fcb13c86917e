//===- ValueClasses.h - which classes views may carry as bytes --*- C++ -*-===//
//
// A view carries a field of class type with memcpy (gathers, scatters and
// the view's own copy of the value) when the class's value is its bytes.
// The rule reads what the class's special members do (docs/semantics.md,
// "Classes carried as bytes"); atomics are never carried. Tests:
// test/Sema/refusals-atomics.cpp, test/Sema/value-classes.cpp,
// test/Exec/constructs/byte-copied-fields.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SUPPORT_VALUECLASSES_H
#define SOAVIEW_SUPPORT_VALUECLASSES_H

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>

namespace soaview {

/// The atomic object in an object of type T: T itself (Member empty) when
/// it is an _Atomic type, a class of the standard library's atomics
/// (std::atomic, std::atomic_flag, std::atomic_ref) or a class derived from
/// one; else the first member, at any depth, that holds one ("a.b"). Type
/// names the atomic class. A view holding such an object would take locks
/// and run atomic operations on its own copy, which exclude no other thread.
struct AtomicPart {
  std::string Member;
  std::string Type;
};
std::optional<AtomicPart> atomicPart(const clang::ASTContext &Ctx,
                                     clang::QualType T);

/// Why a view may not carry a T as bytes: the declaration that makes T's
/// value more than its bytes (a special member function that does more
/// than copy its members, a field of another kind) and what it does, as
/// "'Name' does ...". None when T is trivially copyable or value-like.
struct NotBytes {
  const clang::NamedDecl *Culprit;
  std::string Why;
};
std::optional<NotBytes> whyNotBytes(const clang::ASTContext &Ctx,
                                    clang::QualType T);

/// Whether views may carry a T as bytes (memcpy) though it may not be
/// trivially copyable (Peano4's tarch::la::Vector, whose copy constructor
/// copies its array in a loop; a C++98 class with `~V() {}`): no atomics,
/// no virtual functions or bases, special members that copy members, loop
/// over array members or do nothing, and only numbers, enumerations and
/// such classes (and arrays of them) as fields. Whatever its copy operations
/// do runs where the program itself copies (a copy of the view copies as a
/// copy of the element does), never in the gathers and scatters.
inline bool copiesAsBytes(const clang::ASTContext &Ctx, clang::QualType T) {
  return !atomicPart(Ctx, T) && !whyNotBytes(Ctx, T);
}

} // namespace soaview

#endif
