//===- Loops.h - the rewrite of one annotated loop ---------------*- C++
//-*-===//
//
// An annotated loop becomes: a block opening before the loop (or before the
// loop its view is hoisted out of) with the loop's range, its site and the
// frame that gathers its view; a header walking the frame's slots (or a
// lambda the frame calls per slot, or a device launch); the body unchanged,
// opened by the declaration of the element's view under the loop
// variable's name. The block before the loop is emit/LoopPrologue.h, the
// header and the body's declarations emit/LoopHeaders.h; LoopEmitter places
// them. The pieces here are shared with sweeps (emit/Sweeps.cpp).
// docs/generated-code.md shows the result; tests: test/Rewrite/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_LOOPS_H
#define SOAVIEW_LOOPS_H

#include "emit/CodeWriter.h"
#include "emit/EmitContext.h"
#include "emit/HeapRoutes.h"
#include "emit/LoopHeaders.h"
#include "emit/LoopPrologue.h"

namespace soaview {

struct LoopAnnotation;

class LoopEmitter {
public:
  LoopEmitter(EmitContext &Emit, const HeapRouter &Heap)
      : Emit(Emit), Prologue(Emit), Headers(Emit, Heap) {}

  /// Rewrites Nest's loop P (once per loop text).
  bool emit(const NestPlan &Nest, const LoopPlan &P);

  /// The type of P's spec: named, or (in templates) selected by the element
  /// type of the instantiation.
  std::string specType(const LoopPlan &P) const;
  /// The attribute becomes a comment of the same length (an implicit
  /// annotation has no text).
  void commentAttribute(const LoopAnnotation &Annotation,
                        EditBuffer &Buffer) const;
  /// The declarations opening the body: the element's view from ViewInit,
  /// named as the loop variable (range loops) or as the target (index
  /// loops).
  std::string elementDecls(const LoopPlan &P,
                           const std::string &ViewInit) const;
  /// The declarations Decls at the top of the loop's body (braces added
  /// around a body that is not a compound statement).
  void openBody(const LoopForm &F, const std::string &Decls,
                EditBuffer &Buffer) const;
  /// Element addresses compared in the body compare the originals; local
  /// aliases of the element (`Particle &q = *p`) become `auto &q = *p`.
  void bodyEdits(const LoopPlan &P, EditBuffer &Buffer) const;
  /// With a lambda body, `continue` of the loop ends the lambda's call.
  void continueEdits(const LoopPlan &P, EditBuffer &Buffer) const;

private:
  /// The loop's text: its prologue (LoopPrologue) before its header and
  /// body declarations (LoopHeaders).
  LoopText loopText(const NestPlan &Nest, const LoopPlan &P) const;
  void placeHeader(const LoopPlan &P, const LoopText &T,
                   EditBuffer &Buffer) const;
  void placeBody(const LoopPlan &P, const LoopText &T,
                 EditBuffer &Buffer) const;

  EmitContext &Emit;
  LoopPrologue Prologue;
  LoopHeaders Headers;
};

} // namespace soaview

#endif
