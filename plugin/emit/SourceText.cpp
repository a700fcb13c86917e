//===- SourceText.cpp - the user's text as generated code copies it -------===//
#include "emit/SourceText.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace clang;

namespace soaview {

std::string SourceText::text(CharSourceRange R) const {
  return Lexer::getSourceText(R, SM, Lang).str();
}

std::string SourceText::exprText(const Expr *E) const {
  SourceRange R = E->getSourceRange();
  return text(CharSourceRange::getCharRange(
      SM.getFileLoc(R.getBegin()),
      Lexer::getLocForEndOfToken(fileEnd(R.getEnd()), 0, SM, Lang)));
}

CharSourceRange SourceText::declRange(const Decl *D) const {
  SourceRange R = D->getSourceRange();
  return CharSourceRange::getCharRange(
      R.getBegin(), Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, Lang));
}

std::string SourceText::withEdits(CharSourceRange R, TextEdits Edits) const {
  unsigned Begin = SM.getFileOffset(R.getBegin());
  std::string T = text(R);
  // From the end; at one offset a replacement before an insertion, so that
  // the insertion stays in front of what replaces the range.
  llvm::sort(Edits, [&](auto &A, auto &B) {
    unsigned AB = SM.getFileOffset(A.first.getBegin()),
             BB = SM.getFileOffset(B.first.getBegin());
    if (AB != BB)
      return AB > BB;
    return SM.getFileOffset(A.first.getEnd()) >
           SM.getFileOffset(B.first.getEnd());
  });
  // One edit found twice (`S::ua.u0`, with ua in an anonymous union: the
  // qualifier sits on two member expressions) applies once.
  Edits.erase(std::unique(Edits.begin(), Edits.end(),
                          [](auto &A, auto &B) {
                            return A.first.getAsRange() ==
                                       B.first.getAsRange() &&
                                   A.second == B.second;
                          }),
              Edits.end());
  for (auto &[Range, Replacement] : Edits) {
    unsigned From = SM.getFileOffset(Range.getBegin()) - Begin;
    unsigned To = SM.getFileOffset(Range.getEnd()) - Begin;
    if (To <= T.size() && From <= To)
      T.replace(From, To - From, Replacement);
  }
  return T;
}

std::string SourceText::lineDirective(SourceLocation L) const {
  PresumedLoc PL = SM.getPresumedLoc(L);
  return "#line " + std::to_string(PL.getLine()) + " \"" + PL.getFilename() +
         "\"\n" + std::string(PL.getColumn() - 1, ' ');
}

std::string SourceText::plainCopy(CharSourceRange R) const {
  std::string Text = text(R);
  for (size_t I = 0; (I = Text.find("[[", I)) != std::string::npos;) {
    size_t Name = Text.find_first_not_of(" \t", I + 2);
    size_t End = Text.find("]]", I);
    if (Name == std::string::npos || End == std::string::npos)
      break;
    if (!llvm::StringRef(Text).substr(Name).starts_with(
            "clang::soa_conversion")) {
      I += 2;
      continue;
    }
    Text.replace(I, 2, "/*");
    Text.replace(End, 2, "*/");
    I = End + 2;
  }
  return Text;
}

std::string SourceText::where(SourceLocation L) const {
  PresumedLoc PL = SM.getPresumedLoc(L);
  return llvm::sys::path::filename(PL.getFilename()).str() + ":" +
         std::to_string(PL.getLine()) + ":" + std::to_string(PL.getColumn());
}

void SourceText::unqualify(const FunctionDecl *FD, TextEdits &Edits) const {
  if (FD->getQualifierLoc())
    Edits.push_back(
        {CharSourceRange::getCharRange(FD->getQualifierLoc().getBeginLoc(),
                                       FD->getNameInfo().getBeginLoc()),
         ""});
}

SourceLocation SourceText::afterStmt(const Stmt *S) const {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return CS->getRBracLoc().getLocWithOffset(1);
  return afterSemi(fileEnd(S->getEndLoc()));
}

SourceLocation SourceText::afterSemi(SourceLocation End) const {
  SourceLocation Semi = Lexer::findLocationAfterToken(
      End, tok::semi, SM, Lang, /*SkipTrailingWhitespaceAndNewLine=*/false);
  if (Semi.isValid())
    return Semi;
  return Lexer::getLocForEndOfToken(End, 0, SM, Lang);
}

SourceLocation SourceText::rparen(const LoopForm &F) {
  return F.Kind == LoopFormKind::Range
             ? cast<CXXForRangeStmt>(F.Loop)->getRParenLoc()
             : cast<ForStmt>(F.Loop)->getRParenLoc();
}

SourceLocation SourceText::lparen(SourceLocation ForLoc) const {
  std::optional<Token> Paren = Lexer::findNextToken(ForLoc, SM, Lang);
  return Paren ? Paren->getLocation() : ForLoc;
}

bool SourceText::inside(SourceLocation L, CharSourceRange R) const {
  return !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         SM.isBeforeInTranslationUnit(L, R.getEnd());
}

} // namespace soaview
