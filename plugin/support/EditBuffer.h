//===- EditBuffer.h - text edits that keep user line numbers ---*- C++ -*-===//
//
// Collects replacements on one file and produces the rewritten text. When a
// replacement spans lines, a #line directive (and indentation up to the
// original column) follows it, so every character of user code keeps its
// original line and column for diagnostics and debug info.
// Tests: test/Rewrite/line-numbers.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_EDITBUFFER_H
#define SOAVIEW_EDITBUFFER_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace soaview {

class EditBuffer {
public:
  EditBuffer(std::string PresumedName, llvm::StringRef Original)
      : Name(std::move(PresumedName)), Text(Original.str()) {}

  /// Replaces [Begin, End) by Replacement; returns false (and counts a
  /// conflict) when the range overlaps an earlier edit's. Edits at one
  /// offset (insertions, and a replacement starting there) apply in order
  /// of Priority, lowest first, then in the order they were added.
  bool replace(unsigned Begin, unsigned End, std::string Replacement,
               int Priority = 0);
  bool insert(unsigned At, std::string S, int Priority = 0) {
    return replace(At, At, std::move(S), Priority);
  }

  bool empty() const { return Edits.empty(); }
  /// An edit overlaps [Begin, End).
  bool edited(unsigned Begin, unsigned End) const;
  /// Edits refused because they overlapped an earlier one (a soaview bug).
  unsigned conflicts() const { return Conflicts; }
  /// The rewritten text (computed once, after all edits were added).
  const std::string &result();
  /// Offset in result() of the character at Offset in the original.
  unsigned mapOffset(unsigned Offset);
  /// The inverse: the offset in the original of the character at Offset in
  /// result(). Inside inserted text (Generated set) it is the offset where
  /// the insertion was made.
  unsigned originalOffset(unsigned NewOffset, bool &Generated);

  const std::string &original() const { return Text; }
  /// 1-based line and column of Offset in the original.
  std::pair<unsigned, unsigned> lineCol(unsigned Offset) const;
  const std::string &presumedName() const { return Name; }

private:
  struct Edit {
    unsigned Begin, End;
    std::string Text;
    int Priority;
    unsigned Seq;
  };
  struct Anchor {
    unsigned OrigBegin, OrigEnd, NewBegin, NewEnd;
  };

  std::string Name;
  std::string Text;
  std::vector<Edit> Edits;
  std::vector<Anchor> Anchors;
  std::string Result;
  bool Done = false;
  unsigned Conflicts = 0;
};

} // namespace soaview

#endif
