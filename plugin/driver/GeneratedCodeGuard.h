//===- GeneratedCodeGuard.h - errors in generated code are soaview's -*- C++
//-*-===//
//
// soaview's promise: a loop it reports as converted compiles. The first pass
// parsed the user's code without errors, so a compiler error in the real
// compile of the rewritten text comes from what soaview generated. This
// diagnostic consumer wraps the real compile's client: such errors (and their
// notes) are held back, and at the end of the translation unit each loop they
// belong to gets one soaview error, at the user's loop, naming what the
// compiler found and saying that it is a soaview bug.
//
// Errors that do not come from parsing (warnings the user made errors, the
// back end, missing headers) and soaview's own diagnostics pass through.
// An error in the views generated before a function goes to the loop the
// view's first comment names.
// Tests: test/Rewrite/generated-code-guard.cpp,
// test/Rewrite/generated-code-blame.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_GENERATEDCODEGUARD_H
#define SOAVIEW_GENERATEDCODEGUARD_H

#include "driver/Driver.h"

#include "clang/Basic/Diagnostic.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class SourceManager;
} // namespace clang

namespace soaview {

class GeneratedCodeGuard : public clang::DiagnosticConsumer {
public:
  /// Wraps CI's diagnostic client (the guard is owned by CI's engine).
  static void install(clang::CompilerInstance &CI,
                      std::shared_ptr<const PassResult> Result);

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void finish() override;
  void clear() override;
  bool IncludeInDiagnosticCounts() const override;

private:
  /// Reports one soaview error per loop whose generated code failed to
  /// compile; at the end of the source file, before the wrapped client
  /// ends it (and -verify compares).
  void flush();
  GeneratedCodeGuard(clang::CompilerInstance &CI,
                     std::shared_ptr<const PassResult> Result);

  struct Finding {
    std::string Message; ///< the compiler's text
    std::string Where;   ///< where it points, in the user's terms
    int Loop = -1;       ///< index into PassResult::Converted
    int Strength = 0;    ///< 2: inside the loop, 1: generated before it
  };
  /// Which converted loop a location belongs to, and how surely.
  std::pair<int, int> attribute(clang::SourceLocation L, std::string *Where);
  int markedLoop(EditBuffer &File, unsigned Offset) const;
  void syncCounts();
  bool isGeneratedCodeError(clang::DiagnosticsEngine::Level Level,
                            const clang::Diagnostic &Info) const;

  clang::CompilerInstance &CI;
  std::shared_ptr<const PassResult> Result;
  std::unique_ptr<clang::DiagnosticConsumer> Owned;
  clang::DiagnosticConsumer *Target = nullptr;
  std::vector<Finding> Findings;
  bool HoldingNotes = false; ///< the last error was held: hold its notes
  bool Flushing = false;
};

} // namespace soaview

#endif
