//===- LoopPrologue.h - what opens before an annotated loop ------*- C++
//-*-===//
//
// The block that opens before a rewritten loop (or before the loop its view
// is hoisted out of): the loop's range (a range or iterator loop) or bounds
// (an index loop), its site and the frame that gathers its view; and, for
// the outer loop of a pair nest over pointers, the nest as written when the
// range holds an object twice. Part of the loop rewrite (emit/Loops.h).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_LOOPPROLOGUE_H
#define SOAVIEW_LOOPPROLOGUE_H

#include "emit/CodeWriter.h"
#include "emit/EmitContext.h"

#include <string>

namespace soaview {

/// The names of a binding loop's bindings in generated code: `sv_b<k>`, or
/// the user's own for all but the element's (KeepUsers).
std::string bindingNames(const LoopForm &F, const std::string &Prefix,
                         bool KeepUsers);

class LoopPrologue {
public:
  explicit LoopPrologue(EmitContext &Emit) : Emit(Emit) {}

  /// The prologue before `for`: the block's opening, the range or bounds,
  /// the site and the frame (of type Frame) that gathers the view.
  void prologue(CodeWriter &W, const LoopPlan &P,
                const std::string &Frame) const;
  /// The nest as written, run when the frame finds an object twice.
  void repeatsFallback(CodeWriter &W, const LoopPlan &P, bool InRegion) const;

private:
  void rangePrologue(CodeWriter &W, const LoopPlan &P) const;
  std::string iteratorBegin(const LoopForm &F) const;
  std::string iteratorEnd(const LoopForm &F) const;
  void indexPrologue(CodeWriter &W, const LoopPlan &P,
                     const std::string &Frame) const;
  std::string firstSubscript(const LoopForm &F,
                             const std::string &Prefix) const;

  EmitContext &Emit;
};

} // namespace soaview

#endif
