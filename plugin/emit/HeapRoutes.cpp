//===- HeapRoutes.cpp - allocation routed to the device heap --------------===//
#include "emit/HeapRoutes.h"

#include "emit/CodeWriter.h"
#include "emit/RuntimeNames.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace soaview {

/// The edits of one route.
static void routeEdits(const EmitContext &Emit, const HeapRoute &H,
                       TextEdits &Edits) {
  SourceManager &SM = Emit.SM;
  auto At = [&](SourceLocation L) { return SM.getFileLoc(L); };
  auto EndOf = [&](SourceLocation L) {
    return Lexer::getLocForEndOfToken(At(L), 0, SM, Emit.Lang);
  };
  auto Range = [](SourceLocation B, SourceLocation E) {
    return CharSourceRange::getCharRange(B, E);
  };
  if (const auto *CE = dyn_cast<CallExpr>(H.E)) {
    const Expr *Callee = CE->getCallee()->IgnoreImplicit();
    Edits.push_back(
        {Range(At(Callee->getBeginLoc()), EndOf(Callee->getEndLoc())),
         std::string(rt::HeapNamespace) +
             CE->getDirectCallee()->getName().str()});
  } else if (const auto *NE = dyn_cast<CXXNewExpr>(H.E)) {
    if (NE->getNumPlacementArgs()) { // new (std::nothrow) T
      const Expr *First = NE->getPlacementArg(0);
      const Expr *Last = NE->getPlacementArg(NE->getNumPlacementArgs() - 1);
      Edits.push_back(
          {Range(At(First->getBeginLoc()), EndOf(Last->getEndLoc())),
           rt::HeapOnDevice});
      return;
    }
    SourceLocation New = At(NE->getBeginLoc());
    if (NE->isGlobalNew()) // `::new`: the keyword is the next token
      if (std::optional<Token> Keyword =
              Lexer::findNextToken(New, SM, Emit.Lang))
        New = Keyword->getLocation();
    SourceLocation After = EndOf(New);
    Edits.push_back({Range(After, After),
                     fill(" (${OnDevice})", {{"OnDevice", rt::HeapOnDevice}})});
  } else if (const auto *DE = dyn_cast<CXXDeleteExpr>(H.E)) {
    const Expr *Arg = DE->getArgument();
    const char *Delete =
        DE->isArrayForm() ? rt::HeapDeleteArray : rt::HeapDeleteObject;
    Edits.push_back({Range(At(DE->getBeginLoc()), At(Arg->getBeginLoc())),
                     std::string(Delete) + "("});
    SourceLocation End = EndOf(Arg->getEndLoc());
    Edits.push_back({Range(End, End), ")"});
  }
}

void routeEditsIn(const EmitContext &Emit, const std::vector<HeapRoute> &Routes,
                  CharSourceRange R, TextEdits &Edits) {
  for (const HeapRoute &H : Routes)
    if (Emit.Source.inside(Emit.SM.getFileLoc(H.E->getBeginLoc()), R))
      routeEdits(Emit, H, Edits);
}

bool HeapRouter::routeInPlace(const NestPlan &Nest) {
  for (const HeapRoute &H : Nest.heapRoutes()) {
    SourceLocation Begin = Emit.SM.getFileLoc(H.E->getBeginLoc());
    if (!RoutedInPlace.insert(Begin.getRawEncoding()).second)
      continue;
    EditBuffer *Buffer = Emit.Files.bufferFor(Begin);
    if (!Buffer)
      return false;
    TextEdits Edits;
    routeEdits(Emit, H, Edits);
    for (auto &[R, Text] : Edits) {
      unsigned From = Emit.SM.getFileOffset(R.getBegin());
      unsigned To = Emit.SM.getFileOffset(R.getEnd());
      if (From == To)
        Buffer->insert(From, Text);
      else
        Buffer->replace(From, To, Text);
    }
  }
  return true;
}

std::string HeapRouter::loopScope(const LoopPlan &P,
                                  const std::string &Prefix) const {
  if (!P.usesHeap())
    return "";
  return fill("${Scope} ${P}heap(${P}site);",
              {{"Scope", rt::HeapLoopScope}, {"P", Prefix}});
}

} // namespace soaview
