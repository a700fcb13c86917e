//===- Action.h - the two-pass frontend actions -----------------*- C++ -*-===//
//
// FirstPassAction parses syntax-only and runs the driver; used inside the
// plugin (nested compiler) and by soaview-translate (ClangTool).
// SoaviewPluginAction runs the first pass in a nested CompilerInstance, then
// switches the real compile to the rewritten text and replays diagnostics.
// Tests: every lit test.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_ACTION_H
#define SOAVIEW_ACTION_H

#include "driver/Driver.h"

#include "clang/Frontend/FrontendAction.h"

namespace soaview {

class FirstPassAction : public clang::ASTFrontendAction {
public:
  FirstPassAction(Options O, PassResult &R) : Opts(std::move(O)), Result(R) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override;

private:
  Options Opts;
  PassResult &Result;
};

/// Runs the first pass over the invocation of CI in a nested compiler whose
/// own diagnostics are discarded.
void runNestedFirstPass(clang::CompilerInstance &CI, const Options &Opts,
                        PassResult &Result);

/// Text of all rewritten files, main file first, for -dump and tests.
std::string dumpText(const PassResult &Result);

} // namespace soaview

#endif
