//===- Diagnostics.h - soaview's diagnostics as data ------------*- C++ -*-===//
//
// The first pass runs in a nested compiler whose own diagnostics are thrown
// away. soaview's findings are therefore stored here as (file, offset) data
// and replayed through the real compile's DiagnosticsEngine, where -verify,
// -Werror and the user's diagnostic flags apply as usual.
// Every message lives in docs/diagnostics.md. Tests: test/Sema/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_DIAGNOSTICS_H
#define SOAVIEW_DIAGNOSTICS_H

#include "clang/Basic/SourceLocation.h"
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

struct StoredNote {
  StoredLoc Loc;
  std::string Message;
};

struct StoredDiag {
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

class DiagStore {
public:
  explicit DiagStore(const clang::SourceManager &SM) : SM(&SM) {}

  StoredLoc locate(clang::SourceLocation L) const;

  /// Adds a diagnostic; the message is prefixed with "soaview: ".
  StoredDiag &report(Severity S, clang::SourceLocation L, llvm::StringRef Msg);
  StoredDiag &error(clang::SourceLocation L, llvm::StringRef Msg) {
    return report(Severity::Error, L, Msg);
  }
  void note(StoredDiag &D, clang::SourceLocation L, llvm::StringRef Msg);
  void fixIt(StoredDiag &D, clang::CharSourceRange R, llvm::StringRef Text);

  bool hasErrors() const;
  const std::vector<StoredDiag> &all() const { return Diags; }
  /// Removes everything reported after the first N records (used when a loop
  /// is refused and its partial findings must go).
  size_t size() const { return Diags.size(); }

  /// Emits everything through DE, mapping positions through Map. Fix-its
  /// into files for which Rewritten is true are dropped: their physical
  /// lines differ from the user's file (the notes still say what to write).
  void replay(clang::DiagnosticsEngine &DE, clang::SourceManager &Target,
              clang::FileManager &FM, const OffsetMap &Map,
              const std::function<bool(llvm::StringRef File)> &Rewritten = {}) const;

private:
  const clang::SourceManager *SM;
  std::vector<StoredDiag> Diags;
};

} // namespace soaview

#endif
