//===- EmitContext.cpp - what every part of emission shares ---------------===//
#include "emit/EmitContext.h"

#include "emit/HeapRoutes.h"
#include "emit/RuntimeNames.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <set>

using namespace clang;

namespace soaview {

EditBuffer *RewrittenFiles::bufferFor(SourceLocation L) {
  L = SM.getFileLoc(L);
  FileID FID = SM.getFileID(L);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  if (!FE || SM.isInSystemHeader(L))
    return nullptr;
  std::unique_ptr<EditBuffer> &Buffer = Buffers[FE->getName().str()];
  if (!Buffer)
    Buffer = std::make_unique<EditBuffer>(
        SM.getPresumedLoc(SM.getLocForStartOfFile(FID)).getFilename(),
        SM.getBufferData(FID));
  return Buffer.get();
}

EmitContext::EmitContext(ASTContext &Ctx, DiagStore &Diags,
                         const Backend &Target)
    : Ast(Ctx), SM(Ctx.getSourceManager()), Lang(Ctx.getLangOpts()),
      Diags(Diags), Target(Target), Source(SM, Lang), Types(Ctx),
      Names(Ctx, Types.policy()), Files(SM) {}

Msg EmitContext::remark(const LoopPlan &P, const std::string &Where) const {
  auto [In, Out] = P.View.inOutNames();
  ViewSize S = viewSize(Ast, P);
  std::string InPlace;
  for (auto &[Path, A] : P.View.orderedLeaves())
    if (P.InPlace.count(Path))
      InPlace += (InPlace.empty() ? "" : ", ") + dotted(Path);
  if (!InPlace.empty())
    InPlace = "; in the element: {" + InPlace +
              "} (another view of the nest may hold it)";
  return {diag::remark_converted,
          {qualifiedName(Ast, P.View.ElementType), In, Out,
           std::to_string(S.GatherBytes), std::to_string(S.ScatterBytes),
           InPlace + Where}};
}

void EmitContext::identityEdits(CharSourceRange R,
                                const std::vector<const Expr *> &Which,
                                TextEdits &Edits) const {
  for (const Expr *E : Which) {
    SourceLocation Begin = SM.getFileLoc(E->getBeginLoc());
    if (!Source.inside(Begin, R))
      continue;
    CharSourceRange ER = CharSourceRange::getCharRange(
        Begin, Lexer::getLocForEndOfToken(Source.fileEnd(E->getEndLoc()), 0, SM,
                                          Lang));
    Edits.push_back(
        {ER, std::string(rt::Identity) + "(" + Source.text(ER) + ")"});
  }
}

void EmitContext::unqualifyEdits(CharSourceRange R,
                                 const std::vector<const MemberExpr *> &Which,
                                 TextEdits &Edits) const {
  // A body analysed with two bindings lists its members twice, and a member
  // of an anonymous struct (`p->S::s0`) has its qualifier on both member
  // expressions: one edit per qualifier.
  std::set<SourceLocation::UIntTy> Seen;
  for (const MemberExpr *ME : Which) {
    // In a macro's argument (expanded once or more): where it is written;
    // in a macro's definition: refused by the analysis.
    std::optional<CharSourceRange> Q = writtenQualifier(
        SM, ME->getQualifierLoc().getBeginLoc(), ME->getMemberLoc());
    if (Q && Seen.insert(Q->getBegin().getRawEncoding()).second &&
        Source.inside(Q->getBegin(), R))
      Edits.push_back({*Q, ""});
  }
}

void EmitContext::tableEdits(const std::vector<const DeclRefExpr *> &Which,
                             TextEdits &Edits,
                             std::optional<CharSourceRange> R) const {
  std::set<SourceLocation::UIntTy> Seen;
  for (const DeclRefExpr *E : Which) {
    SourceLocation Begin = E->getBeginLoc();
    if (Begin.isMacroID() || (R && !Source.inside(Begin, *R)) ||
        !Seen.insert(Begin.getRawEncoding()).second)
      continue; // in a macro: checks/CudaChecks.cpp refused it
    CharSourceRange Ref = CharSourceRange::getCharRange(
        Begin, Lexer::getLocForEndOfToken(E->getEndLoc(), 0, SM, Lang));
    std::string Text = Target.declarations().tableReference(
        Source.text(Ref),
        Names.qualifiedDeviceTable(cast<VarDecl>(E->getDecl())));
    if (!Text.empty())
      Edits.push_back({Ref, Text});
  }
}

void EmitContext::copyEdits(const NestPlan &Nest, CharSourceRange R,
                            TextEdits &Edits) const {
  tableEdits(Nest.tableRefs(), Edits, R);
  identityEdits(R, Nest.identities(), Edits);
  routeEditsIn(*this, Nest.heapRoutes(), R, Edits);
}

} // namespace soaview
