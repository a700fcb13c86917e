//===- CodeWriter.cpp - how generated code is written ---------------------===//
#include "emit/CodeWriter.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <vector>

namespace soaview {

std::string fill(llvm::StringRef Pattern, std::initializer_list<Hole> Holes) {
  std::vector<bool> Used(Holes.size());
  std::string Out;
  while (true) {
    size_t At = Pattern.find("${");
    Out += Pattern.substr(0, At).str();
    if (At == llvm::StringRef::npos)
      break;
    size_t End = Pattern.find('}', At);
    if (End == llvm::StringRef::npos)
      llvm::report_fatal_error("soaview: unterminated hole in a fragment");
    llvm::StringRef Name = Pattern.slice(At + 2, End);
    size_t I = 0;
    for (const Hole &H : Holes) {
      if (H.first == Name)
        break;
      ++I;
    }
    if (I == Holes.size())
      llvm::report_fatal_error(llvm::Twine("soaview: fragment hole '") + Name +
                               "' not given");
    Used[I] = true;
    Out += (Holes.begin() + I)->second.str();
    Pattern = Pattern.substr(End + 1);
  }
  for (size_t I = 0; I < Used.size(); ++I)
    if (!Used[I])
      llvm::report_fatal_error(llvm::Twine("soaview: fragment value '") +
                               (Holes.begin() + I)->first + "' unused");
  return Out;
}

CodeWriter &CodeWriter::line(llvm::StringRef Line) {
  Text += pad();
  Text += Line.str();
  Text += '\n';
  return *this;
}

CodeWriter &CodeWriter::directive(llvm::StringRef Line) {
  Text += Line.str();
  Text += '\n';
  return *this;
}

CodeWriter &CodeWriter::raw(llvm::StringRef Raw) {
  Text += Raw.str();
  return *this;
}

CodeWriter &CodeWriter::block(llvm::StringRef Head,
                              llvm::function_ref<void(CodeWriter &)> Body,
                              llvm::StringRef Tail) {
  line(Head.str() + " {");
  in();
  Body(*this);
  out();
  return line("}" + Tail.str());
}

CodeWriter &
CodeWriter::constructor(llvm::StringRef Signature,
                        llvm::ArrayRef<std::string> Inits,
                        llvm::function_ref<void(CodeWriter &)> Body) {
  Text += pad() + Signature.str();
  for (size_t I = 0; I < Inits.size(); ++I)
    Text += (I ? ",\n" + pad(6) : "\n" + pad(4) + ": ") + Inits[I];
  Text += " {\n";
  in();
  Body(*this);
  out();
  return line("}");
}

CodeWriter &CodeWriter::spread(llvm::StringRef First,
                               llvm::ArrayRef<std::string> Rest,
                               llvm::StringRef Joint, llvm::StringRef End) {
  Text += pad() + First.str();
  for (const std::string &R : Rest)
    Text += "\n" + pad(2) + Joint.str() + R;
  Text += End.str() + "\n";
  return *this;
}

} // namespace soaview
