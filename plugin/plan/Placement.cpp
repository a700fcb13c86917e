//===- Placement.cpp - where the generated code of a loop goes ------------===//
#include "plan/Placement.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <optional>

#include <functional>

using namespace clang;

namespace soaview {

/// The declaration at namespace scope whose source holds Point, or the
/// namespace holding Point between declarations.
static const Decl *declarationAt(ASTContext &Ctx, SourceLocation Point) {
  SourceManager &SM = Ctx.getSourceManager();
  SourceLocation POI = SM.getFileLoc(Point);
  const Decl *Best = nullptr;
  std::function<void(const DeclContext *)> Walk = [&](const DeclContext *DC) {
    for (const Decl *C : DC->decls()) {
      if (C->isImplicit())
        continue;
      SourceRange R = C->getSourceRange();
      if (R.isInvalid())
        continue;
      SourceLocation B = SM.getFileLoc(R.getBegin()),
                     End = SM.getFileLoc(R.getEnd());
      if (SM.isBeforeInTranslationUnit(POI, B) ||
          SM.isBeforeInTranslationUnit(End, POI))
        continue;
      Best = C;
      if (isa<NamespaceDecl>(C) || isa<LinkageSpecDecl>(C))
        Walk(cast<DeclContext>(C));
      return;
    }
  };
  Walk(Ctx.getTranslationUnitDecl());
  return Best;
}
static bool inTemplateSource(const Decl *D);

/// Whether Clang instantiates Fn where its type is first needed, during the
/// parse, rather than at the end of the translation unit: a specialization
/// whose return type is deduced from its body (`template <class F> auto
/// f(F)`). Clang records no point of instantiation for it. (A lambda's call
/// operator is placed by the function holding the lambda.)
static bool instantiatedWhereUsed(const FunctionDecl *Fn) {
  const FunctionDecl *Pattern = Fn->getTemplateInstantiationPattern();
  const auto *MD = dyn_cast<CXXMethodDecl>(Fn);
  return Pattern && Pattern->getReturnType()->getContainedDeducedType() &&
         !(MD && MD->getParent()->isLambda());
}

namespace {

/// The references to one function in the translation unit (instantiations
/// included), each with the function it lies in.
class ReferenceFinder : public RecursiveASTVisitor<ReferenceFinder> {
public:
  explicit ReferenceFinder(const FunctionDecl *Fn)
      : Target(Fn->getCanonicalDecl()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Enclosing.push_back(FD);
    bool Continue = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Enclosing.pop_back();
    return Continue;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    see(E->getDecl(), E->getExprLoc());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    see(E->getMemberDecl(), E->getExprLoc());
    return true;
  }

  struct Reference {
    SourceLocation Loc;
    const FunctionDecl *In; ///< null at namespace scope
  };
  std::vector<Reference> References;

private:
  void see(const Decl *D, SourceLocation L) {
    if (D && D->getCanonicalDecl() == Target)
      References.push_back({L, Enclosing.empty() ? nullptr : Enclosing.back()});
  }
  const Decl *Target;
  std::vector<const FunctionDecl *> Enclosing;
};

} // namespace

static SmallVector<SourceLocation, 4>
placingPoints(ASTContext &Ctx, const FunctionDecl *Fn, unsigned Depth = 0);

/// Where Fn, instantiated where it is first used (instantiatedWhereUsed),
/// is instantiated: the earliest of its references that lies outside any
/// template's source, or, for a reference in the body of another
/// instantiation, where that one is instantiated (at most a few levels
/// deep). Invalid when none is known.
static SourceLocation firstUse(ASTContext &Ctx, const FunctionDecl *Fn,
                               unsigned Depth) {
  SourceManager &SM = Ctx.getSourceManager();
  ReferenceFinder Finder(Fn);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  SourceLocation First;
  auto Consider = [&](SourceLocation L) {
    const Decl *D = declarationAt(Ctx, L);
    if (!D || isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D) ||
        inTemplateSource(D))
      return false;
    if (First.isInvalid() ||
        SM.isBeforeInTranslationUnit(SM.getFileLoc(L), SM.getFileLoc(First)))
      First = L;
    return true;
  };
  for (const ReferenceFinder::Reference &R : Finder.References) {
    if (Consider(R.Loc) || !R.In || !R.In->getTemplateInstantiationPattern())
      continue;
    for (SourceLocation Outer : placingPoints(Ctx, R.In, Depth + 1))
      if (Consider(Outer))
        break;
  }
  return First;
}

/// The points of instantiation that may place the views of a loop in Fn,
/// innermost first: Fn's own, then those of the functions and class
/// template specializations Fn is nested in. Fn has none of its own when it
/// is a lambda's call operator, or a function or member function with a
/// deduced return type, instantiated when its type was needed: for the
/// latter, the first reference to it stands for its point of instantiation.
static SmallVector<SourceLocation, 4>
placingPoints(ASTContext &Ctx, const FunctionDecl *Fn, unsigned Depth) {
  SmallVector<SourceLocation, 4> Points;
  if (Fn->getPointOfInstantiation().isValid())
    Points.push_back(Fn->getPointOfInstantiation());
  else if (Depth < 4 && instantiatedWhereUsed(Fn))
    if (SourceLocation Use = firstUse(Ctx, Fn, Depth); Use.isValid())
      Points.push_back(Use);
  for (const DeclContext *DC = Fn->getParent(); DC; DC = DC->getParent()) {
    SourceLocation Outer;
    if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
      Outer = FD->getPointOfInstantiation();
      if (Outer.isInvalid() && Depth < 4 && instantiatedWhereUsed(FD))
        Outer = firstUse(Ctx, FD, Depth);
    } else if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(DC))
      Outer = CTS->getPointOfInstantiation();
    if (Outer.isValid())
      Points.push_back(Outer);
  }
  return Points;
}

/// A point inside a template's own source (a use in another template's
/// body) says nothing about where the instantiation happens.
static bool inTemplateSource(const Decl *D) {
  return isa<RedeclarableTemplateDecl>(D) ||
         isa<ClassTemplatePartialSpecializationDecl>(D) || D->isTemplated();
}

/// Calls Step with each raw token of From's file from From on, until it
/// returns false or the file ends.
template <class StepFn>
static void forTokens(ASTContext &Ctx, SourceLocation From, StepFn Step) {
  const SourceManager &SM = Ctx.getSourceManager();
  FileID File = SM.getFileID(From);
  StringRef Buffer = SM.getBufferData(File);
  Lexer L(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(),
          Buffer.begin() + SM.getFileOffset(From), Buffer.end());
  Token Tok;
  do
    L.LexFromRawLexer(Tok);
  while (Tok.isNot(tok::eof) && Step(Tok));
}

/// The first token in [From, Limit) of one file that starts a construct:
/// not a `;`, not in a preprocessor directive. Invalid if none.
static SourceLocation constructStart(ASTContext &Ctx, SourceLocation From,
                                     SourceLocation Limit) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Start;
  if (SM.getFileID(From) != SM.getFileID(Limit))
    return Start;
  bool InDirective = false;
  forTokens(Ctx, From, [&](const Token &Tok) {
    if (!SM.isBeforeInTranslationUnit(Tok.getLocation(), Limit))
      return false;
    if (Tok.isAtStartOfLine())
      InDirective = Tok.is(tok::hash);
    if (!InDirective && Tok.isNot(tok::semi))
      Start = Tok.getLocation();
    return Start.isInvalid();
  });
  return Start;
}

/// Just after the `{` that opens a namespace's declarations.
static SourceLocation afterOpeningBrace(ASTContext &Ctx,
                                        const NamespaceDecl *NS) {
  SourceLocation After;
  forTokens(Ctx, Ctx.getSourceManager().getFileLoc(NS->getLocation()),
            [&](const Token &Tok) {
              if (Tok.is(tok::l_brace))
                After = Tok.getEndLoc();
              return After.isInvalid();
            });
  return After;
}

/// Where the declarations in DC end: the namespace's `}`, or the end of the
/// main file.
static SourceLocation scopeEnd(ASTContext &Ctx, const DeclContext *DC) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
    return SM.getFileLoc(NS->getRBraceLoc());
  if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC))
    return SM.getFileLoc(LS->getRBraceLoc());
  return SM.getLocForEndOfFile(SM.getMainFileID());
}

/// Where the declarations in DC start in the main file: after the
/// namespace's `{`, or the main file's start; invalid for a linkage
/// specification.
static SourceLocation scopeStart(ASTContext &Ctx, const DeclContext *DC) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
    return afterOpeningBrace(Ctx, NS);
  if (isa<TranslationUnitDecl>(DC))
    return SM.getLocForStartOfFile(SM.getMainFileID());
  return {};
}

/// Just after the last token of D.
static SourceLocation afterDecl(ASTContext &Ctx, const Decl *D) {
  const SourceManager &SM = Ctx.getSourceManager();
  return Lexer::getLocForEndOfToken(SM.getFileLoc(D->getEndLoc()), 0, SM,
                                    Ctx.getLangOpts());
}

static InsertionPoint before(ASTContext &Ctx, const Decl *D) {
  return {Ctx.getSourceManager().getFileLoc(D->getSourceRange().getBegin()),
          D->getLexicalDeclContext()};
}

/// The end of the main file's code at namespace scope: before its last
/// declaration or, where the file ends with constructs Clang keeps no
/// declaration for (explicit instantiations of functions,
/// `template bool C<M>::f(int);`), before the first of them.
static std::optional<InsertionPoint> endOfMainFile(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const DeclContext *DC = Ctx.getTranslationUnitDecl();
  while (true) {
    const Decl *Last = nullptr;
    for (const Decl *C : DC->decls())
      if (!C->isImplicit() && C->getBeginLoc().isValid() &&
          SM.isInMainFile(SM.getFileLoc(C->getBeginLoc())))
        Last = C;
    // After the last declaration or, where there is none (a file of
    // includes and explicit instantiations), from the scope's start.
    SourceLocation From = Last ? afterDecl(Ctx, Last) : scopeStart(Ctx, DC);
    if (SourceLocation Trailing =
            From.isValid() ? constructStart(Ctx, From, scopeEnd(Ctx, DC))
                           : SourceLocation();
        Trailing.isValid())
      return InsertionPoint{Trailing, DC};
    if (!Last)
      return std::nullopt;
    if (!isa<NamespaceDecl>(Last) && !isa<LinkageSpecDecl>(Last))
      return before(Ctx, Last);
    DC = cast<DeclContext>(Last);
  }
}

/// The start of the construct at namespace scope (in DC) that holds Point
/// but is no declaration: an explicit instantiation.
static SourceLocation undeclaredConstruct(ASTContext &Ctx,
                                          const DeclContext *DC,
                                          SourceLocation Point) {
  const SourceManager &SM = Ctx.getSourceManager();
  Point = SM.getFileLoc(Point);
  SourceLocation From = SM.getLocForStartOfFile(SM.getFileID(Point));
  if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
    if (SourceLocation Open = afterOpeningBrace(Ctx, NS);
        Open.isValid() && SM.getFileID(Open) == SM.getFileID(Point))
      From = Open;
  for (const Decl *C : DC->decls()) {
    if (C->isImplicit() || C->getEndLoc().isInvalid())
      continue;
    SourceLocation End = afterDecl(Ctx, C);
    if (SM.getFileID(End) == SM.getFileID(Point) &&
        SM.isBeforeInTranslationUnit(From, End) &&
        SM.isBeforeInTranslationUnit(End, Point))
      From = End;
  }
  return constructStart(Ctx, From, Point);
}

/// Where the views of instantiations go: before the declaration outside any
/// template source that holds the innermost usable point of instantiation,
/// or before the explicit instantiation that holds it. Where every point
/// lies in template source (the instantiation began in another library
/// template, say a standard type trait), at the end of the main file's
/// code: the function bodies of instantiations are instantiated at the end
/// of the translation unit, and their template arguments are declared by
/// then.
static std::optional<InsertionPoint>
instantiatingPoint(ASTContext &Ctx, const FunctionDecl *Fn) {
  const Decl *Fallback = nullptr;
  for (SourceLocation Point : placingPoints(Ctx, Fn)) {
    const Decl *D = declarationAt(Ctx, Point);
    if (!D || isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D)) {
      const DeclContext *DC =
          D ? cast<DeclContext>(D) : Ctx.getTranslationUnitDecl();
      if (SourceLocation Start = undeclaredConstruct(Ctx, DC, Point);
          Start.isValid())
        return InsertionPoint{Start, DC};
      continue;
    }
    if (!inTemplateSource(D))
      return before(Ctx, D);
    if (!Fallback)
      Fallback = D;
  }
  if (std::optional<InsertionPoint> End = endOfMainFile(Ctx))
    return End;
  if (Fallback)
    return before(Ctx, Fallback);
  return std::nullopt;
}

InsertionPoint viewInsertionPoint(ASTContext &Ctx, const RecognisedLoop &Loop) {
  const Decl *D = Loop.Form.Function;
  if (Loop.InTemplate) {
    // Views of instantiations go before the declaration that instantiates.
    if (std::optional<InsertionPoint> Best =
            instantiatingPoint(Ctx, Loop.Form.Function))
      return *Best;
    if (const FunctionDecl *Pat =
            Loop.Form.Function->getTemplateInstantiationPattern())
      D = Pat;
  }
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate())
      D = FTD;
  while (true) {
    const DeclContext *DC = D->getLexicalDeclContext();
    if (isa<TranslationUnitDecl>(DC) || isa<NamespaceDecl>(DC) ||
        isa<LinkageSpecDecl>(DC))
      return before(Ctx, D);
    D = cast<Decl>(DC);
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
      if (const ClassTemplateDecl *CTD = RD->getDescribedClassTemplate())
        D = CTD;
  }
}

} // namespace soaview
