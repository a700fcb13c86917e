//===- LoopHeaders.h - the header and body declarations of a loop *- C++
//-*-===//
//
// What replaces a rewritten loop's header: a walk over the frame's slots
// (on the host), a lambda the frame's slots call per slot, or a walk over
// device buffers (an offloaded loop's launch, with the device frame before
// it); and the declarations that open its body, the element's view under
// the loop variable's name. Part of the loop rewrite (emit/Loops.h).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_LOOPHEADERS_H
#define SOAVIEW_LOOPHEADERS_H

#include "emit/EmitContext.h"
#include "emit/HeapRoutes.h"

#include <string>

namespace soaview {

/// The text of one rewritten loop: the prologue before it, the header
/// that replaces `(...)` (with a lambda body: `for (...)`), and the
/// declarations that open its body.
struct LoopText {
  std::string Prologue, Header, BodyDecls;
  bool LambdaBody = false;
};

class LoopHeaders {
public:
  LoopHeaders(EmitContext &Emit, const HeapRouter &Heap)
      : Emit(Emit), Heap(Heap) {}

  /// An offloaded loop, or the inner loop of one: the device frame, then
  /// the walk over its buffers.
  LoopText deviceLoop(const NestPlan &Nest, const LoopPlan &P,
                      const std::string &Spec) const;
  /// A loop on the host, over the frame's slots (EachSlot: a lambda that
  /// each() of the slots calls).
  LoopText hostLoop(const LoopPlan &P, bool EachSlot) const;
  /// A symmetric pair loop, over the frame of the loop around it.
  LoopText pairLoop(const NestPlan &Nest, const LoopPlan &P,
                    const LoopPlan &OuterLoop) const;
  /// The declarations opening the body: the element's view from ViewInit,
  /// named as the loop variable (range loops) or as the target (index
  /// loops).
  std::string elementDecls(const LoopPlan &P,
                           const std::string &ViewInit) const;

private:
  EmitContext &Emit;
  const HeapRouter &Heap;
};

} // namespace soaview

#endif
