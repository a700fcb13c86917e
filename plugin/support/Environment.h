//===- Environment.h - the environment variables the plugin reads -*- C++
//-*-===//
//
// Every variable the plugin reads is named once, here, and read through
// envValue(); no other file calls getenv (the runtime's own table is
// runtime/src/options.cpp): docs/options.md (SOAVIEW_CONVERT) and
// docs/testing.md (SOAVIEW_DIAG_COVERAGE) say what they do.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SUPPORT_ENVIRONMENT_H
#define SOAVIEW_SUPPORT_ENVIRONMENT_H

#include <cstdlib>

namespace soaview {

enum class EnvVar {
  Convert,      ///< SOAVIEW_CONVERT: the `convert` setting, for a whole build
  DiagCoverage, ///< SOAVIEW_DIAG_COVERAGE: where -verify compiles record
                ///< the diagnostics they checked (tools/check-diagnostics.py)
};

inline const char *envName(EnvVar V) {
  switch (V) {
  case EnvVar::Convert:
    return "SOAVIEW_CONVERT";
  case EnvVar::DiagCoverage:
    return "SOAVIEW_DIAG_COVERAGE";
  }
  return "";
}

/// The variable's value; null when it is unset or empty.
inline const char *envValue(EnvVar V) {
  const char *Value = std::getenv(envName(V));
  return Value && *Value ? Value : nullptr;
}

} // namespace soaview

#endif
