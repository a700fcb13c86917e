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
  llvm::errs() << "usage: soaview-translate FILE [-o OUT] [--remarks] [--no-warn=FLAG] "
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

/// The command line: FILE, the options before `--`, compile flags after.
struct Args {
  std::string File, Out = "-", DepFile;
  soaview::Options Opts;
  std::vector<std::string> Flags;
  bool Report = false, Help = false;
};

bool parseArgs(int argc, const char **argv, Args &A) {
  A.Opts.ReportInFirstPass = true;
  A.Opts.Profitability = soaview::profitabilityFromEnvironment();
  bool SawDashes = false;
  for (int I = 1; I < argc; ++I) {
    StringRef S(argv[I]);
    if (SawDashes)
      A.Flags.push_back(S.str());
    else if (S == "--")
      SawDashes = true;
    else if (S == "-o" && I + 1 < argc)
      A.Out = argv[++I];
    else if (S == "--report")
      A.Report = true;
    else if (S == "--remarks")
      A.Opts.Remarks = true;
    else if (S == "--convert=always" || S == "--convert=profitable")
      A.Opts.Profitability = S == "--convert=profitable";
    else if (S == "--depfile" && I + 1 < argc)
      A.DepFile = argv[++I];
    else if (S == "--backend=cuda" || S == "--backend=openmp")
      A.Opts.Offload = S == "--backend=cuda" ? soaview::BackendKind::Cuda
                                             : soaview::BackendKind::OpenMP;
    else if (S.consume_front("--no-warn="))
      A.Opts.SilencedWarnings.push_back(S.str());
    else if (S == "-h" || S == "--help")
      A.Help = true;
    else if (!S.starts_with("-") && A.File.empty())
      A.File = S.str();
    else
      return false;
  }
  return A.Help || !A.File.empty();
}

/// The paper's Table 1, per converted loop (and template instantiation).
void printReport(const soaview::PassResult &R) {
  const char *H[] = {"loop", "element", "|in|", "gather B", "|out|",
                     "scatter B", "hoist", "offload", "converted"};
  llvm::outs() << llvm::format("%-32s %-14s %6s %9s %6s %9s %6s %8s  %s\n", H[0],
                               H[1], H[2], H[3], H[4], H[5], H[6], H[7], H[8]);
  for (const soaview::ReportRow &Row : R.Report)
    llvm::outs() << llvm::format(
        "%-32s %-14s %6u %9llu %6u %9llu %6u %8s  %s\n", Row.Where.c_str(),
        Row.Element.c_str(), Row.InFields, (unsigned long long)Row.GatherBytes,
        Row.OutFields, (unsigned long long)Row.ScatterBytes, Row.Hoist,
        Row.Offload ? "yes" : "no",
        Row.Converted ? "yes" : "no (visits each element once)");
}

/// Writes the translated main file (the file unchanged when nothing was
/// converted) to Out.
int writeTranslation(const soaview::PassResult &R, const Args &A) {
  for (auto &[Name, B] : R.Buffers)
    if (Name != R.MainFile) {
      llvm::errs() << "soaview-translate: error: " << Name
                   << " holds converted code too; soaview-translate writes "
                      "only the main file. Compile with soaview-clang++, or "
                      "move the annotated loop into the main file\n";
      return 1;
    }
  std::string Text;
  auto It = R.Buffers.find(R.MainFile);
  if (It != R.Buffers.end()) {
    Text = It->second->result();
  } else {
    auto Buf = llvm::MemoryBuffer::getFile(A.File);
    if (!Buf) {
      llvm::errs() << "soaview-translate: cannot read " << A.File << "\n";
      return 1;
    }
    Text = (*Buf)->getBuffer().str();
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(A.Out, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "soaview-translate: cannot write " << A.Out << ": "
                 << EC.message() << "\n";
    return 1;
  }
  OS << Text;
  return 0;
}

} // namespace

int main(int argc, const char **argv) {
  soaview::registerAttributes();
  Args A;
  if (!parseArgs(argc, argv, A))
    return usage();
  if (A.Help) {
    usage();
    return 0;
  }
  A.Flags.push_back("-resource-dir=" SOAVIEW_RESOURCE_DIR);
  A.Flags.push_back("-isystem" SOAVIEW_RUNTIME_INCLUDE);
  A.Flags.push_back("-Wno-unknown-attributes");
  if (!A.DepFile.empty()) {
    A.Flags.push_back("-MD");
    A.Flags.push_back("-MF" + A.DepFile);
    A.Flags.push_back("-MT" + A.Out);
  }
  tooling::FixedCompilationDatabase DB(".", A.Flags);
  tooling::ClangTool Tool(DB, {A.File});
  // ClangTool's default adjusters drop dependency-file flags: keep them.
  Tool.clearArgumentsAdjusters();
  Tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  soaview::PassResult R;
  Factory F(A.Opts, R);
  if (Tool.run(&F) != 0 || R.ParseFailed || (R.Diags && R.Diags->hasErrors()))
    return 1;
  if (A.Report) {
    printReport(R);
    return 0;
  }
  return writeTranslation(R, A);
}
