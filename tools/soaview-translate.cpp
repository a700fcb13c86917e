//===- soaview-translate.cpp - write the converted source -----------------===//
//
//   soaview-translate FILE [-o OUT] [--remarks] [--backend=openmp|cuda]
//                     [--convert=always|profitable] [--depfile DEP]
//                     -- <compile flags>
//   soaview-translate --report FILE -- <compile flags>
//
// Runs soaview's first pass and writes the rewritten translation unit, for
// sites whose production compiler cannot load plugins. The output includes
// <soaview/soaview.h>: compile it with -I<runtime include> and link the
// soaview runtime. Diagnostics are printed clang-style; the exit status is 1
// when a loop was refused. With --backend=cuda, offloaded loops become CUDA
// kernels and the output is CUDA source for nvcc (flags: soaview-config).
// --depfile writes the files the output depends on (Make syntax, for build
// systems: the CMake helper soaview_cuda_sources uses it).
// Tests: test/Rewrite/translate.cpp.
//===----------------------------------------------------------------------===//
#include "driver/Action.h"
#include "frontend/Annotations.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace {

int usage() {
  llvm::errs() << "usage: soaview-translate FILE [-o OUT] [--remarks] "
                  "[--convert=always|profitable] [--backend=openmp|cuda] "
                  "[--depfile DEP] -- "
                  "<compile flags>\n"
                  "       soaview-translate --report FILE -- <compile flags>\n";
  return 2;
}

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(soaview::Options O, soaview::PassResult &R) : Opts(O), R(R) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<soaview::FirstPassAction>(Opts, R);
  }

private:
  soaview::Options Opts;
  soaview::PassResult &R;
};

} // namespace

int main(int argc, const char **argv) {
  soaview::registerAttributes();
  std::string File, Out = "-", DepFile;
  soaview::Options Opts;
  Opts.ReportInFirstPass = true;
  Opts.Profitability = soaview::profitabilityFromEnvironment();
  std::vector<std::string> Flags;
  bool SawDashes = false, Report = false;
  for (int I = 1; I < argc; ++I) {
    StringRef A(argv[I]);
    if (SawDashes) {
      Flags.push_back(A.str());
    } else if (A == "--") {
      SawDashes = true;
    } else if (A == "-o" && I + 1 < argc) {
      Out = argv[++I];
    } else if (A == "--report") {
      Report = true;
    } else if (A == "--remarks") {
      Opts.Remarks = true;
    } else if (A == "--convert=always") {
      Opts.Profitability = false;
    } else if (A == "--convert=profitable") {
      Opts.Profitability = true;
    } else if (A == "--depfile" && I + 1 < argc) {
      DepFile = argv[++I];
    } else if (A == "--backend=cuda") {
      Opts.Offload = soaview::BackendKind::Cuda;
    } else if (A == "--backend=openmp") {
      Opts.Offload = soaview::BackendKind::OpenMP;
    } else if (A == "-h" || A == "--help") {
      usage();
      return 0;
    } else if (!A.starts_with("-") && File.empty()) {
      File = A.str();
    } else {
      return usage();
    }
  }
  if (File.empty())
    return usage();
  Flags.push_back("-resource-dir=" SOAVIEW_RESOURCE_DIR);
  Flags.push_back("-isystem" SOAVIEW_RUNTIME_INCLUDE);
  Flags.push_back("-Wno-unknown-attributes");
  if (!DepFile.empty()) {
    Flags.push_back("-MD");
    Flags.push_back("-MF" + DepFile);
    Flags.push_back("-MT" + Out);
  }
  tooling::FixedCompilationDatabase DB(".", Flags);
  tooling::ClangTool Tool(DB, {File});
  // ClangTool's default adjusters drop dependency-file flags: keep them.
  Tool.clearArgumentsAdjusters();
  Tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  soaview::PassResult R;
  Factory F(Opts, R);
  int Rc = Tool.run(&F);
  if (Rc != 0 || R.ParseFailed)
    return 1;
  if (R.Diags && R.Diags->hasErrors())
    return 1;
  if (Report) {
    // The paper's Table 1, per converted loop (and template instantiation).
    const char *H[] = {"loop", "element", "|in|", "gather B",
                       "|out|", "scatter B", "hoist", "offload", "converted"};
    llvm::outs() << llvm::format("%-32s %-14s %6s %9s %6s %9s %6s %8s  %s\n", H[0],
                                 H[1], H[2], H[3], H[4], H[5], H[6], H[7], H[8]);
    for (const soaview::ReportRow &Row : R.Report)
      llvm::outs() << llvm::format(
          "%-32s %-14s %6u %9llu %6u %9llu %6u %8s  %s\n", Row.Where.c_str(),
          Row.Element.c_str(), Row.InFields,
          (unsigned long long)Row.GatherBytes, Row.OutFields,
          (unsigned long long)Row.ScatterBytes, Row.Hoist,
          Row.Offload ? "yes" : "no",
          Row.Converted ? "yes" : "no (visits each element once)");
    return 0;
  }
  std::string Text;
  auto It = R.Buffers.find(R.MainFile);
  if (It != R.Buffers.end())
    Text = It->second->result();
  else {
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf) {
      llvm::errs() << "soaview-translate: cannot read " << File << "\n";
      return 1;
    }
    Text = (*Buf)->getBuffer().str();
  }
  for (auto &[Name, B] : R.Buffers)
    if (Name != R.MainFile) {
      llvm::errs() << "soaview-translate: error: " << Name
                   << " holds converted code too; soaview-translate writes "
                      "only the main file. Compile with soaview-clang++, or "
                      "move the annotated loop into the main file\n";
      return 1;
    }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Out, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "soaview-translate: cannot write " << Out << ": "
                 << EC.message() << "\n";
    return 1;
  }
  OS << Text;
  return 0;
}
