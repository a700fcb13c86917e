//===- EditBuffer.cpp - text edits that keep user line numbers ------------===//
#include "support/EditBuffer.h"

#include <algorithm>

namespace soaview {

bool EditBuffer::replace(unsigned Begin, unsigned End, std::string R,
                         int Priority) {
  for (const Edit &E : Edits) {
    bool Overlap = Begin < E.End && E.Begin < End;
    if (Overlap) {
      ++Conflicts;
      return false;
    }
  }
  Edits.push_back({Begin, End, std::move(R), Priority, (unsigned)Edits.size()});
  Done = false;
  return true;
}

bool EditBuffer::edited(unsigned Begin, unsigned End) const {
  return std::any_of(Edits.begin(), Edits.end(), [&](const Edit &E) {
    return Begin < E.End && E.Begin < End;
  });
}

std::pair<unsigned, unsigned> EditBuffer::lineCol(unsigned Offset) const {
  unsigned Line = 1, LineStart = 0;
  for (unsigned I = 0; I < Offset && I < Text.size(); ++I)
    if (Text[I] == '\n') {
      ++Line;
      LineStart = I + 1;
    }
  return {Line, Offset - LineStart + 1};
}

static std::string quoted(llvm::StringRef S) {
  std::string R = "\"";
  for (char C : S) {
    if (C == '\\' || C == '"')
      R += '\\';
    R += C;
  }
  return R + "\"";
}

const std::string &EditBuffer::result() {
  if (Done)
    return Result;
  std::vector<Edit> Sorted = Edits;
  // Seq makes the order total: std::sort is stable here.
  std::sort(Sorted.begin(), Sorted.end(), [](const Edit &A, const Edit &B) {
    if (A.Begin != B.Begin)
      return A.Begin < B.Begin;
    if (A.Priority != B.Priority)
      return A.Priority < B.Priority;
    return A.Seq < B.Seq;
  });
  Result.clear();
  Anchors.clear();
  unsigned Pos = 0;
  for (const Edit &Change : Sorted) {
    Result.append(Text, Pos, Change.Begin - Pos);
    unsigned NewBegin = Result.size();
    Result += Change.Text;
    if (Change.Text.find('\n') != std::string::npos) {
      auto [Line, Col] = lineCol(Change.End);
      if (!Result.empty() && Result.back() != '\n')
        Result += '\n';
      Result += "#line " + std::to_string(Line) + " " + quoted(Name) + "\n";
      Result.append(Col - 1, ' ');
    }
    Anchors.push_back(
        {Change.Begin, Change.End, NewBegin, (unsigned)Result.size()});
    Pos = Change.End;
  }
  Result.append(Text, Pos, std::string::npos);
  Done = true;
  return Result;
}

unsigned EditBuffer::mapOffset(unsigned Offset) {
  result();
  long Delta = 0;
  for (const Anchor &A : Anchors) {
    if (Offset < A.OrigBegin)
      break;
    if (Offset < A.OrigEnd)
      return A.NewBegin;
    Delta = (long)A.NewEnd - (long)A.OrigEnd;
  }
  return (unsigned)((long)Offset + Delta);
}

unsigned EditBuffer::originalOffset(unsigned NewOffset, bool &Generated) {
  result();
  Generated = false;
  long Delta = 0;
  for (const Anchor &A : Anchors) {
    if (NewOffset < A.NewBegin)
      break;
    if (NewOffset < A.NewEnd) {
      Generated = true;
      return A.OrigBegin;
    }
    Delta = (long)A.NewEnd - (long)A.OrigEnd;
  }
  return (unsigned)((long)NewOffset - Delta);
}

} // namespace soaview
