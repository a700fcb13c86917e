//===- SourceText.h - the user's text as generated code copies it -*- C++
//-*-===//
//
// Generated code copies user code (loop headers, callees into clones,
// member functions into views) and edits the copies: the text of a range,
// a range's text with edits applied, the #line directive that keeps a copy
// at the user's positions, and the places around statements and loops that
// edits anchor to.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SOURCETEXT_H
#define SOAVIEW_SOURCETEXT_H

#include "forms/Forms.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"

#include <string>
#include <utility>
#include <vector>

namespace soaview {

/// Replacements of ranges of a copied text.
using TextEdits = std::vector<std::pair<clang::CharSourceRange, std::string>>;

class SourceText {
public:
  SourceText(const clang::SourceManager &SM, const clang::LangOptions &Lang)
      : SM(SM), Lang(Lang) {}

  std::string text(clang::CharSourceRange R) const;
  /// The source text of an expression (of a loop header).
  std::string exprText(const clang::Expr *E) const;
  /// The characters of D, from its first to its last token.
  clang::CharSourceRange declRange(const clang::Decl *D) const;
  /// R's text with Edits applied (each inside R; later ones first).
  std::string withEdits(clang::CharSourceRange R, TextEdits Edits) const;
  /// `#line` back to L's line, then indentation up to its column: text
  /// copied from L keeps the user's positions in diagnostics.
  std::string lineDirective(clang::SourceLocation L) const;
  /// R's text with every `[[clang::soa_conversion...]]` turned into a
  /// comment: a copy as written, plain code.
  std::string plainCopy(clang::CharSourceRange R) const;
  /// `file.cpp:20:3`, as sites and comments name a loop.
  std::string where(clang::SourceLocation L) const;
  /// The edit dropping FD's qualifier (`void ns::f(` becomes `void f(`),
  /// for copies declared inside the namespace or class itself.
  void unqualify(const clang::FunctionDecl *FD, TextEdits &Edits) const;
  /// Position after the statement's last character (including its ';').
  clang::SourceLocation afterStmt(const clang::Stmt *S) const;
  /// Position after the token at End, and after a `;` that follows it.
  clang::SourceLocation afterSemi(clang::SourceLocation End) const;
  /// The `)` closing the loop's header.
  static clang::SourceLocation rparen(const LoopForm &F);
  /// The `(` opening the header of the loop whose `for` is at ForLoc.
  clang::SourceLocation lparen(clang::SourceLocation ForLoc) const;
  /// True when L lies in [R.begin, R.end).
  bool inside(clang::SourceLocation L, clang::CharSourceRange R) const;
  /// The file position of the last token of something ending at L: for a
  /// macro expansion, its end (the `)` of `SQ(x)`), not its start.
  clang::SourceLocation fileEnd(clang::SourceLocation L) const {
    return L.isMacroID() ? SM.getExpansionRange(L).getEnd() : L;
  }
  unsigned offset(clang::SourceLocation L) const { return SM.getFileOffset(L); }

private:
  const clang::SourceManager &SM;
  const clang::LangOptions &Lang;
};

} // namespace soaview

#endif
