//===- PassEmitter.h - the first pass's text edits --------------*- C++ -*-===//
//
// Emits what the first pass converts (docs/design.md): each converted
// nest's views and loops or sweep, the region syncs before loops left as
// written, and at the end the dispatch checks, the view regions and the
// runtime headers. What a converted nest hands on (where its loops are, its
// report rows) and the rewritten files come back as values.
// Tests: test/Rewrite/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_PASSEMITTER_H
#define SOAVIEW_PASSEMITTER_H

#include "driver/Options.h"
#include "driver/PassRequest.h"
#include "emit/Emit.h"
#include "frontend/LoopFinder.h"

#include <map>
#include <optional>
#include <set>

namespace soaview {
struct RegionPlan;

/// The files the real compile parses instead of the user's: the edited
/// ones by FileManager name, and the main file's name.
struct PassEdits {
  std::map<std::string, std::unique_ptr<EditBuffer>> Buffers;
  std::string MainFile;
};

/// What the first pass hands on of a converted nest: where its loops are
/// (GeneratedCodeGuard) and its report rows.
struct EmittedNest {
  std::vector<ConvertedLoop> Loops;
  std::vector<ReportRow> Rows;
};

class PassEmitter {
public:
  PassEmitter(const PassRequest &Request, DiagStore &Diags);

  /// Before a loop a view region reaches that runs as written: the region's
  /// views written back.
  void syncRegion(const LoopInstance &Loop);
  /// A converted nest; nullopt when its views could not be emitted.
  std::optional<EmittedNest> emit(const NestPlan &Nest);
  /// Whether a loop was offloaded.
  bool anyOffload() const { return AnyOffload; }
  /// After the last nest: the dispatch checks, the view regions, the
  /// runtime headers. The rewritten files, or nullopt when there are none
  /// (an error, or nothing rewritten).
  std::optional<PassEdits> finish(const std::vector<RegionPlan> &Regions);

private:
  void breakGeneratedCode(const NestPlan &Nest);
  bool commentLeftAttributes();

  const PassRequest &Request;
  clang::SourceManager &SM;
  DiagStore &Diags;
  Emitter Em;
  bool AnyRewrite = false, AnyOffload = false, AnyHeap = false,
       AnyHostSweep = false;
  std::set<unsigned> LoopsEmitted; // loop text is shared by instantiations
  /// By the outer loop's location: the dispatch checks of its nests (of
  /// every instantiation: one rewrite of a template's loop serves them all),
  /// emitted at the end.
  std::map<unsigned, DispatchSite> GuardsAt;
};

} // namespace soaview

#endif
