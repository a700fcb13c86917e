//===- GeneratedCodeGuard.cpp - errors in generated code are soaview's ----===//
#include "driver/GeneratedCodeGuard.h"
#include "support/Compat.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace clang;

namespace soaview {

GeneratedCodeGuard::GeneratedCodeGuard(CompilerInstance &CI,
                                       std::shared_ptr<const PassResult> Result)
    : CI(CI), Result(std::move(Result)) {}

void GeneratedCodeGuard::install(CompilerInstance &CI,
                                 std::shared_ptr<const PassResult> Result) {
  DiagnosticsEngine &DE = CI.getDiagnostics();
  auto *G = new GeneratedCodeGuard(CI, std::move(Result));
  G->Target = DE.getClient();
  if (DE.ownsClient())
    G->Owned = DE.takeClient();
  DE.setClient(G, /*ShouldOwnClient=*/true);
  // Held-back errors must not end the compile at the error limit before
  // the one soaview error is reported.
  DE.setErrorLimit(0);
}

bool GeneratedCodeGuard::isGeneratedCodeError(DiagnosticsEngine::Level Level,
                                              const Diagnostic &Info) const {
  if (Flushing || Level != DiagnosticsEngine::Error)
    return false; // fatal errors stop the compile: shown as they are
  unsigned ID = Info.getID();
  // Parse-time errors only: lexer, parser, AST and Sema. Custom IDs are
  // soaview's own diagnostics; warnings the user turned into errors are
  // the user's.
  if (ID < clang::diag::DIAG_START_LEX ||
      ID >= clang::diag::DIAG_START_ANALYSIS)
    return false;
  return !compat::isBuiltinWarning(CI.getDiagnostics(), ID);
}

std::pair<int, int> GeneratedCodeGuard::attribute(SourceLocation L,
                                                  std::string *Where) {
  SourceManager &SM = CI.getSourceManager();
  if (L.isInvalid())
    return {-1, 0};
  L = SM.getFileLoc(L);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(L));
  if (!FE)
    return {-1, 0};
  std::string Name = FE->getName().str();
  unsigned Offset = SM.getFileOffset(L);
  bool Generated = false;
  int Marked = -1;
  auto It = Result->Buffers.find(Name);
  if (It != Result->Buffers.end()) {
    Marked = markedLoop(*It->second, Offset);
    Offset = It->second->originalOffset(Offset, Generated);
    if (Where) {
      auto [Line, Col] = It->second->lineCol(Offset);
      std::string File = llvm::sys::path::filename(Name).str();
      *Where = Generated ? "in code soaview generated before " + File + ":" +
                               std::to_string(Line) + ":" + std::to_string(Col)
                         : "at " + File + ":" + std::to_string(Line) + ":" +
                               std::to_string(Col);
    }
  } else if (Where) {
    PresumedLoc PL = SM.getPresumedLoc(L);
    if (PL.isValid())
      *Where = "at " + llvm::sys::path::filename(PL.getFilename()).str() + ":" +
               std::to_string(PL.getLine()) + ":" +
               std::to_string(PL.getColumn());
  }
  // Innermost converted loop containing the position; else, for generated
  // text, the first loop after the insertion (views and clones are placed
  // before the function holding the loop).
  int Best = -1, Next = -1;
  const auto &Loops = Result->Converted;
  for (size_t I = 0; I < Loops.size(); ++I) {
    const ConvertedLoop &Loop = Loops[I];
    if (Loop.Begin.File != Name)
      continue;
    if (Loop.Begin.Offset <= Offset && Offset <= Loop.End.Offset &&
        (Best < 0 || Loop.Begin.Offset >= Loops[Best].Begin.Offset))
      Best = (int)I;
    if (Loop.Begin.Offset >= Offset &&
        (Next < 0 || Loop.Begin.Offset < Loops[Next].Begin.Offset))
      Next = (int)I;
  }
  if (Best >= 0)
    return {Best, 2};
  if (Generated && Marked >= 0)
    return {Marked, 1};
  if (Generated && Next >= 0)
    return {Next, 1};
  return {-1, 0};
}

/// The converted loop whose view holds position Offset of File's rewritten
/// text, a position in generated code: the comment that starts the view
/// names its loops ("// soaview: view of 'P' for the loop at f.cpp:12:3",
/// "// soaview: buffers of the view of 'P' at ..."), the first one is
/// taken. -1 where the comment before Offset in the same inserted text is
/// not a view's (a clone of a function serves several loops).
int GeneratedCodeGuard::markedLoop(EditBuffer &File, unsigned Offset) const {
  llvm::StringRef Text(File.result());
  size_t At = Text.substr(0, Offset).rfind("\n// soaview: ");
  if (At == llvm::StringRef::npos)
    return -1;
  bool InText = false, InComment = false;
  if (File.originalOffset(Offset, InText) !=
          File.originalOffset(At + 1, InComment) ||
      !InText || !InComment)
    return -1; // another insertion's
  llvm::StringRef Comment = Text.substr(At + 1).split('\n').first;
  if (!Comment.contains("view of '"))
    return -1;
  llvm::StringRef Where = Comment.rsplit(" at ").second.split(',').first.trim();
  for (size_t I = 0; I < Result->Converted.size(); ++I) {
    const StoredLoc &Begin = Result->Converted[I].Begin;
    auto Buffer = Result->Buffers.find(Begin.File);
    if (Buffer == Result->Buffers.end())
      continue;
    auto [Line, Col] = Buffer->second->lineCol(Begin.Offset);
    if (Where == llvm::sys::path::filename(Begin.File).str() + ":" +
                     std::to_string(Line) + ":" + std::to_string(Col))
      return static_cast<int>(I);
  }
  return -1;
}

void GeneratedCodeGuard::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                          const Diagnostic &Info) {
  if (Level == DiagnosticsEngine::Note && HoldingNotes) {
    // Instantiation chains and "candidate" notes: they can place the error
    // in a loop more surely than its own position.
    auto [Loop, Strength] = attribute(Info.getLocation(), nullptr);
    Finding &F = Findings.back();
    if (Strength > F.Strength)
      F.Loop = Loop, F.Strength = Strength;
    return;
  }
  HoldingNotes = false;
  if (!isGeneratedCodeError(Level, Info)) {
    Target->HandleDiagnostic(Level, Info);
    syncCounts();
    return;
  }
  Finding F;
  llvm::SmallString<256> Msg;
  Info.FormatDiagnostic(Msg);
  F.Message = Msg.str().str();
  std::tie(F.Loop, F.Strength) = attribute(Info.getLocation(), &F.Where);
  Findings.push_back(std::move(F));
  HoldingNotes = true;
}

void GeneratedCodeGuard::flush() {
  if (Findings.empty() || Flushing)
    return;
  Flushing = true;
  // Findings by loop, loops in source order; findings nowhere go to the
  // first converted loop.
  std::map<int, std::vector<const Finding *>> ByLoop;
  for (const Finding &F : Findings)
    ByLoop[F.Loop >= 0 ? F.Loop : (Result->Converted.empty() ? -1 : 0)]
        .push_back(&F);
  DiagnosticsEngine &DE = CI.getDiagnostics();
  auto Resolve = [&](const StoredLoc &L) {
    return Result->userLocation(L, CI.getSourceManager(), CI.getFileManager(),
                                !CI.getDiagnosticOpts().VerifyDiagnostics);
  };
  for (auto &[Loop, Fs] : ByLoop) {
    SourceLocation At =
        Loop >= 0 ? Resolve(Result->Converted[Loop].Begin) : SourceLocation();
    reportNow(DE, At,
              {diag::err_generated_code,
               {Loop >= 0 ? Result->Converted[Loop].What
                          : std::string("translation unit")}});
    const Finding &First = *Fs.front();
    std::string More = First.Where.empty() ? "" : " " + First.Where;
    if (Fs.size() > 1)
      More += " (and " + std::to_string(Fs.size() - 1) + " more error" +
              (Fs.size() > 2 ? "s" : "") + ")";
    reportNow(DE, At, {diag::note_generated_code_said, {First.Message, More}});
    reportNow(DE, At, diag::note_generated_code_report);
  }
  Findings.clear();
  Flushing = false;
}

void GeneratedCodeGuard::BeginSourceFile(const LangOptions &LO,
                                         const Preprocessor *PP) {
  Target->BeginSourceFile(LO, PP);
}

void GeneratedCodeGuard::EndSourceFile() {
  flush();
  Target->EndSourceFile();
  syncCounts();
}

void GeneratedCodeGuard::finish() {
  Target->finish();
  syncCounts();
}

void GeneratedCodeGuard::clear() {
  Target->clear();
  syncCounts();
}

void GeneratedCodeGuard::syncCounts() {
  // The wrapped client decides what counts (-verify counts mismatches).
  NumErrors = Target->getNumErrors();
  NumWarnings = Target->getNumWarnings();
}

bool GeneratedCodeGuard::IncludeInDiagnosticCounts() const {
  return Target->IncludeInDiagnosticCounts();
}

} // namespace soaview
