//===- Diagnostics.cpp - soaview's diagnostics as data --------------------===//
#include "diag/Diagnostics.h"
#include "support/Environment.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <unistd.h>

using namespace clang;

namespace soaview {

namespace {
constexpr Severity Error = Severity::Error, Warning = Severity::Warning,
                   Remark = Severity::Remark;
const DiagInfo Catalogue[] = {
#define SOAVIEW_DIAG(Name, Level, Flag, Text) {#Name, Level, Flag, Text},
#define SOAVIEW_NOTE(Name, Text) {#Name, Severity::Note, "", Text},
#include "diag/Diagnostics.def"
};
static_assert(sizeof(Catalogue) / sizeof(Catalogue[0]) == diag::NumIds,
              "one DiagInfo per catalogue entry");
} // namespace

const DiagInfo &diagInfo(diag::Id Id) { return Catalogue[Id]; }

std::string formatDiag(diag::Id Id, llvm::ArrayRef<std::string> Args) {
  std::string Out;
  for (const char *C = Catalogue[Id].Text; *C; ++C) {
    if (C[0] == '%' && C[1] >= '0' && C[1] <= '9') {
      size_t N = size_t(C[1] - '0');
      Out += N < Args.size() ? Args[N] : "?";
      ++C;
      continue;
    }
    Out += *C;
  }
  return Out;
}

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

StoredDiag &DiagStore::report(SourceLocation L, const Msg &M) {
  StoredDiag D;
  D.Id = M.Id;
  D.Level = diagInfo(M.Id).Level;
  D.Loc = locate(L);
  D.Message = "soaview: " + M.text();
  Diags.push_back(std::move(D));
  return Diags.back();
}

void DiagStore::note(StoredDiag &D, SourceLocation L, const Msg &M) {
  note(D, locate(L), M);
}

void DiagStore::note(StoredDiag &D, const StoredLoc &L, const Msg &M) {
  D.Notes.push_back({M.Id, L, M.text()});
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

const StoredDiag *DiagStore::firstReason() const {
  for (Severity Level : {Severity::Error, Severity::Warning})
    for (const StoredDiag &D : Diags)
      if (D.Level == Level)
        return &D;
  return nullptr;
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

namespace {
bool CoverageOn = false;

void covered(diag::Id Id) {
  if (!CoverageOn)
    return;
  const char *Dir = envValue(EnvVar::DiagCoverage);
  if (!Dir)
    return;
  std::string Path =
      std::string(Dir) + "/" + std::to_string(::getpid()) + ".txt";
  if (FILE *F = std::fopen(Path.c_str(), "a")) {
    std::fprintf(F, "%s\n", diagInfo(Id).Name);
    std::fclose(F);
  }
}
} // namespace

void enableCoverage(bool VerifiedCompile) {
  // Only ever switched on: the nested first pass parses the arguments again
  // in a compile that is not verified.
  if (VerifiedCompile && envValue(EnvVar::DiagCoverage))
    CoverageOn = true;
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

void DiagStore::replay(DiagnosticsEngine &DE, const Resolver &Resolve,
                       const std::function<bool(StringRef)> &DropFixIts,
                       const std::vector<std::string> &Silenced) const {
  for (const StoredDiag &D : Diags) {
    Severity Level = D.Level;
    // Custom diagnostics bypass clang's warning options: apply them here.
    if (Level == Severity::Warning) {
      const char *Flag = diagInfo(D.Id).Flag;
      if (DE.getIgnoreAllWarnings() ||
          std::find(Silenced.begin(), Silenced.end(), Flag) != Silenced.end())
        continue;
      if (DE.getWarningsAsErrors())
        Level = Severity::Error;
    }
    covered(D.Id);
    unsigned ID = DE.getCustomDiagID(levelOf(Level), "%0");
    {
      DiagnosticBuilder B = DE.Report(Resolve(D.Loc), ID);
      B << D.Message;
      for (const StoredFixIt &F : D.FixIts) {
        if (DropFixIts && DropFixIts(F.Begin.File))
          continue;
        SourceLocation Begin = Resolve(F.Begin);
        if (Begin.isValid())
          B << FixItHint::CreateReplacement(
              CharSourceRange::getCharRange(Begin,
                                            Begin.getLocWithOffset(F.Length)),
              F.Text);
      }
    }
    unsigned NoteID = DE.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    for (const StoredNote &N : D.Notes) {
      covered(N.Id);
      DE.Report(Resolve(N.Loc), NoteID) << N.Message;
    }
  }
}

bool isWarningFlag(StringRef Flag) {
  for (const DiagInfo &I : Catalogue)
    if (I.Level == Severity::Warning && Flag == I.Flag)
      return true;
  return false;
}

std::string warningFlags() {
  std::string Out;
  for (const DiagInfo &I : Catalogue)
    if (I.Level == Severity::Warning)
      Out += (Out.empty() ? "" : ", ") + std::string(I.Flag);
  return Out;
}

void reportNow(DiagnosticsEngine &DE, SourceLocation L, const Msg &M) {
  Severity Level = diagInfo(M.Id).Level;
  covered(M.Id);
  std::string Text = M.text();
  if (Level != Severity::Note)
    Text = "soaview: " + Text;
  DE.Report(L, DE.getCustomDiagID(levelOf(Level), "%0")) << Text;
}

} // namespace soaview
