//===- Options.h - what the first pass is asked and what it hands on -*- C++
//-*-===//
#ifndef SOAVIEW_OPTIONS_H
#define SOAVIEW_OPTIONS_H

#include "diag/Diagnostics.h"
#include "support/EditBuffer.h"
#include "support/Modes.h"

#include "clang/Basic/SourceLocation.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class FileManager;
class SourceManager;
} // namespace clang

namespace soaview {

struct Options {
  bool Remarks = false;
  std::string DumpPath; ///< "-" for stdout
  /// Report diagnostics from the first pass itself (soaview-translate), not
  /// by replay in a later compile (the plugin).
  bool ReportInFirstPass = false;
  /// -fplugin-arg-soaview-convert=, else SOAVIEW_CONVERT (Arguments.h).
  ConvertMode Convert = ConvertMode::Profitable;
  /// Apply the profitability rule (leave loops that visit each element
  /// once unconverted).
  bool profitability() const { return Convert == ConvertMode::Profitable; }
  BackendKind Offload = BackendKind::OpenMP;
  /// Route allocation in offloaded code to soaview's device heap
  /// (-fplugin-arg-soaview-device-heap=off leaves it as written).
  bool DeviceHeap = true;
  /// OpenMP sweeps of nests run as bare kernels where their code allows
  /// (default; -fplugin-arg-soaview-bare-kernels=off keeps worksharing;
  /// soaview/omp_bare.h).
  bool BareKernels = true;
  /// Test hook (-fplugin-arg-soaview-debug-break-generated-code): emit a
  /// call to an undeclared function before each converted loop, so that
  /// the real compile meets an error in generated code.
  bool BreakGeneratedCode = false;
  /// Test hook (-fplugin-arg-soaview-debug-break-view=LINE): the view of
  /// the loop on line LINE gets a line that does not compile.
  unsigned BreakViewLine = 0;
  /// Flags of warnings not to report (-fplugin-arg-soaview-no-warn=FLAG).
  std::vector<std::string> SilencedWarnings;
  /// -fplugin-arg-soaview-annotate=all: every loop over structs is annotated
  /// soa_conversion("always"); a loop that cannot convert keeps its code,
  /// with a remark (frontend/ImplicitAnnotations.h).
  bool AnnotateAll = false;
  /// soaview-translate: the attributes of annotated loops left as written
  /// (the profitability rule, convert=never) become comments too, in the
  /// main file and in the headers soaview rewrites, so that a compiler
  /// without the plugin meets no unknown attribute.
  bool CommentLeftAttributes = false;
};

/// One converted loop, in the shape of [Radtke2025], Table 1.
struct ReportRow {
  std::string Where, Element;
  unsigned InFields = 0, OutFields = 0;
  uint64_t GatherBytes = 0, ScatterBytes = 0; ///< per element (viewSize)
  unsigned Hoist = 0;
  bool Offload = false;
  /// False when the profitability rule left the loop as written.
  bool Converted = true;
  /// Converted behind the size gate: at least GatePairs pairs per element
  /// gathered (a square nest from 2 * GatePairs per range).
  unsigned GatePairs = 0;
};

/// A loop whose rewrite the real compile parses: where it is in the user's
/// file, to blame generated code that does not compile on it.
struct ConvertedLoop {
  StoredLoc Begin, End; ///< offsets in the original file
  std::string What;     ///< "loop over 'ns::T'"
};

/// What the first pass hands to the real compile.
struct PassResult {
  std::vector<ReportRow> Report;
  std::vector<ConvertedLoop> Converted;
  std::unique_ptr<DiagStore> Diags;
  /// Rewritten files by FileManager name; empty when nothing is rewritten.
  std::map<std::string, std::unique_ptr<EditBuffer>> Buffers;
  std::string MainFile;
  bool ParseFailed = false;
  /// The offset in the text the real compile parses of the character at
  /// Offset in File as written.
  unsigned mapOffset(llvm::StringRef File, unsigned Offset) const;
  /// Where the real compile reports soaview's diagnostic at L: in the text
  /// it parses (rewritten files included: -verify matches there), or, with
  /// AsWritten, in a copy of a rewritten file as the user wrote it, so that
  /// the excerpt under the diagnostic shows the user's code.
  clang::SourceLocation userLocation(const StoredLoc &L,
                                     clang::SourceManager &SM,
                                     clang::FileManager &FM,
                                     bool AsWritten) const;

private:
  /// The copies of rewritten files as written, made on first use.
  mutable std::map<std::string, clang::FileID> WrittenCopies;
};

} // namespace soaview

#endif
