//===- soaview-translate.cpp - write the converted source -----------------===//
//
//   soaview-translate FILE [-o OUT] [--remarks] [--backend=openmp|cuda]
//                     [--convert=always|profitable] [--depfile DEP]
//                     [--device-heap=on|off] [--annotate=all|written]
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
// --output-dir DIR writes the main file and every header soaview rewrote,
// mirroring the include tree (paths below the main file's directory or the
// -I directory each header was found in); system headers are never
// rewritten. Compile DIR's main file with -iquote DIR before the usual flags.
// Tests: test/Rewrite/translate.cpp.
//===----------------------------------------------------------------------===//
#include "driver/Action.h"
#include "driver/Arguments.h"
#include "frontend/Annotations.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <set>

using namespace clang;

namespace {

int usage() {
  llvm::errs()
      << "usage: soaview-translate FILE [-o OUT] [options] -- <compile flags>\n"
         "       soaview-translate --report FILE -- <compile flags>\n"
         "soaview-translate --help lists the options\n";
  return 2;
}

/// soaview's version and the LLVM it is built against.
std::string version(StringRef Tool) {
  return std::string("soaview " SOAVIEW_VERSION " (") + Tool.str() +
         "), built with LLVM " LLVM_VERSION_STRING "\n";
}

/// Where the documentation is: <prefix>/share/doc/soaview next to an
/// installed bin/soaview-translate, else the source tree's docs/.
std::string docsDir(const char *Argv0);

int help(const char *Argv0) {
  llvm::outs()
      << version("soaview-translate")
      << "Writes the source that soaview's plugin compiles, for compilers "
         "that cannot load\nthe plugin; compile it with $(soaview-config "
         "--cxxflags) and link $(soaview-config\n--ldflags).\n\n"
         "usage: soaview-translate FILE [-o OUT] [options] -- <compile "
         "flags>\n"
         "       soaview-translate --report FILE -- <compile flags>\n\n"
         "Options:\n"
      << soaview::helpLine("-o OUT", "write the translation to OUT ('-': "
                                     "standard output, the default), "
                                     "creating its directory")
      << soaview::helpLine("--output-dir DIR",
                           "write the main file and every rewritten header "
                           "below DIR, mirroring the include tree")
      << soaview::helpLine("--depfile DEP", "write the files the output "
                                            "depends on to DEP (Make syntax)")
      << soaview::helpLine("--report", "print one row per annotated loop: "
                                       "fields, bytes, hoisting, offloading")
      << soaview::helpLine("--help-plugin", "print the plugin's arguments "
                                            "and the environment variables")
      << soaview::helpLine("--help, --version", "print this, or the version")
      << "\nSettings (the plugin's -fplugin-arg-soaview-NAME):\n"
      << soaview::settingsHelp("--", /*Translate=*/true) << "\nEnvironment:\n"
      << soaview::environmentHelp() << "\nDocumentation: " << docsDir(Argv0)
      << "/options.md, getting-started.md\n";
  return 0;
}

/// soaview-clang++ --help shows these.
int helpPlugin(const char *Argv0) {
  llvm::outs() << "Plugin arguments:\n"
               << soaview::settingsHelp("-fplugin-arg-soaview-",
                                        /*Translate=*/false)
               << "\nEnvironment:\n"
               << soaview::environmentHelp()
               << "\nDocumentation: " << docsDir(Argv0)
               << "/options.md, getting-started.md\n";
  return 0;
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
  std::string File, Out = "-", DepFile, OutDir;
  soaview::Options Opts;
  std::vector<std::string> Flags;
  bool Report = false;
  enum { Translate, Help, HelpPlugin, Version } Action = Translate;
};

/// soaview-translate's own flags (those not shared with the plugin).
bool ownFlag(int argc, const char **argv, int &I, Args &A) {
  StringRef S(argv[I]);
  bool HasNext = I + 1 < argc;
  if (S == "-o" && HasNext)
    A.Out = argv[++I];
  else if (S == "--output-dir" && HasNext)
    A.OutDir = argv[++I];
  else if (S.consume_front("--output-dir=") && !S.empty())
    A.OutDir = S.str();
  else if (S == "--depfile" && HasNext)
    A.DepFile = argv[++I];
  else if (S == "--report")
    A.Report = true;
  else if (S == "-h" || S == "--help")
    A.Action = Args::Help;
  else if (S == "--help-plugin")
    A.Action = Args::HelpPlugin;
  else if (S == "--version")
    A.Action = Args::Version;
  else if (!S.starts_with("-") && A.File.empty())
    A.File = S.str();
  else
    return false;
  return true;
}

/// Parses the command line into A: 0, or the exit status after reporting
/// what is wrong.
int parseArgs(int argc, const char **argv, Args &A) {
  A.Opts.ReportInFirstPass = true;
  A.Opts.CommentLeftAttributes = true;
  std::optional<soaview::Msg> Err = soaview::applyEnvironment(A.Opts);
  for (int I = 1; I < argc && !Err; ++I) {
    if (StringRef(argv[I]) == "--") {
      A.Flags.assign(argv + I + 1, argv + argc);
      break;
    }
    if (!soaview::applyTranslateFlag(argv[I], A.Opts, Err) &&
        !ownFlag(argc, argv, I, A))
      return usage();
  }
  if (Err) {
    llvm::errs() << "soaview-translate: error: " << Err->text() << "\n";
    return 2;
  }
  return A.Action != Args::Translate || !A.File.empty() ? 0 : usage();
}

/// The report's last column: whether, or when, the loop runs converted.
std::string convertedColumn(const soaview::ReportRow &Row) {
  if (!Row.Converted)
    return "no (visits each element once)";
  if (!Row.GatePairs)
    return "yes";
  const std::string K = std::to_string(Row.GatePairs),
                    N = std::to_string(2 * Row.GatePairs);
  return "when its ranges give " + K +
         " pairs per element gathered (a square nest from " + N + " x " + N +
         ")";
}

/// [Radtke2025]'s Table 1, per converted loop (and template instantiation).
void printReport(const soaview::PassResult &R) {
  const char *H[] = {"loop",      "element", "|in|",    "gather B", "|out|",
                     "scatter B", "hoist",   "offload", "converted"};
  llvm::outs() << llvm::format("%-32s %-14s %6s %9s %6s %9s %6s %8s  %s\n",
                               H[0], H[1], H[2], H[3], H[4], H[5], H[6], H[7],
                               H[8]);
  for (const soaview::ReportRow &Row : R.Report)
    llvm::outs() << llvm::format(
        "%-32s %-14s %6u %9llu %6u %9llu %6u %8s  %s\n", Row.Where.c_str(),
        Row.Element.c_str(), Row.InFields, (unsigned long long)Row.GatherBytes,
        Row.OutFields, (unsigned long long)Row.ScatterBytes, Row.Hoist,
        Row.Offload ? "yes" : "no", convertedColumn(Row).c_str());
}

/// The main file as the compile saw it (the command line's when the parse
/// stopped before naming it).
const std::string &mainFile(const soaview::PassResult &R, const Args &A) {
  return R.MainFile.empty() ? A.File : R.MainFile;
}

/// Where the main file's translation goes: -o, else DIR/<its name> with
/// --output-dir, else standard output ("-").
std::string mainOutput(const Args &A) {
  if (A.Out != "-" || A.OutDir.empty())
    return A.Out;
  return A.OutDir + "/" + llvm::sys::path::filename(A.File).str();
}

/// Writes Text to Path, creating Path's directory (none for a bare file
/// name: the current directory).
bool writeFile(StringRef Path, StringRef Text) {
  StringRef Dir = llvm::sys::path::parent_path(Path);
  if (std::error_code EC = Dir.empty()
                               ? std::error_code()
                               : llvm::sys::fs::create_directories(Dir)) {
    llvm::errs() << "soaview-translate: cannot create the directory of " << Path
                 << ": " << EC.message() << "\n";
    return false;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "soaview-translate: cannot write " << Path << ": "
                 << EC.message() << "\n";
    return false;
  }
  OS << Text;
  return true;
}

/// The text of File after conversion: its rewritten buffer, or the file.
std::optional<std::string> translated(const soaview::PassResult &R,
                                      const std::string &File) {
  auto It = R.Buffers.find(File);
  if (It != R.Buffers.end())
    return It->second->result();
  auto Buf = llvm::MemoryBuffer::getFile(File);
  if (!Buf) {
    llvm::errs() << "soaview-translate: cannot read " << File << "\n";
    return std::nullopt;
  }
  return (*Buf)->getBuffer().str();
}

std::string absolute(StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

/// The directories a rewritten header may be mirrored from, best first:
/// the main file's directory, then the -I and -iquote directories.
std::vector<std::string> includeRoots(const Args &A) {
  std::vector<std::string> Roots{
      absolute(llvm::sys::path::parent_path(absolute(A.File)))};
  for (size_t I = 0; I < A.Flags.size(); ++I) {
    StringRef F = A.Flags[I];
    if ((F == "-I" || F == "-iquote") && I + 1 < A.Flags.size())
      Roots.push_back(absolute(A.Flags[++I])); // -I DIR
    else if ((F.consume_front("-iquote") || F.consume_front("-I")) &&
             !F.empty())
      Roots.push_back(absolute(F)); // -IDIR
  }
  return Roots;
}

/// File's paths below each root that holds it (none: it cannot be
/// mirrored). A header under both the main file's directory and an -I
/// directory below it is reachable by either spelling, so it is written at
/// both.
std::set<std::string> mirrored(StringRef File,
                               const std::vector<std::string> &Roots) {
  std::string Abs = absolute(File);
  std::set<std::string> Rels;
  for (const std::string &Root : Roots) {
    StringRef Rel(Abs);
    if (Rel.consume_front(Root) && Rel.consume_front("/"))
      Rels.insert(Rel.str());
  }
  return Rels;
}

/// --output-dir: the main file and every rewritten header, at their paths
/// below the main file's directory or the include directory they were
/// found in. Compiled with -iquote DIR ahead of the original flags, the
/// rewritten headers replace the originals.
int writeTree(const soaview::PassResult &R, const Args &A) {
  std::vector<std::string> Roots = includeRoots(A);
  std::vector<std::pair<std::string, std::string>> Out; // path, text
  for (auto &[Name, B] : R.Buffers) {
    if (Name == R.MainFile)
      continue;
    std::set<std::string> Rels = mirrored(Name, Roots);
    if (Rels.empty()) {
      llvm::errs() << "soaview-translate: error: " << Name
                   << " holds converted code but lies outside the main file's "
                      "directory and the -I directories; add its directory "
                      "with -I so that --output-dir can mirror it\n";
      return 1;
    }
    for (const std::string &Rel : Rels)
      Out.push_back({Rel, B->result()});
  }
  auto Main = translated(R, mainFile(R, A));
  if (!Main)
    return 1;
  if (!writeFile(mainOutput(A), *Main))
    return 1;
  for (auto &[Rel, Text] : Out)
    if (!writeFile(A.OutDir + "/" + Rel, Text))
      return 1;
  return 0;
}

/// Writes the translated main file (the file unchanged when nothing was
/// converted) to Out; with --output-dir, rewritten headers too.
int writeTranslation(const soaview::PassResult &R, const Args &A) {
  if (!A.OutDir.empty())
    return writeTree(R, A);
  for (auto &[Name, B] : R.Buffers)
    if (Name != R.MainFile) {
      llvm::errs()
          << "soaview-translate: error: " << Name
          << " holds converted code too; write the rewritten headers "
             "with --output-dir DIR, or compile with soaview-clang++\n";
      return 1;
    }
  auto Text = translated(R, mainFile(R, A));
  if (!Text)
    return 1;
  if (A.Out == "-") {
    llvm::outs() << *Text;
    return 0;
  }
  return writeFile(A.Out, *Text) ? 0 : 1;
}

} // namespace

/// The runtime's headers: <prefix>/include next to an installed
/// bin/soaview-translate, else those of the source tree it was built from.
std::string runtimeInclude(const char *Argv0) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&runtimeInclude));
  llvm::SmallString<256> Inc(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Inc, "include");
  llvm::SmallString<256> Probe(Inc);
  llvm::sys::path::append(Probe, "soaview", "soaview.h");
  if (!Exe.empty() && llvm::sys::fs::exists(Probe))
    return std::string(Inc);
  return SOAVIEW_RUNTIME_INCLUDE;
}

namespace {
std::string docsDir(const char *Argv0) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&runtimeInclude));
  llvm::SmallString<256> Docs(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Docs, "share", "doc", "soaview");
  if (!Exe.empty() && llvm::sys::fs::exists(Docs + "/options.md"))
    return std::string(Docs);
  return SOAVIEW_DOCS_DIR;
}

} // namespace

int main(int argc, const char **argv) {
  soaview::registerAttributes();
  Args A;
  if (int Status = parseArgs(argc, argv, A))
    return Status;
  if (A.Action == Args::Help)
    return help(argv[0]);
  if (A.Action == Args::HelpPlugin)
    return helpPlugin(argv[0]);
  if (A.Action == Args::Version) {
    llvm::outs() << version("soaview-translate");
    return 0;
  }
  llvm::sys::fs::file_status Input;
  if (std::error_code EC = llvm::sys::fs::status(A.File, Input)) {
    llvm::errs() << "soaview-translate: error: cannot read '" << A.File
                 << "': " << EC.message() << "\n";
    return 1;
  }
  A.Flags.push_back("-resource-dir=" SOAVIEW_RESOURCE_DIR);
  A.Flags.push_back("-isystem" + runtimeInclude(argv[0]));
  A.Flags.push_back("-Wno-unknown-attributes");
  if (!A.DepFile.empty()) {
    A.Flags.push_back("-MD");
    A.Flags.push_back("-MF" + A.DepFile);
    A.Flags.push_back("-MT" + mainOutput(A));
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
