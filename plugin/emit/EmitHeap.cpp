//===- EmitHeap.cpp - allocation routed to the device heap ----------------===//
//
// The edits that route an offloaded loop's allocation (NestPlan::HeapRoutes,
// found by checks/HeapChecks.cpp) to soaview's device heap, as
// soaview/heap_route.h lists them: the C functions renamed, new placed on
// the heap, delete a call. They go in place (the loop's body and the user
// functions it reaches: host calls of those keep the standard allocation)
// and into the copies soaview makes of code (clones, view methods).
// Tests: test/Rewrite/device-heap.cpp, test/Offload/host-offload.test.
//===----------------------------------------------------------------------===//
#include "emit/EmitImpl.h"

namespace soaview {
using namespace detail;

/// The edits of one route.
void Emitter::Impl::routeEdits(const HeapRoute &H, Edits &Ed) {
  auto At = [&](SourceLocation L) { return SM.getFileLoc(L); };
  auto EndOf = [&](SourceLocation L) {
    return Lexer::getLocForEndOfToken(At(L), 0, SM, LO);
  };
  if (const auto *CE = dyn_cast<CallExpr>(H.E)) {
    const Expr *Callee = CE->getCallee()->IgnoreImplicit();
    Ed.push_back({CharSourceRange::getCharRange(At(Callee->getBeginLoc()),
                                                EndOf(Callee->getEndLoc())),
                  std::string(rt::HeapNamespace) +
                      CE->getDirectCallee()->getName().str()});
  } else if (const auto *NE = dyn_cast<CXXNewExpr>(H.E)) {
    if (NE->getNumPlacementArgs()) { // new (std::nothrow) T
      const Expr *First = NE->getPlacementArg(0);
      const Expr *Last = NE->getPlacementArg(NE->getNumPlacementArgs() - 1);
      Ed.push_back({CharSourceRange::getCharRange(At(First->getBeginLoc()),
                                                  EndOf(Last->getEndLoc())),
                    rt::HeapOnDevice});
      return;
    }
    SourceLocation New = At(NE->getBeginLoc());
    if (NE->isGlobalNew()) // `::new`: the keyword is the next token
      New = Lexer::findNextToken(New, SM, LO)->getLocation();
    SourceLocation After = EndOf(New);
    Ed.push_back({CharSourceRange::getCharRange(After, After),
                  std::string(" (") + rt::HeapOnDevice + ")"});
  } else if (const auto *DE = dyn_cast<CXXDeleteExpr>(H.E)) {
    const Expr *Arg = DE->getArgument();
    Ed.push_back({CharSourceRange::getCharRange(At(DE->getBeginLoc()),
                                                At(Arg->getBeginLoc())),
                  std::string(DE->isArrayForm() ? rt::HeapDeleteArray
                                                : rt::HeapDeleteObject) +
                      "("});
    SourceLocation End = EndOf(Arg->getEndLoc());
    Ed.push_back({CharSourceRange::getCharRange(End, End), ")"});
  }
}

/// The routes' edits that fall in R (text soaview copies).
void Emitter::Impl::heapEdits(CharSourceRange R, Edits &Ed) {
  for (const HeapRoute &H : Routes) {
    SourceLocation B = SM.getFileLoc(H.E->getBeginLoc());
    if (!SM.isBeforeInTranslationUnit(B, R.getBegin()) &&
        SM.isBeforeInTranslationUnit(B, R.getEnd()))
      routeEdits(H, Ed);
  }
}

/// Every route of the nest, in place (once each: template instantiations
/// and nests share the text).
bool Emitter::Impl::routeInPlace() {
  for (const HeapRoute &H : Routes) {
    SourceLocation B = SM.getFileLoc(H.E->getBeginLoc());
    if (!RoutedInPlace.insert(B.getRawEncoding()).second)
      continue;
    EditBuffer *EB = E.bufferFor(B);
    if (!EB)
      return false;
    Edits Ed;
    routeEdits(H, Ed);
    for (auto &[R, T] : Ed) {
      unsigned Bg = SM.getFileOffset(R.getBegin()), En = SM.getFileOffset(R.getEnd());
      if (Bg == En)
        EB->insert(Bg, T);
      else
        EB->replace(Bg, En, T);
    }
  }
  return true;
}

/// The scope around an offloaded loop that allocates: binds the device
/// heap before the launch, reports what ran out after it.
std::string Emitter::Impl::heapScope(const LoopPlan &P, const std::string &Px) {
  if (!P.UsesHeap)
    return "";
  return "  " + std::string(rt::HeapLoopScope) + " " + Px + "heap(" + Px + "site);\n";
}

} // namespace soaview
