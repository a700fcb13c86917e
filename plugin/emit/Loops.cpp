//===- Loops.cpp - the rewrite of one annotated loop ----------------------===//
#include "emit/Loops.h"

#include "emit/Keys.h"
#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace soaview {

namespace {

/// Edits at one offset are ordered by priority, lowest first (EditBuffer).
/// A view hoisted n levels out opens its block before those of views built
/// nearer the loop, at the same place, and closes it after theirs.
int opensAt(unsigned HoistLevels) { return -(int)HoistLevels; }
int closesAt(unsigned HoistLevels) { return (int)HoistLevels; }
/// The call of a lambda body starts after the loop's own prologue.
constexpr int AfterPrologue = 1;

constexpr llvm::StringLiteral Continue = "continue";

} // namespace

std::string LoopEmitter::specType(const LoopPlan &P) const {
  if (!P.InTemplate)
    return Emit.Names.qualifiedView(P) + "_spec";
  const LoopForm &F = P.Form;
  std::string Element =
      F.Kind != LoopFormKind::Index
          ? fill("${ElementOf}<decltype(${P}range)>",
                 {{"ElementOf", rt::ElementOf}, {"P", Emit.Names.prefix(P)}})
          : fill("${TargetElement}<decltype(${Target})>",
                 {{"TargetElement", rt::TargetElement},
                  {"Target", P.NondependentRange
                                 ? Emit.Names.prefix(P) + "target"
                                 : F.TargetName}});
  std::string Key =
      P.Keyed ? ", (" + instanceKeyPattern(P.Form.Function) + " *)nullptr" : "";
  return fill("decltype(${Selector}((${Element} *)nullptr${Key}))",
              {{"Selector", Emit.Names.selector(P)},
               {"Element", Element},
               {"Key", Key}});
}

void LoopEmitter::commentAttribute(const LoopAnnotation &Annotation,
                                   EditBuffer &Buffer) const {
  if (Annotation.Implicit)
    return; // annotate=all: nothing written
  CharSourceRange Written = CharSourceRange::getCharRange(
      Annotation.Written.getBegin(),
      Annotation.Written.getEnd().getLocWithOffset(1));
  std::string Text = Emit.Source.text(Written);
  for (size_t I; (I = Text.find("[[")) != std::string::npos;)
    Text.replace(I, 2, "/*");
  for (size_t I; (I = Text.find("]]")) != std::string::npos;)
    Text.replace(I, 2, "*/");
  Buffer.replace(Emit.Source.offset(Written.getBegin()),
                 Emit.Source.offset(Written.getEnd()), Text);
}

std::string LoopEmitter::elementDecls(const LoopPlan &P,
                                      const std::string &ViewInit) const {
  return Headers.elementDecls(P, ViewInit);
}

LoopText LoopEmitter::loopText(const NestPlan &Nest, const LoopPlan &P) const {
  const LoopForm &F = P.Form;
  if (P.WalksViewOf)
    return Headers.pairLoop(Nest, P, Nest.Loops[*P.WalksViewOf]);
  std::string Spec = specType(P);
  bool Scatter = !(F.Kind == LoopFormKind::Range && F.VarIsCopy);
  std::string Args = Spec + (Scatter ? "" : ", false");
  // Offloaded views gather into pinned host memory (fast device copies).
  std::string Frame = Emit.onDevice(P) ? Emit.Target.runtime().DeviceNamespace +
                                             rt::HostFrame + "<" + Args + ">"
                      : P.Packed
                          ? std::string(rt::PackedFrame) + "<" + Spec + ">"
                          : std::string(rt::Frame) + "<" + Args + ">";
  // A host loop over pointers that writes its elements picks each
  // element's slot through the frame's repeat map (remap), an indirection
  // that keeps the compiler from vectorising the loop. Its body becomes a
  // lambda that each() of the frame's slots calls with the slot: directly
  // indexed when the range holds no element twice. The slots are a local
  // copy, so that a hoisted loop's overlap checks leave the loops around. Not
  // for a loop around a loop with a run-time trip count (the outer loop of a
  // nest): the compiler would not vectorise it, and each() would only compile
  // its body twice.
  const bool EachSlot =
      !Emit.onDevice(P) && F.Kind == LoopFormKind::Range && !F.ElementBinding &&
      (F.VarIsPointer || F.Wrapped) && Scatter && P.View.writes() &&
      !hasRuntimeLoop(F.Body, Emit.Ast) && bodyFitsLambda(F.Body);
  LoopText T = Emit.onDevice(P) ? Headers.deviceLoop(Nest, P, Spec)
                                : Headers.hostLoop(P, EachSlot);
  CodeWriter W;
  Prologue.prologue(W, P, Frame);
  if (EachSlot) // a value: kept in registers through the loops around
    W.line(fill("const auto ${P}slots = ${P}frame.slots();",
                {{"P", Emit.Names.prefix(P)}}));
  if (P.RepeatsRunAsWritten) // hostLoop adds no prologue of its own here
    Prologue.repeatsFallback(W, P, Nest.InRegion);
  T.Prologue = W.take() + T.Prologue;
  return T;
}

/// The header replaces `(...)`, or with a lambda body `for (...)` (the call
/// starts after the prologue); the prologue goes before the loop, or before
/// the loop a hoisted view is built before. A hoisted view lives until that
/// loop ends; its block opens before (and closes after) the blocks of the
/// loops in between.
void LoopEmitter::placeHeader(const LoopPlan &P, const LoopText &T,
                              EditBuffer &Buffer) const {
  const LoopForm &F = P.Form;
  SourceLocation For = P.Annotation->ForLoc;
  if (!T.Header.empty()) {
    unsigned RParenEnd = Emit.Source.offset(SourceText::rparen(F)) + 1;
    if (T.LambdaBody)
      Buffer.replace(Emit.Source.offset(For), RParenEnd, T.Header,
                     AfterPrologue);
    else
      Buffer.replace(Emit.Source.offset(Emit.Source.lparen(For)), RParenEnd,
                     T.Header);
  }
  SourceLocation PrologueAt =
      P.HoistTo ? Emit.SM.getFileLoc(P.HoistTo->getBeginLoc()) : For;
  if (!T.Prologue.empty()) // a pair loop has none
    Buffer.insert(Emit.Source.offset(PrologueAt), T.Prologue,
                  opensAt(P.HoistLevels));
  std::string Prefix = Emit.Names.prefix(P);
  auto Rename = [&](const DeclRefExpr *U, StringRef To) {
    unsigned Begin = Emit.Source.offset(Emit.SM.getFileLoc(U->getLocation()));
    Buffer.replace(Begin, Begin + (unsigned)F.TargetName.size(),
                   (Prefix + To).str());
  };
  for (const DeclRefExpr *U : F.ShadowedUses)
    Rename(U, "target");
  for (const LoopForm::OriginalUse &U : F.OriginalUses)
    Rename(U.Name, "elements");
}

/// The view's declarations at the top of the body, and the blocks' (and a
/// lambda's call's) ends after it.
void LoopEmitter::placeBody(const LoopPlan &P, const LoopText &T,
                            EditBuffer &Buffer) const {
  const Stmt *Body = P.Form.Body;
  std::string Close = P.HoistTo || P.WalksViewOf ? "" : " }";
  if (T.LambdaBody) // the lambda and the call end after the body
    Close = ");" + Close;
  openBody(P.Form, T.BodyDecls, Buffer);
  if (!Close.empty())
    Buffer.insert(Emit.Source.offset(Emit.Source.afterStmt(Body)), Close);
  if (T.LambdaBody)
    continueEdits(P, Buffer);
  if (P.HoistTo)
    Buffer.insert(Emit.Source.offset(Emit.Source.afterStmt(P.HoistTo)), " }",
                  closesAt(P.HoistLevels));
}

/// The view's declarations open the body on the line of the loop's header:
/// the body's first statement keeps a line of its own (a `#line` puts it
/// back at its place when it shared the header's line).
void LoopEmitter::openBody(const LoopForm &F, const std::string &Decls,
                           EditBuffer &Buffer) const {
  const Stmt *Body = F.Body;
  auto Line = [&](SourceLocation L) {
    return Emit.SM.getPresumedLineNumber(Emit.SM.getFileLoc(L));
  };
  if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
    SourceLocation Next =
        CS->body_empty() ? CS->getRBracLoc() : CS->body_front()->getBeginLoc();
    bool OwnLine = Line(Next) != Line(CS->getLBracLoc());
    Buffer.insert(Emit.Source.offset(CS->getLBracLoc()) + 1,
                  Decls + (OwnLine ? "" : "\n"));
    return;
  }
  SourceLocation RParen = SourceText::rparen(F);
  SourceLocation Begin = Emit.SM.getFileLoc(Body->getBeginLoc());
  if (Line(Begin) != Line(RParen))
    Buffer.insert(Emit.Source.offset(RParen) + 1, " {" + Decls);
  else
    Buffer.insert(Emit.Source.offset(Begin), "{" + Decls + "\n");
  Buffer.insert(Emit.Source.offset(Emit.Source.afterStmt(Body)), " }");
}

void LoopEmitter::bodyEdits(const LoopPlan &P, EditBuffer &Buffer) const {
  const SourceManager &SM = Emit.SM;
  const Stmt *Body = P.Form.Body;
  SourceLocation BodyEnd = Emit.Source.afterStmt(Body);
  TextEdits Edits;
  Emit.identityEdits(
      CharSourceRange::getCharRange(Body->getBeginLoc(), BodyEnd), P.Identities,
      Edits);
  for (auto &[R, Text] : Edits) {
    Buffer.insert(SM.getFileOffset(R.getBegin()),
                  std::string(rt::Identity) + "(");
    Buffer.insert(SM.getFileOffset(R.getEnd()), ")");
  }
  TextEdits Unqualified;
  Emit.unqualifyEdits(
      CharSourceRange::getCharRange(Body->getBeginLoc(), BodyEnd), P.Qualified,
      Unqualified);
  for (auto &[R, Text] : Unqualified)
    Buffer.replace(SM.getFileOffset(R.getBegin()), SM.getFileOffset(R.getEnd()),
                   "");
  // `T &e = r` of a reference wrapper `r`: `auto &e = r.get()`.
  for (const Expr *R : P.Form.WrapperConversions)
    Buffer.insert(SM.getFileOffset(Lexer::getLocForEndOfToken(
                      SM.getFileLoc(R->getEndLoc()), 0, SM, Emit.Lang)),
                  ".get()");
  for (const VarDecl *V : P.View.Aliases) {
    if (!SM.isBeforeInTranslationUnit(Body->getBeginLoc(), V->getLocation()) ||
        !SM.isBeforeInTranslationUnit(V->getLocation(), BodyEnd))
      continue;
    if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
      CharSourceRange Type =
          recordTypeRange(TSI->getTypeLoc(), P.View.Element, SM, Emit.Lang);
      if (Type.isValid())
        Buffer.replace(SM.getFileOffset(Type.getBegin()),
                       SM.getFileOffset(Type.getEnd()), "auto");
    }
  }
}

void LoopEmitter::continueEdits(const LoopPlan &P, EditBuffer &Buffer) const {
  for (const ContinueStmt *C : findLoopJumps(P.Form.Body).Continues) {
    unsigned Begin = Emit.Source.offset(Emit.SM.getFileLoc(C->getBeginLoc()));
    Buffer.replace(Begin, Begin + Continue.size(), "return");
  }
}

bool LoopEmitter::emit(const NestPlan &Nest, const LoopPlan &P) {
  EditBuffer *Buffer = Emit.Files.bufferFor(P.Annotation->ForLoc);
  if (!Buffer)
    return false;
  commentAttribute(*P.Annotation, *Buffer);
  LoopText T = loopText(Nest, P);
  placeHeader(P, T, *Buffer);
  placeBody(P, T, *Buffer);
  bodyEdits(P, *Buffer);
  return true;
}

} // namespace soaview
