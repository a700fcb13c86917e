//===- SoaviewPlugin.cpp - the clang plugin entry point -------------------===//
//
// Loaded with -fplugin=soaview.so (soaview-clang++ does this). Its
// arguments (-fplugin-arg-soaview-remarks, dump=FILE, convert=, backend=,
// device-heap=, annotate=, no-warn=) and SOAVIEW_CONVERT are parsed by
// driver/Arguments.cpp, whose table also writes the tools' --help;
// docs/options.md describes them.
// Everything else lives in the soaview library; this file only wires it to
// the compile. Tests: test/Rewrite, test/Sema, test/Exec.
//===----------------------------------------------------------------------===//
#include "driver/Action.h"
#include "driver/Arguments.h"
#include "driver/GeneratedCodeGuard.h"
#include "frontend/Annotations.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace soaview {
namespace {

bool InFirstPass = false;

/// Replays the first pass's diagnostics once the real parse is complete, so
/// that every header a diagnostic points into is loaded.
/// Diagnostics under -verify are matched against the text the compile
/// parses; otherwise they show the user's code as written.
bool asWritten(const CompilerInstance &CI) {
  return !CI.getDiagnosticOpts().VerifyDiagnostics;
}

class ReplayConsumer : public ASTConsumer {
public:
  ReplayConsumer(CompilerInstance &Compiler, std::shared_ptr<PassResult> Pass,
                 std::vector<std::string> SilencedFlags)
      : CI(Compiler), Pass(std::move(Pass)),
        Silenced(std::move(SilencedFlags)) {}
  void HandleTranslationUnit(ASTContext &) override {
    if (!Pass->Diags)
      return;
    bool AsWritten = asWritten(CI);
    Pass->Diags->replay(
        CI.getDiagnostics(),
        [&](const StoredLoc &L) {
          return Pass->userLocation(L, CI.getSourceManager(),
                                    CI.getFileManager(), AsWritten);
        },
        [&](StringRef File) {
          return !AsWritten && Pass->Buffers.count(File.str()) != 0;
        },
        Silenced);
  }

private:
  CompilerInstance &CI;
  std::shared_ptr<PassResult> Pass;
  std::vector<std::string> Silenced;
};

class SoaviewAction : public PluginASTAction {
protected:
  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    enableCoverage(CI.getDiagnosticOpts().VerifyDiagnostics);
    std::optional<Msg> Err = applyEnvironment(Opts);
    for (const std::string &A : Args)
      if (!Err)
        Err = applyArgument(A, Opts);
    if (!Err && Opts.Offload == BackendKind::Cuda && Opts.DumpPath.empty())
      Err = Msg(diag::err_plugin_cuda_dump);
    if (Err)
      reportNow(CI.getDiagnostics(), {}, *Err);
    return !Err;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    auto R = std::make_shared<PassResult>();
    if (InFirstPass || CI.getFrontendOpts().Inputs.empty() ||
        !CI.getFrontendOpts().Inputs[0].isFile())
      return std::make_unique<ASTConsumer>();
    if (Opts.Convert != ConvertMode::Never) { // never: the source as written
      InFirstPass = true;
      runNestedFirstPass(CI, Opts, *R);
      InFirstPass = false;
    }

    SourceManager &SM = CI.getSourceManager();
    FileManager &FM = CI.getFileManager();
    // CUDA source is for nvcc: this compile keeps the source as written.
    const bool Compile = Opts.Offload != BackendKind::Cuda;
    if (Compile)
      for (auto &[Name, Buf] : R->Buffers) {
        auto FE = FM.getOptionalFileRef(Name);
        if (!FE)
          continue;
        SM.overrideFileContents(
            *FE, llvm::MemoryBuffer::getMemBufferCopy(Buf->result(), Name));
        if (Name == R->MainFile)
          SM.setMainFileID(
              SM.createFileID(*FE, SourceLocation(), SrcMgr::C_User));
      }
    if (!Opts.DumpPath.empty())
      writeDump(CI.getDiagnostics(), *R);
    if (!Compile)
      R->Buffers.clear(); // diagnostics point into the source as written
    // The real compile parses generated code: its errors are soaview's.
    if (!R->Buffers.empty())
      GeneratedCodeGuard::install(CI, R);
    return std::make_unique<ReplayConsumer>(CI, std::move(R),
                                            Opts.SilencedWarnings);
  }

private:
  /// dump=FILE: the rewritten text, FILE's directory created if need be.
  void writeDump(DiagnosticsEngine &D, const PassResult &Result) {
    StringRef Dir = llvm::sys::path::parent_path(Opts.DumpPath);
    std::error_code EC;
    if (Opts.DumpPath != "-" && !Dir.empty())
      EC = llvm::sys::fs::create_directories(Dir);
    if (!EC) {
      llvm::raw_fd_ostream OS(Opts.DumpPath, EC, llvm::sys::fs::OF_Text);
      if (!EC)
        OS << dumpText(Result);
    }
    if (EC)
      reportNow(D, {},
                {diag::err_plugin_dump_file, {Opts.DumpPath, EC.message()}});
  }

  Options Opts;
};

} // namespace
} // namespace soaview

// The registration every Clang plugin makes: nothing to catch an exception.
// NOLINTBEGIN(bugprone-throwing-static-initialization)
static FrontendPluginRegistry::Add<soaview::SoaviewAction>
    X("soaview",
      "convert annotated loops to temporary structure-of-arrays views");
// NOLINTEND(bugprone-throwing-static-initialization)
