//===- ElementTypes.h - element types and what holds them -------*- C++ -*-===//
//
// A set of element types and the questions asked of a type about them: is
// it an element, does it hold elements (a list, a container of lists), and
// how the user's code names it. A view region asks them of its code
// (regions/: the element types of the loops it reaches); a sweep asks
// whether the lists its loop over the cells reads hold its elements
// (plan/KeptCells.cpp).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_ELEMENTTYPES_H
#define SOAVIEW_ELEMENTTYPES_H

#include "clang/AST/Type.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CXXRecordDecl;
} // namespace clang

namespace soaview {

class ElementTypes {
public:
  ElementTypes(const clang::ASTContext &Ctx,
               std::vector<const clang::CXXRecordDecl *> Records)
      : Ctx(Ctx), Records(std::move(Records)) {}

  /// RD is an element type (or Only, where given) or one of its bases.
  bool isElement(const clang::CXXRecordDecl *RD,
                 const clang::CXXRecordDecl *Only = nullptr) const;
  /// T is an element, a pointer or reference to one, or a class (a
  /// container) whose template arguments hold elements.
  bool holds(clang::QualType T) const { return holdsAt(T, nullptr, 0, false); }
  /// Also a class whose fields hold them (`std::vector<Cell>` where a Cell
  /// holds a list), for what the standard library may change.
  bool holdsDeep(clang::QualType T) const {
    return holdsAt(T, nullptr, 0, true);
  }
  /// The name of the element type T holds, for messages.
  std::string nameIn(clang::QualType T) const;
  /// A container type as the user's code names it: without the standard
  /// library's own names for it (`value_type`, `reference`: the type of
  /// `cells[0]`), down to the type the user wrote as the template argument.
  std::string shownName(clang::QualType T) const;

private:
  bool holdsAt(clang::QualType T, const clang::CXXRecordDecl *Only, int Depth,
               bool Deep) const;

  const clang::ASTContext &Ctx;
  std::vector<const clang::CXXRecordDecl *> Records;
};

} // namespace soaview

#endif
