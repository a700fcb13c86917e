//===- Diagnostics.cpp - soaview's diagnostics as data --------------------===//
#include "Diagnostics.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

StoredLoc DiagStore::locate(SourceLocation L) const {
  StoredLoc S;
  if (L.isInvalid())
    return S;
  L = SM->getFileLoc(L);
  FileID FID = SM->getFileID(L);
  OptionalFileEntryRef FE = SM->getFileEntryRefForID(FID);
  if (!FE)
    return S;
  S.File = FE->getName().str();
  S.Offset = SM->getFileOffset(L);
  return S;
}

StoredDiag &DiagStore::report(Severity Sev, SourceLocation L, StringRef Msg) {
  StoredDiag D;
  D.Level = Sev;
  D.Loc = locate(L);
  D.Message = ("soaview: " + Msg).str();
  Diags.push_back(std::move(D));
  return Diags.back();
}

void DiagStore::note(StoredDiag &D, SourceLocation L, StringRef Msg) {
  D.Notes.push_back({locate(L), Msg.str()});
}

void DiagStore::fixIt(StoredDiag &D, CharSourceRange R, StringRef Text) {
  StoredFixIt F;
  F.Begin = locate(R.getBegin());
  StoredLoc E = locate(R.getEnd());
  if (!F.Begin.valid() || E.File != F.Begin.File)
    return;
  F.Length = E.Offset - F.Begin.Offset;
  if (R.isTokenRange())
    return; // callers pass character ranges
  F.Text = Text.str();
  D.FixIts.push_back(std::move(F));
}

bool DiagStore::hasErrors() const {
  for (const StoredDiag &D : Diags)
    if (D.Level == Severity::Error)
      return true;
  return false;
}

SourceLocation resolve(const StoredLoc &L, SourceManager &SM, FileManager &FM,
                       const OffsetMap &Map) {
  if (!L.valid())
    return {};
  auto FE = FM.getOptionalFileRef(L.File);
  if (!FE)
    return {};
  FileID FID = SM.translateFile(*FE);
  if (FID.isInvalid())
    return {};
  return SM.getLocForStartOfFile(FID).getLocWithOffset(Map(L.File, L.Offset));
}

static DiagnosticsEngine::Level levelOf(Severity S) {
  switch (S) {
  case Severity::Error:
    return DiagnosticsEngine::Error;
  case Severity::Warning:
    return DiagnosticsEngine::Warning;
  case Severity::Remark:
    return DiagnosticsEngine::Remark;
  case Severity::Note:
    return DiagnosticsEngine::Note;
  }
  return DiagnosticsEngine::Error;
}

void DiagStore::replay(DiagnosticsEngine &DE, SourceManager &Target,
                       FileManager &FM, const OffsetMap &Map,
                       const std::function<bool(StringRef)> &Rewritten) const {
  for (const StoredDiag &D : Diags) {
    unsigned ID = DE.getCustomDiagID(levelOf(D.Level), "%0");
    {
      DiagnosticBuilder B = DE.Report(resolve(D.Loc, Target, FM, Map), ID);
      B << D.Message;
      for (const StoredFixIt &F : D.FixIts) {
        if (Rewritten && Rewritten(F.Begin.File))
          continue;
        SourceLocation Begin = resolve(F.Begin, Target, FM, Map);
        if (Begin.isValid())
          B << FixItHint::CreateReplacement(
              CharSourceRange::getCharRange(Begin,
                                            Begin.getLocWithOffset(F.Length)),
              F.Text);
      }
    }
    unsigned NoteID = DE.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    for (const StoredNote &N : D.Notes)
      DE.Report(resolve(N.Loc, Target, FM, Map), NoteID) << N.Message;
  }
}

} // namespace soaview
