//===- ElementTypes.cpp - a region's element types and what holds them ----===//
//
// See ElementTypes.h. Tests: test/Sema/regions.cpp.
//===----------------------------------------------------------------------===//
#include "support/ElementTypes.h"

#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

bool ElementTypes::isElement(const CXXRecordDecl *RD,
                             const CXXRecordDecl *Only) const {
  if (!RD)
    return false;
  for (const CXXRecordDecl *E : Records)
    if ((!Only || E == Only) && isElementOrBase(RD, E))
      return true;
  return false;
}

/// holds() and holdsDeep(), of element type Only where given. Deep: a class
/// of the library is looked into through its template arguments only; a
/// class of the user's is followed into its fields.
bool ElementTypes::holdsAt(QualType T, const CXXRecordDecl *Only, int Depth,
                           bool Deep) const {
  if (Depth > 8 || T.isNull())
    return false;
  T = T.getNonReferenceType();
  while (T->isPointerType() || T->isArrayType())
    T = T->isPointerType() ? T->getPointeeType()
                           : QualType(T->getArrayElementTypeNoTypeQual(), 0);
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (isElement(RD, Only))
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type &&
          holdsAt(Arg.getAsType(), Only, Depth + 1, Deep))
        return true;
  const SourceManager &SM = Ctx.getSourceManager();
  if (Deep && RD->hasDefinition() && !SM.isInSystemHeader(RD->getLocation()))
    for (const FieldDecl *F : RD->fields())
      if (holdsAt(F->getType(), Only, Depth + 1, Deep))
        return true;
  return false;
}

std::string ElementTypes::nameIn(QualType T) const {
  for (const CXXRecordDecl *E : Records)
    if (holdsAt(T, E, 0, true))
      return E->getNameAsString();
  return Records.empty() ? "" : Records.front()->getNameAsString();
}

std::string ElementTypes::shownName(QualType T) const {
  const SourceManager &SM = Ctx.getSourceManager();
  T = T.getNonReferenceType();
  for (;;) {
    const Type *Ty = T.getTypePtr();
    const auto *TD = dyn_cast<TypedefType>(Ty);
    if (TD && SM.isInSystemHeader(TD->getDecl()->getLocation())) {
      T = TD->desugar();
    } else if (const auto *S = dyn_cast<SubstTemplateTypeParmType>(Ty)) {
      T = S->getReplacementType();
    } else if (QualType Under = T.getSingleStepDesugaredType(Ctx);
               !TD && !isa<TemplateSpecializationType>(Ty) && Under != T) {
      // Other sugar (the elaboration `std::` of LLVM 19, parentheses): the
      // type under it; the user's typedefs and written templates stay.
      T = Under;
    } else {
      PrintingPolicy Policy = qualifiedPolicy(Ctx);
      Policy.SuppressDefaultTemplateArgs = true; // no std::allocator<P *>
      return T.getUnqualifiedType().getAsString(Policy);
    }
  }
}

} // namespace soaview
