//===- Diagnostics.h - soaview's diagnostics as data ------------*- C++ -*-===//
//
// The first pass runs in a nested compiler whose own diagnostics are thrown
// away. soaview's findings are therefore stored here as (file, offset) data
// and replayed through the real compile's DiagnosticsEngine, where -verify,
// -Werror and the user's diagnostic flags apply as usual.
// Every message is an entry of the catalogue, diag/Diagnostics.def, which
// docs/diagnostics.md is checked against (test/Docs); each is checked by a
// -verify test (tools/check-diagnostics.py coverage). Tests: test/Sema/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_DIAGNOSTICS_H
#define SOAVIEW_DIAGNOSTICS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>
#include <vector>

namespace clang {
class DiagnosticsEngine;
class FileManager;
class SourceManager;
} // namespace clang

namespace soaview {

/// A position that survives the end of the first pass.
struct StoredLoc {
  std::string File; ///< path as the FileManager knows it; empty = none
  unsigned Offset = 0;
  bool valid() const { return !File.empty(); }
};

struct StoredFixIt {
  StoredLoc Begin;
  unsigned Length = 0;
  std::string Text;
};

enum class Severity { Error, Warning, Remark, Note };

/// The catalogue's entries (diag/Diagnostics.def): err_*, warn_*, remark_*
/// and note_*.
namespace diag {
enum Id : unsigned {
#define SOAVIEW_DIAG(Name, Level, Flag, Text) Name,
#define SOAVIEW_NOTE(Name, Text) Name,
#include "diag/Diagnostics.def"
  NumIds
};
} // namespace diag

/// One catalogue entry as data.
struct DiagInfo {
  const char *Name; ///< err_hoist_too_far
  Severity Level;
  const char *Flag; ///< warnings: the name that silences them; else ""
  const char *Text; ///< with %0, %1, ... for the arguments
};
const DiagInfo &diagInfo(diag::Id Id);
/// The entry's text with %N replaced by Args[N].
std::string formatDiag(diag::Id Id, llvm::ArrayRef<std::string> Args);

/// A catalogue entry with its arguments: what a check reports.
struct Msg {
  Msg(diag::Id Id, std::vector<std::string> Args = {})
      : Id(Id), Args(std::move(Args)) {}
  diag::Id Id;
  std::vector<std::string> Args;
  std::string text() const { return formatDiag(Id, Args); }
};

struct StoredNote {
  diag::Id Id = diag::NumIds;
  StoredLoc Loc;
  std::string Message;
};

struct StoredDiag {
  diag::Id Id = diag::NumIds;
  Severity Level = Severity::Error;
  StoredLoc Loc;
  std::string Message;
  std::vector<StoredNote> Notes;
  std::vector<StoredFixIt> FixIts;
};

/// Maps an offset of an original file to the offset of the same character in
/// the text the real compile parses (identity for unchanged files).
using OffsetMap = std::function<unsigned(llvm::StringRef File, unsigned)>;

/// L in the compile of SM and FM (invalid when its file is not loaded).
clang::SourceLocation resolve(const StoredLoc &L, clang::SourceManager &SM,
                              clang::FileManager &FM, const OffsetMap &Map);
/// Where a compile reports a stored position.
using Resolver = std::function<clang::SourceLocation(const StoredLoc &)>;

/// True when Flag names a warning of the catalogue ("empty-view").
bool isWarningFlag(llvm::StringRef Flag);
/// The catalogue's warning flags, comma-separated (for messages).
std::string warningFlags();

/// Reports M through DE at L now (plugin arguments, the generated-code
/// guard): the level comes from the catalogue, errors and warnings are
/// prefixed "soaview: ".
void reportNow(clang::DiagnosticsEngine &DE, clang::SourceLocation L,
               const Msg &M);

/// Test support: with SOAVIEW_DIAG_COVERAGE=DIR in the environment, every
/// catalogue entry reported in a compile checked by -verify is appended to
/// a file in DIR (tools/check-diagnostics.py coverage reads them).
void enableCoverage(bool VerifiedCompile);

class DiagStore {
public:
  explicit DiagStore(const clang::SourceManager &SM) : SM(&SM) {}

  StoredLoc locate(clang::SourceLocation L) const;

  /// Adds a diagnostic of M's severity; the message is prefixed with
  /// "soaview: ".
  StoredDiag &report(clang::SourceLocation L, const Msg &M);
  /// Adds a note (a note_* entry) to D.
  void note(StoredDiag &D, clang::SourceLocation L, const Msg &M);
  void note(StoredDiag &D, const StoredLoc &L, const Msg &M);
  void fixIt(StoredDiag &D, clang::CharSourceRange R, llvm::StringRef Text);

  bool hasErrors() const;
  /// Why a trial failed: the first error reported, else the first warning
  /// (a loop that uses no field), else null.
  const StoredDiag *firstReason() const;
  const std::vector<StoredDiag> &all() const { return Diags; }

  /// Emits everything through DE at the positions Resolve gives. Warnings
  /// follow -w, -Werror and Silenced (flags of the catalogue). Fix-its into
  /// files for which DropFixIts is true are dropped: their physical lines
  /// differ from the user's file (the notes still say what to write).
  void replay(clang::DiagnosticsEngine &DE, const Resolver &Resolve,
              const std::function<bool(llvm::StringRef File)> &DropFixIts = {},
              const std::vector<std::string> &Silenced = {}) const;

private:
  const clang::SourceManager *SM;
  std::vector<StoredDiag> Diags;
};

} // namespace soaview

#endif
