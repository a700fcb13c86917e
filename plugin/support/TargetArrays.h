//===- TargetArrays.h - the arrays an index loop may target -----*- C++ -*-===//
//
// One rule for what soa_conversion_target may name, shared by recognition
// (forms/IndexForm.cpp TargetRecogniser::targetElement) and annotate=all's
// inference (frontend/ImplicitAnnotations.cpp).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_TARGETARRAYS_H
#define SOAVIEW_TARGETARRAYS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"

namespace soaview {

/// The element type of an array an index loop may target, `T *`, `T[N]` or
/// `std::vector<T>`, seen through references and keeping the element's
/// sugar; null for any other type (the caller checks that T is a struct).
inline clang::QualType targetArrayElement(const clang::ASTContext &Ctx,
                                          clang::QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return T->getPointeeType();
  if (T->isConstantArrayType())
    return Ctx.getAsConstantArrayType(T)->getElementType();
  if (const auto *CT =
          llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
              T->getAsCXXRecordDecl()))
    if (CT->getQualifiedNameAsString() == "std::vector")
      return CT->getTemplateArgs()[0].getAsType();
  return {};
}

} // namespace soaview

#endif
