//===- CodeWriter.h - how generated code is written --------------*- C++
//-*-===//
//
// All code soaview generates is written through these two tools, so that
// the source shows the shape of what it writes:
//  * fill(): a fragment with named holes, `${Name}`:
//      fill("auto &&${P}range = ${Range};", {{"P", Prefix}, {"Range", R}})
//    Every hole must be given and every value used (a typo is a bug, not
//    text in the output). `$` never occurs in the C++ soaview writes.
//  * CodeWriter: lines at an indentation the writer keeps (two spaces per
//    level), blocks that open and close it, preprocessor lines at column 0,
//    and text copied as it is (user code with its #line directives).
// Tests: test/Unit/plugin_test.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_CODEWRITER_H
#define SOAVIEW_CODEWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <initializer_list>
#include <string>
#include <utility>

namespace soaview {

/// A value for a named hole of fill().
using Hole = std::pair<llvm::StringRef, llvm::StringRef>;

/// Pattern with each `${Name}` replaced by the value of the hole Name.
std::string fill(llvm::StringRef Pattern, std::initializer_list<Hole> Holes);

class CodeWriter {
public:
  /// Levels: the indentation of the first line, in levels of two spaces.
  explicit CodeWriter(unsigned Levels = 0) : Indent(2 * Levels) {}

  /// One line at the current indentation.
  CodeWriter &line(llvm::StringRef Text);
  /// A preprocessor line, at column 0.
  CodeWriter &directive(llvm::StringRef Text);
  /// Text as it is: no indentation, no newline.
  CodeWriter &raw(llvm::StringRef Text);
  /// `Head {`, Body one level in, then `}` followed by Tail (`;`, ` name;`).
  CodeWriter &block(llvm::StringRef Head,
                    llvm::function_ref<void(CodeWriter &)> Body,
                    llvm::StringRef Tail = "");
  /// A constructor: its signature, the member initialisers (`: a(x),` two
  /// levels in, the next ones aligned under the first), then its body one
  /// level in.
  CodeWriter &constructor(llvm::StringRef Signature,
                          llvm::ArrayRef<std::string> Inits,
                          llvm::function_ref<void(CodeWriter &)> Body);
  /// A statement spread over lines: First, then each of Rest one level in
  /// after Joint (`+ `), then End after the last.
  CodeWriter &spread(llvm::StringRef First, llvm::ArrayRef<std::string> Rest,
                     llvm::StringRef Joint, llvm::StringRef End);
  /// One level in (or out) for the lines that follow.
  CodeWriter &in() {
    Indent += 2;
    return *this;
  }
  CodeWriter &out() {
    Indent -= 2;
    return *this;
  }

  const std::string &str() const { return Text; }
  std::string take() { return std::move(Text); }

private:
  std::string pad(unsigned Extra = 0) const {
    return std::string(Indent + Extra, ' ');
  }
  unsigned Indent;
  std::string Text;
};

} // namespace soaview

#endif
