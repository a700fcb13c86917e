//===- ViewChecks.cpp - what the views of a nest may not hold
//--------------===//
//
// Checks of an analysed nest, before anything is planned: other uses of
// element objects that conflict with a view, members of one anonymous union
// kept apart, and two views of one element type that would disagree about a
// field one of them writes. Tests: test/Sema/refusals*.cpp,
// test/Sema/nests.cpp.
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"

#include "diag/Diagnostics.h"
#include "support/AstHelpers.h"

#include <algorithm>

using namespace clang;

namespace soaview {

namespace {

/// Reports Error at L, with Note at NoteL and the loop it concerns.
bool refuseInLoop(DiagStore &Diags, SourceLocation L, const Msg &Error,
                  SourceLocation NoteL, const Msg &Note,
                  const RecognisedLoop &Loop) {
  StoredDiag &D = Diags.report(L, Error);
  Diags.note(D, NoteL.isValid() ? NoteL : L, Note);
  Diags.note(D, Loop.Form.Loop->getBeginLoc(), diag::note_in_annotated_loop);
  return false;
}

/// A foreign access conflicts with a view when it touches a field the view
/// writes, or writes a field the view holds.
bool checkForeign(const RecognisedNest &R, const AnalysedNest &A,
                  DiagStore &Diags) {
  for (const ForeignAccess &F : A.Foreign)
    for (size_t View = 0; View < R.Loops.size(); ++View) {
      if (!isElementOrBase(F.Record, R.Loops[View].Form.Element))
        continue;
      for (auto &[Path, Access] : A.Loops[View].View.orderedLeaves()) {
        if (F.Field &&
            std::find(Path.begin(), Path.end(), F.Field) == Path.end())
          continue;
        if (!Access.Written && !F.Write)
          continue;
        return refuseInLoop(Diags, F.Loc,
                            {diag::err_field_foreign,
                             {dotted(Path), F.Write ? "written" : "read",
                              Access.Written ? "writes" : "reads"}},
                            Access.FirstUse, Msg(diag::note_field_foreign),
                            R.Loops[View]);
      }
    }
  return true;
}

/// Two different members of one anonymous union below a common prefix
/// (`density.wcount` and `force.f` of SWIFT's particle): they share storage.
bool unionSiblings(const FieldPath &A, const FieldPath &B) {
  size_t N = std::min(A.size(), B.size());
  for (size_t I = 0; I < N; ++I)
    if (A[I] != B[I])
      return I > 0 && A[I - 1]->isAnonymousStructOrUnion() &&
             A[I - 1]->getType()->isUnionType();
  return false;
}

/// The storage of the fields at A and B overlaps.
bool overlaps(const FieldPath &A, const FieldPath &B) {
  size_t N = std::min(A.size(), B.size());
  return std::equal(A.begin(), A.begin() + N, B.begin()) || unionSiblings(A, B);
}

/// Members of one anonymous union share storage: a view keeping two of them
/// in separate buffers is exact only while neither is written.
bool checkUnions(const RecognisedNest &R, const AnalysedNest &A,
                 DiagStore &Diags) {
  for (size_t View = 0; View < R.Loops.size(); ++View) {
    const ViewModel &V = A.Loops[View].View;
    std::vector<std::pair<FieldPath, LeafAccess>> Fields = V.orderedLeaves();
    for (auto &F : inDeclarationOrder(V.Wholes))
      Fields.push_back(F);
    for (auto &[PathI, AccessI] : Fields)
      for (auto &[PathJ, AccessJ] : Fields) {
        if (!(AccessI.Written || AccessJ.Written) ||
            !unionSiblings(PathI, PathJ))
          continue;
        // Reported at the written one (the first when both are).
        bool IWritten = AccessI.Written;
        const FieldPath &Written = IWritten ? PathI : PathJ;
        const FieldPath &Other = IWritten ? PathJ : PathI;
        const LeafAccess &WrittenUse = IWritten ? AccessI : AccessJ;
        const LeafAccess &OtherUse = IWritten ? AccessJ : AccessI;
        return refuseInLoop(
            Diags, WrittenUse.FirstUse,
            {diag::err_field_union, {dotted(Written), dotted(Other)}},
            OtherUse.FirstUse, Msg(diag::note_field_union), R.Loops[View]);
      }
  }
  return true;
}

/// Two views of the same element type in one nest may hold the same objects
/// (the active set contains the local one). That is safe only when no field
/// written through one view is held by the other ([Radtke2025], section
/// 3.3).
bool checkAliasing(const RecognisedNest &R, const AnalysedNest &A,
                   DiagStore &Diags) {
  for (size_t I = 0; I < R.Loops.size(); ++I)
    for (size_t J = I + 1; J < R.Loops.size(); ++J) {
      const ViewModel &VI = A.Loops[I].View, &VJ = A.Loops[J].View;
      if (!isElementOrBase(VJ.Element, R.Loops[I].Form.Element) &&
          !isElementOrBase(VI.Element, R.Loops[J].Form.Element))
        continue;
      auto LeavesI = VI.orderedLeaves(), LeavesJ = VJ.orderedLeaves();
      for (auto &[PathI, AccessI] : LeavesI)
        for (auto &[PathJ, AccessJ] : LeavesJ) {
          if (!overlaps(PathI, PathJ) || (!AccessI.Written && !AccessJ.Written))
            continue;
          const RecognisedLoop &Writer =
              AccessI.Written ? R.Loops[I] : R.Loops[J];
          const RecognisedLoop &Holder =
              AccessI.Written ? R.Loops[J] : R.Loops[I];
          StoredDiag &D =
              Diags.report((AccessI.Written ? AccessI : AccessJ).FirstUse,
                           {diag::err_views_alias,
                            {dotted(AccessI.Written ? PathI : PathJ)}});
          Diags.note(D, Writer.Form.Loop->getBeginLoc(),
                     diag::note_views_alias_writer);
          Diags.note(D, Holder.Form.Loop->getBeginLoc(),
                     diag::note_views_alias_holder);
          return false;
        }
    }
  return true;
}

} // namespace

bool checkViews(const RecognisedNest &R, const AnalysedNest &A,
                DiagStore &Diags) {
  return checkForeign(R, A, Diags) && checkUnions(R, A, Diags) &&
         checkAliasing(R, A, Diags);
}

} // namespace soaview
