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

#include "analysis/Analysis.h"
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
bool checkForeign(const RecognisedNest &Recognised,
                  const AnalysedNest &Analysed, DiagStore &Diags) {
  for (const ForeignAccess &F : Analysed.Foreign)
    for (size_t View = 0; View < Recognised.Loops.size(); ++View) {
      if (!isElementOrBase(F.Record, Recognised.Loops[View].Form.Element))
        continue;
      for (auto &[Path, Access] : Analysed.Loops[View].View.orderedLeaves()) {
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
                            Recognised.Loops[View]);
      }
    }
  return true;
}

/// Members of one anonymous union share storage: a view keeping two of them
/// in separate buffers is exact only while neither is written.
bool checkUnions(const RecognisedNest &Recognised, const AnalysedNest &Analysed,
                 DiagStore &Diags) {
  for (size_t View = 0; View < Recognised.Loops.size(); ++View) {
    const ViewModel &V = Analysed.Loops[View].View;
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
            OtherUse.FirstUse, Msg(diag::note_field_union),
            Recognised.Loops[View]);
      }
  }
  return true;
}

/// A sweep in a view region shares the region's buffers, one per field name:
/// a member of an anonymous union it cannot hold whole (holdableUnion)
/// would have a buffer of its own beside the other members', and another
/// sweep could not see what it writes (or the reverse).
bool checkRegionUnions(const RecognisedNest &Recognised,
                       const AnalysedNest &Analysed, DiagStore &Diags) {
  if (!Recognised.RegionSweep)
    return true;
  for (size_t View = 0; View < Recognised.Loops.size(); ++View)
    for (auto &[Path, Access] : Analysed.Loops[View].View.orderedLeaves()) {
      if (unionEnd(Path) && Access.Written)
        return refuseInLoop(
            Diags, Access.FirstUse,
            {diag::err_region_union_member, {dotted(Path)}}, Access.FirstUse,
            Msg(diag::note_region_union_member), Recognised.Loops[View]);
    }
  return true;
}

/// Two views of the same element type in one nest may hold the same objects
/// (the active set contains the local one). A field written through one and
/// held by the other is shared in place where every view can reach it in
/// the element (analysis/Shared.cpp); any other is refused.
bool checkAliasing(const RecognisedNest &Recognised,
                   const AnalysedNest &Analysed, DiagStore &Diags) {
  for (const SharedField &S : sharedFields(Recognised, Analysed)) {
    if (S.InPlace)
      continue;
    StoredDiag &D =
        Diags.report(S.WriteUse, {diag::err_views_alias, {dotted(S.Path)}});
    Diags.note(D, Recognised.Loops[S.Writer].Form.Loop->getBeginLoc(),
               diag::note_views_alias_writer);
    Diags.note(D, Recognised.Loops[S.Holder].Form.Loop->getBeginLoc(),
               diag::note_views_alias_holder);
    Diags.note(D, S.Path.front()->getLocation(),
               diag::note_views_alias_in_place);
    return false;
  }
  return true;
}

} // namespace

bool checkViews(const RecognisedNest &Recognised, const AnalysedNest &Analysed,
                DiagStore &Diags) {
  return checkForeign(Recognised, Analysed, Diags) &&
         checkUnions(Recognised, Analysed, Diags) &&
         checkRegionUnions(Recognised, Analysed, Diags) &&
         checkAliasing(Recognised, Analysed, Diags);
}

} // namespace soaview
