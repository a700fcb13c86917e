//===- FormSteps.h - what the loop-shape recognisers share ------*- C++ -*-===//
//
// The pieces every recogniser of a loop shape uses (forms/LoopForms.cpp,
// RangeForm.cpp, IndexForm.cpp): the element type a loop visits, and the
// refusal a step reports (a located error and its note) when the loop has
// no form soaview converts.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_FORMSTEPS_H
#define SOAVIEW_FORMSTEPS_H

#include "diag/Diagnostics.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"

#include <optional>
#include <string>

namespace soaview {

/// The definition of T's class, or null (not a class, or only declared).
inline const clang::CXXRecordDecl *recordOf(clang::QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD ? RD->getDefinition() : nullptr;
}

/// The element type without the typedefs of classes it was reached through
/// (`auto &m` over a `std::array<Mol, 2>` is its `value_type`, a container's
/// `ParticleType`): generated code names the element from outside those
/// classes, and the views and diagnostics are named after what it is.
inline clang::QualType withoutMemberTypedefs(clang::QualType T) {
  while (const auto *TT = T->getAs<clang::TypedefType>()) {
    if (!llvm::isa<clang::RecordDecl>(TT->getDecl()->getDeclContext()))
      break;
    T = clang::QualType(TT->desugar().getTypePtr(),
                        T.getLocalFastQualifiers() |
                            TT->desugar().getLocalFastQualifiers());
  }
  return T;
}

/// A step of recognising one loop: the AST it reads, and the refusal it
/// reports when the loop has no form soaview converts.
class FormStep {
public:
  FormStep(clang::ASTContext &Ctx, DiagStore &Diags) : Ctx(Ctx), Diags(Diags) {}

protected:
  /// Reports Error at L, with Note at NoteL when there is one; false.
  bool fail(clang::SourceLocation L, const Msg &Error,
            clang::SourceLocation NoteL, std::optional<Msg> Note) {
    StoredDiag &D = Diags.report(L, Error);
    if (Note)
      Diags.note(D, NoteL, *Note);
    return false;
  }
  /// Refuses the loop as not the index form, saying what was found (What)
  /// and, at For, what is expected.
  bool expectIndexForm(clang::SourceLocation L, clang::SourceLocation For,
                       llvm::StringRef What) {
    return fail(L, {diag::err_form_unsupported, {What.str()}}, For,
                Msg(diag::note_form_index_expected));
  }
  /// The text of S as written, for a refusal to quote.
  std::string text(const clang::Stmt *S) const {
    return writtenText(Ctx, S->getSourceRange());
  }

  clang::ASTContext &Ctx;
  DiagStore &Diags;
};

} // namespace soaview

#endif
