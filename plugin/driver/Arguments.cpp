//===- Arguments.cpp - the plugin's arguments and environment -------------===//
#include "driver/Arguments.h"
#include "support/Environment.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdlib>

using namespace llvm;

namespace soaview {

namespace {

enum class Id {
  Remarks,
  Dump,
  Convert,
  Backend,
  DeviceHeap,
  BareKernels,
  Annotate,
  NoWarn,
  BreakGeneratedCode,
  BreakView
};

/// One setting. Values: "a|b|c" for a choice (the first is the default),
/// an upper-case word ("FILE") for a free value, "" for a switch.
// NOLINTNEXTLINE(clang-analyzer-optin.performance.Padding): 10 settings
struct Setting {
  Id What;
  const char *Name;
  const char *Values;
  const char *Help;
  bool Translate; ///< also a soaview-translate flag (--NAME)
  bool Hidden;    ///< a test hook: not in --help
};

const Setting Settings[] = {
    {Id::Remarks, "remarks", "",
     "one remark per annotated loop: the fields of its view, or why it stays "
     "as written",
     true, false},
    {Id::Dump, "dump", "FILE",
     "write the rewritten source to FILE ('-': standard output), creating "
     "its directory",
     false, false},
    {Id::Convert, "convert", "profitable|always|never",
     "which annotated loops convert: those that can pay for their views "
     "(default), every one, or none (soaview off: the source compiles as "
     "written)",
     true, false},
    {Id::Backend, "backend", "openmp|cuda",
     "offloaded loops become OpenMP target regions, or CUDA kernels for nvcc "
     "(the plugin writes them with dump=FILE.cu)",
     true, false},
    {Id::DeviceHeap, "device-heap", "on|off",
     "route allocation in offloaded code to soaview's device heap, or leave "
     "it as written",
     true, false},
    {Id::BareKernels, "bare-kernels", "on|off",
     "OpenMP only: a swept nest whose code uses nothing of OpenMP runs as a "
     "bare kernel, without OpenMP's device runtime (default), or as OpenMP "
     "worksharing",
     true, false},
    {Id::Annotate, "annotate", "written|all",
     "convert the annotated loops, or every loop over structs that can "
     "convert",
     true, false},
    {Id::NoWarn, "no-warn", "FLAG",
     "do not report soaview's warning FLAG (empty-view, region-empty, "
     "never-converts, nothing-offloaded, dynamic-type)",
     true, false},
    {Id::BreakGeneratedCode, "debug-break-generated-code", "", "", false, true},
    {Id::BreakView, "debug-break-view", "LINE", "", false, true},
};

bool isChoice(const Setting &S) { return StringRef(S.Values).contains('|'); }

SmallVector<StringRef, 4> choices(const Setting &S) {
  SmallVector<StringRef, 4> Out;
  StringRef(S.Values).split(Out, '|');
  return Out;
}

/// 'a', 'b' or 'c'.
template <typename Range> std::string quotedChoices(const Range &Values) {
  std::string Out;
  for (size_t I = 0; I < Values.size(); ++I) {
    if (I > 0)
      Out += I + 1 == Values.size() ? " or " : ", ";
    Out += "'" + std::string(Values[I]) + "'";
  }
  return Out;
}

/// NAME, NAME=a|b or NAME=FILE.
std::string spelling(const Setting &S) {
  return std::string(S.Name) + (*S.Values ? "=" : "") + S.Values;
}

/// Every argument the plugin takes, for the unknown-argument error.
std::string argumentList() {
  std::vector<std::string> Spelled;
  for (const Setting &S : Settings)
    if (!S.Hidden)
      Spelled.push_back(spelling(S));
  return quotedChoices(Spelled);
}

const Setting *find(StringRef Name) {
  for (const Setting &S : Settings)
    if (Name == S.Name)
      return &S;
  return nullptr;
}

/// A choice: the value's position among Values.
void applyChoice(Id What, unsigned Index, Options &O) {
  switch (What) {
  case Id::Convert:
    O.Convert = Index == 0   ? ConvertMode::Profitable
                : Index == 1 ? ConvertMode::Always
                             : ConvertMode::Never;
    break;
  case Id::Backend:
    O.Offload = Index == 0 ? BackendKind::OpenMP : BackendKind::Cuda;
    break;
  case Id::DeviceHeap:
    O.DeviceHeap = Index == 0;
    break;
  case Id::BareKernels:
    O.BareKernels = Index == 0;
    break;
  case Id::Annotate:
    O.AnnotateAll = Index == 1;
    break;
  default:
    break;
  }
}

/// A switch or a free value.
std::optional<Msg> applyValue(const Setting &S, StringRef Value, Options &O) {
  switch (S.What) {
  case Id::Remarks:
    O.Remarks = true;
    break;
  case Id::BreakGeneratedCode:
    O.BreakGeneratedCode = true;
    break;
  case Id::Dump:
    O.DumpPath = Value.str();
    break;
  case Id::BreakView:
    if (Value.getAsInteger(10, O.BreakViewLine))
      return Msg(diag::err_plugin_argument_value,
                 {S.Name, Value.str(), "a line number"});
    break;
  case Id::NoWarn:
    if (!isWarningFlag(Value))
      return Msg(diag::err_plugin_no_warn_flag, {Value.str(), warningFlags()});
    O.SilencedWarnings.push_back(Value.str());
    break;
  default:
    break;
  }
  return std::nullopt;
}

std::optional<Msg> apply(const Setting &S, StringRef Arg, Options &O) {
  auto [Name, Value] = Arg.split('=');
  const bool HasValue = Arg.contains('=');
  if (!isChoice(S)) {
    if (HasValue != (*S.Values != 0))
      return Msg(diag::err_plugin_argument, {Arg.str(), argumentList()});
    return applyValue(S, Value, O);
  }
  SmallVector<StringRef, 4> Values = choices(S);
  auto It = llvm::find(Values, Value);
  if (It == Values.end())
    return Msg(diag::err_plugin_argument_value,
               {S.Name, Value.str(), quotedChoices(Values)});
  applyChoice(S.What, unsigned(It - Values.begin()), O);
  return std::nullopt;
}

} // namespace

std::optional<Msg> applyArgument(StringRef Arg, Options &O) {
  const Setting *S = find(Arg.split('=').first);
  if (!S)
    return Msg(diag::err_plugin_argument, {Arg.str(), argumentList()});
  return apply(*S, Arg, O);
}

bool applyTranslateFlag(StringRef Flag, Options &O, std::optional<Msg> &Err) {
  if (!Flag.consume_front("--"))
    return false;
  const Setting *S = find(Flag.split('=').first);
  if (!S || !S->Translate)
    return false;
  Err = apply(*S, Flag, O);
  return true;
}

std::optional<Msg> applyEnvironment(Options &O) {
  const char *E = envValue(EnvVar::Convert);
  if (!E)
    return std::nullopt;
  const Setting &S = *find("convert");
  SmallVector<StringRef, 4> Values = choices(S);
  auto It = llvm::find(Values, StringRef(E));
  if (It == Values.end())
    return Msg(diag::err_environment_value,
               {"SOAVIEW_CONVERT", E, quotedChoices(Values)});
  applyChoice(S.What, unsigned(It - Values.begin()), O);
  return std::nullopt;
}

std::string helpLine(StringRef Name, StringRef Help) {
  std::string Out = "  " + Name.str();
  Out += Out.size() < 34 ? std::string(34 - Out.size(), ' ')
                         : "\n" + std::string(34, ' ');
  size_t Column = 34;
  SmallVector<StringRef, 32> Words;
  Help.split(Words, ' ');
  for (StringRef W : Words) {
    if (Column > 34 && Column + 1 + W.size() > 79) {
      Out += "\n" + std::string(34, ' ');
      Column = 34;
    } else if (Column > 34) {
      Out += ' ';
      ++Column;
    }
    Out += W.str();
    Column += W.size();
  }
  return Out + "\n";
}

std::string settingsHelp(StringRef Prefix, bool Translate) {
  std::string Out;
  for (const Setting &S : Settings)
    if (!S.Hidden && (S.Translate || !Translate))
      Out += helpLine(Prefix.str() + spelling(S), S.Help);
  return Out;
}

std::string environmentHelp() {
  return helpLine("SOAVIEW_CONVERT=profitable|always|never",
                  "compile time: the default of convert= (the argument "
                  "wins); empty or unset: profitable") +
         helpLine("SOAVIEW_STATS=1|2", "run time: per-site statistics of "
                                       "the views at exit (2: with times)") +
         helpLine("SOAVIEW_TRIALS=0",
                  "run time: gated nests decide by size alone") +
         helpLine("SOAVIEW_MAX_BYTES=N",
                  "run time: refuse any single view larger than N bytes") +
         helpLine("SOAVIEW_NO_POOL=1",
                  "run time: allocate the buffers at every call") +
         helpLine("SOAVIEW_OVERLAP=0",
                  "run time: a region's sync waits for every sweep") +
         helpLine("SOAVIEW_DEVICE=N|local",
                  "run time: the device of threads that chose none") +
         helpLine("SOAVIEW_DEVICE_HEAP=N",
                  "run time: size of the device heaps (bytes, K, M, G)") +
         helpLine("SOAVIEW_DIAG_COVERAGE=DIR",
                  "test suite: -verify compiles record the diagnostics they "
                  "report in DIR (tools/check-diagnostics.py)");
}

} // namespace soaview
