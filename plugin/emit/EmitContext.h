//===- EmitContext.h - what every part of emission shares --------*- C++
//-*-===//
//
// The services the emitters share (emit/Emit.h is the entry point): the
// rewritten files, the backend, and how generated code names things and
// copies the user's text. Per-nest state is never kept here: each emitter
// function receives the NestPlan it writes out.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_EMITCONTEXT_H
#define SOAVIEW_EMITCONTEXT_H

#include "diag/Diagnostics.h"
#include "emit/Backend.h"
#include "emit/Names.h"
#include "emit/SourceText.h"
#include "emit/TypeNames.h"
#include "plan/Plan.h"
#include "support/EditBuffer.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class SourceManager;
} // namespace clang

namespace soaview {

/// The files a translation unit's conversion edits, by FileManager name.
class RewrittenFiles {
public:
  explicit RewrittenFiles(clang::SourceManager &SM) : SM(SM) {}
  /// The buffer of L's file (created on first use); null in system headers.
  EditBuffer *bufferFor(clang::SourceLocation L);
  std::map<std::string, std::unique_ptr<EditBuffer>> &buffers() {
    return Buffers;
  }

private:
  clang::SourceManager &SM;
  std::map<std::string, std::unique_ptr<EditBuffer>> Buffers;
};

struct EmitContext {
  EmitContext(clang::ASTContext &Ctx, DiagStore &Diags, const Backend &Target);

  clang::ASTContext &Ast;
  clang::SourceManager &SM;
  const clang::LangOptions &Lang;
  DiagStore &Diags;
  /// Where offloaded loops run (host, OpenMP target, CUDA).
  const Backend &Target;
  SourceText Source;
  TypeSpeller Types;
  GeneratedNames Names;
  RewrittenFiles Files;
  /// Test hook (Options::BreakViewLine).
  unsigned BreakViewLine = 0;

  /// True when P's view is used in device code (an offloaded loop, or the
  /// inner loop of one).
  static bool onDevice(const LoopPlan &P) { return runsOnDevice(P); }
  /// The mark of view code that runs where P runs.
  std::string deviceMark(const LoopPlan &P) const {
    return Target.declarations().deviceMark(onDevice(P));
  }
  /// The remark of a converted loop (`view of 'P' in {...} out {...}
  /// (gather N B, scatter M B per element)`); Where ends it.
  Msg remark(const LoopPlan &P, const std::string &Where = "") const;
  /// The edits of user code copied into generated code (clones, view
  /// methods) that Nest's conversion needs in range R: element address
  /// comparisons wrapped, allocation routed to the device heap, constant
  /// tables named by their device copies.
  void copyEdits(const NestPlan &Nest, clang::CharSourceRange R,
                 TextEdits &Edits) const;
  /// Each of Which that lies in R without its qualifier: `p->Base::x` ->
  /// `p->x`.
  void unqualifyEdits(clang::CharSourceRange R,
                      const std::vector<const clang::MemberExpr *> &Which,
                      TextEdits &Edits) const;
  /// Each reference of Which to a constant table, where the backend names
  /// the table's device copy (SOAVIEW_DEVICE_TABLE(t, ::soaview_device_t)),
  /// once per place; only those in R with R given.
  void tableEdits(const std::vector<const clang::DeclRefExpr *> &Which,
                  TextEdits &Edits,
                  std::optional<clang::CharSourceRange> R = {}) const;
  /// `identity(e)` around each of Which that lies in R.
  void identityEdits(clang::CharSourceRange R,
                     const std::vector<const clang::Expr *> &Which,
                     TextEdits &Edits) const;
};

} // namespace soaview

#endif
