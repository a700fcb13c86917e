//===- Arguments.h - the plugin's arguments and environment -----*- C++ -*-===//
//
// One table of soaview's settings: the plugin's arguments
// (-fplugin-arg-soaview-NAME[=VALUE]), the same settings as soaview-translate
// flags (--NAME[=VALUE]) and the environment variable the plugin reads
// (SOAVIEW_CONVERT). Parsing, the errors for unknown arguments and values,
// and the tools' --help text all come from it; docs/options.md lists the
// same settings. Tests: test/Sema/plugin-arguments.cpp,
// test/Rewrite/help-version.test.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_ARGUMENTS_H
#define SOAVIEW_ARGUMENTS_H

#include "driver/Options.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace soaview {

/// Applies one plugin argument, NAME or NAME=VALUE, to O. The error to
/// report when soaview does not know the argument or its value.
std::optional<Msg> applyArgument(llvm::StringRef Arg, Options &O);

/// soaview-translate's --NAME[=VALUE] for the settings it shares with the
/// plugin (all but dump and the test hooks): false when NAME is not one of
/// them; else Err is the error, if any.
bool applyTranslateFlag(llvm::StringRef Flag, Options &O,
                        std::optional<Msg> &Err);

/// Reads SOAVIEW_CONVERT into O (empty or unset: no change). The error for
/// a value soaview does not know.
std::optional<Msg> applyEnvironment(Options &O);

/// --help text: one line per setting, spelled Prefix + NAME[=VALUES]
/// ("-fplugin-arg-soaview-" or "--"); Translate: only those
/// soaview-translate takes.
std::string settingsHelp(llvm::StringRef Prefix, bool Translate);

/// --help text: the environment variables, compile time and run time.
std::string environmentHelp();

/// One entry of --help text: "  NAME    Help", the help wrapped after
/// column 34.
std::string helpLine(llvm::StringRef Name, llvm::StringRef Help);

} // namespace soaview

#endif
