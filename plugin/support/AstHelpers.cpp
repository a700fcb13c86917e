//===- AstHelpers.cpp - AST questions every stage asks --------------------===//
#include "support/AstHelpers.h"
#include "support/Ancestors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace soaview {

PrintingPolicy qualifiedPolicy(const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  Policy.FullyQualifiedName = true;
  Policy.SuppressUnwrittenScope = true;
  return Policy;
}

std::string qualifiedName(const ASTContext &Ctx, QualType T) {
  return TypeName::getFullyQualifiedName(T, Ctx, qualifiedPolicy(Ctx));
}

std::string writtenText(const ASTContext &Ctx, SourceRange R) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Chars = CharSourceRange::getTokenRange(
      SM.getFileLoc(R.getBegin()), SM.getFileLoc(R.getEnd()));
  std::string Text;
  for (char C : Lexer::getSourceText(Chars, SM, Ctx.getLangOpts())) {
    bool Space = C == ' ' || C == '\t' || C == '\n' || C == '\r';
    if (!Space)
      Text += C;
    else if (!Text.empty() && Text.back() != ' ')
      Text += ' ';
  }
  constexpr size_t Longest = 60;
  if (Text.size() > Longest)
    Text = Text.substr(0, Longest - 3) + "...";
  return Text;
}

/// C is a specialization of the class template whose pattern is Pattern.
static bool specializes(const CXXRecordDecl *C, const CXXRecordDecl *Pattern) {
  const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(C);
  return S &&
         S->getSpecializedTemplate()->getTemplatedDecl()->getCanonicalDecl() ==
             Pattern->getCanonicalDecl();
}

bool isElementOrBase(const RecordDecl *RD, const CXXRecordDecl *Element) {
  if (!RD)
    return false;
  if (RD->getCanonicalDecl() == Element->getCanonicalDecl())
    return true;
  const auto *CRD = dyn_cast<CXXRecordDecl>(RD);
  if (!CRD)
    return false;
  if (!CRD->getDescribedClassTemplate()) // a class (or specialization)
    return Element->isDerivedFrom(CRD);
  // A class template's own name in its members' text (`Base::r`).
  if (specializes(Element, CRD))
    return true;
  return !Element->forallBases(
      [&](const CXXRecordDecl *Base) { return !specializes(Base, CRD); });
}

/// True when P is a node the set Skip looks through.
static bool looksThrough(const Stmt *P, unsigned Skip) {
  if (isa<ParenExpr>(P))
    return Skip & Through::Parens;
  if (isa<MaterializeTemporaryExpr>(P) || isa<CXXBindTemporaryExpr>(P))
    return Skip & Through::Temporaries;
  const auto *Cast = dyn_cast<CastExpr>(P);
  if (!Cast)
    return false;
  CastKind K = Cast->getCastKind();
  bool Implicit = isa<ImplicitCastExpr>(Cast);
  if ((Skip & Through::ImplicitCasts) && Implicit)
    return true;
  if ((Skip & Through::NoOpCasts) && Implicit && K == CK_NoOp)
    return true;
  return (Skip & Through::ValueCasts) && K != CK_LValueToRValue &&
         K != CK_ArrayToPointerDecay;
}

const Stmt *parentThrough(ParentMap &PM, const Expr *&E, unsigned Skip) {
  while (true) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(E));
    if (!P || !looksThrough(P, Skip))
      return P;
    E = cast<Expr>(P);
  }
}

const Expr *strip(const Expr *E) {
  return E ? E->IgnoreParenImpCasts() : nullptr;
}

bool refersTo(const Expr *E, const ValueDecl *D) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(E));
  return DRE && DRE->getDecl() == D;
}

const VarDecl *steppedVar(const ForStmt *FS) {
  const Stmt *Init = FS->getInit();
  if (const auto *E = dyn_cast_or_null<Expr>(Init))
    Init = E->IgnoreImplicit();
  const Expr *Assigned = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init))
    return DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                              : nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init))
    Assigned = BO->isAssignmentOp() ? BO->getLHS() : nullptr;
  else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(Init))
    Assigned = OC->getOperator() == OO_Equal ? OC->getArg(0) : nullptr;
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(Assigned));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

bool isLibraryFunction(const SourceManager &SM, const FunctionDecl *FD) {
  return FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation());
}

bool contains(const SourceManager &SM, const Stmt *Outer, const Stmt *Inner) {
  return Outer != Inner &&
         !SM.isBeforeInTranslationUnit(Inner->getBeginLoc(),
                                       Outer->getBeginLoc()) &&
         !SM.isBeforeInTranslationUnit(Outer->getEndLoc(), Inner->getEndLoc());
}

std::optional<CharSourceRange> writtenQualifier(const SourceManager &SM,
                                                SourceLocation QualifierBegin,
                                                SourceLocation Name) {
  if (!QualifierBegin.isMacroID() && !Name.isMacroID())
    return CharSourceRange::getCharRange(QualifierBegin, Name);
  if (!SM.isMacroArgExpansion(QualifierBegin) || !SM.isMacroArgExpansion(Name))
    return std::nullopt;
  SourceLocation B = SM.getSpellingLoc(QualifierBegin),
                 N = SM.getSpellingLoc(Name);
  if (SM.getFileID(B) != SM.getFileID(N) || SM.isWrittenInScratchSpace(B) ||
      !SM.isBeforeInTranslationUnit(B, N))
    return std::nullopt;
  return CharSourceRange::getCharRange(B, N);
}

/// The loop statements around S in its function, innermost first.
std::vector<const Stmt *> enclosingLoops(ASTContext &Ctx, const Stmt *S) {
  std::vector<const Stmt *> R;
  for (const DynTypedNode &N : ancestors(Ctx, *S)) {
    const Stmt *P = N.get<Stmt>();
    if (!P || isa<LambdaExpr>(P))
      break;
    if (isa<ForStmt>(P) || isa<CXXForRangeStmt>(P) || isa<WhileStmt>(P) ||
        isa<DoStmt>(P))
      R.push_back(P);
  }
  return R;
}

/// The parent of E, skipping parentheses and implicit casts, for expressions
/// that ParentMap does not reach (operands of decltype and __typeof__ in a
/// declaration's type).
const Stmt *typeOperandParent(ASTContext &Ctx, const Expr *E) {
  for (const DynTypedNode &N : ancestors(Ctx, *E)) {
    const Stmt *P = N.get<Stmt>();
    if (!P || !(isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P)))
      return P;
  }
  return nullptr;
}

namespace {

bool userAccessor(const CXXMethodDecl *MD);

/// Finds writes to a set of variables inside a statement.
class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  WriteFinder(const llvm::SmallPtrSetImpl<const ValueDecl *> &Vars,
              const AliasTypes *Aliases,
              const llvm::SmallPtrSetImpl<const ValueDecl *> *Selected)
      : Vars(Vars), Aliases(Aliases), SelectedRoots(Selected) {}
  const Expr *Found = nullptr;

  /// The variable an lvalue is part of, looking through element selection
  /// (`v[i]`, `v.front()`) but not into the elements' own fields.
  static const Expr *root(const Expr *E, bool IntoElements = true) {
    while (E) {
      E = strip(E);
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
        E = AS->getBase();
        continue;
      }
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
        if (OC->getOperator() == OO_Subscript) {
          E = OC->getArg(0);
          continue;
        }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
        if (isAccessor(MC) && !(IntoElements && intoElement(MC))) {
          E = MC->getImplicitObjectArgument();
          continue;
        }
      return E;
    }
    return E;
  }
  /// A user's accessor called on an element selected from a container
  /// (`buf[i].mut_x()`, `v.front().x()`): it reaches into the element's
  /// own fields, as `buf[i].x` does, not into the container.
  static bool intoElement(const CXXMemberCallExpr *MC) {
    if (MC->getMethodDecl()->getParent()->isInStdNamespace())
      return false;
    const Expr *Object = strip(MC->getImplicitObjectArgument());
    if (isa<ArraySubscriptExpr>(Object))
      return true;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Object))
      return OC->getOperator() == OO_Subscript;
    const auto *Selected = dyn_cast<CXXMemberCallExpr>(Object);
    return Selected && Selected->getMethodDecl() &&
           Selected->getMethodDecl()->getParent()->isInStdNamespace() &&
           isAccessor(Selected);
  }
  /// Non-const member functions that do not change their object (only give
  /// access to it): those of standard containers named below, and the
  /// user's whose bodies show it (userAccessor).
  static bool isAccessor(const CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getIdentifier())
      return false;
    if (!MD->getParent()->isInStdNamespace())
      return userAccessor(MD);
    static const llvm::StringSet<> Accessors = {
        "front",       "back",        "at",    "data", "begin",
        "end",         "rbegin",      "rend",  "find", "lower_bound",
        "upper_bound", "equal_range", "count", "size", "empty"};
    return Accessors.contains(MD->getName());
  }

  /// Whether E's root, through elements and their accessors, is one of
  /// Selected: an element of it is a container the loop walks.
  bool inSelected(const Expr *E) const {
    if (!SelectedRoots)
      return false;
    const Expr *R = root(E, false);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(R))
      return SelectedRoots->count(DRE->getDecl());
    const auto *ME = dyn_cast_or_null<MemberExpr>(R);
    return ME && SelectedRoots->count(ME->getMemberDecl());
  }

  bool check(const Expr *E) {
    if (E && !Found && root(E, false) != strip(E) && inSelected(E)) {
      Found = E;
      return true;
    }
    const Expr *R = root(E);
    // Writing an element object reached through the container (`buf[i]`
    // passed by reference, a method called on it) changes the element, not
    // the container; writing a pointer slot (`v[k] = q`) changes the
    // container.
    if (!E || Found || (R != strip(E) && E->getType()->isRecordType()))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(R);
        DRE && Vars.count(DRE->getDecl()))
      Found = DRE;
    else if (const auto *ME = dyn_cast<MemberExpr>(R);
             ME && Vars.count(ME->getMemberDecl()))
      Found = ME;
    else if (Aliases && throughAlias(R, R != strip(E)))
      Found = R;
    return true;
  }
  /// R, the object a write changes, may be one of Aliases' types reached
  /// through a pointer or reference: `*p`, `p->` (Selected: an element or
  /// member of R is written, so a pointer R is written through), a
  /// reference variable or member, a call's result.
  bool throughAlias(const Expr *R, bool Selected) const {
    QualType T = R->getType();
    if (T->isPointerType() && Selected)
      return Aliases->count(aliasKey(T->getPointeeType()));
    if (!Aliases->count(aliasKey(T)))
      return false;
    if (const auto *U = dyn_cast<UnaryOperator>(R))
      return U->getOpcode() == UO_Deref;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(R))
      return DRE->getDecl()->getType()->isReferenceType();
    if (const auto *ME = dyn_cast<MemberExpr>(R))
      return ME->isArrow() || ME->getMemberDecl()->getType()->isReferenceType();
    return isa<CallExpr>(R);
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      check(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      check(U->getSubExpr());
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      const Expr *A = C->getArg(I);
      if (auto *OC = dyn_cast<CXXOperatorCallExpr>(C)) {
        if (OC->isAssignmentOp() && I == 0)
          check(A);
        continue;
      }
      if (!FD || I >= FD->getNumParams())
        continue;
      QualType PT = FD->getParamDecl(I)->getType();
      if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
        check(A);
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) {
    const auto *MD = C->getMethodDecl();
    if (!MD || MD->isConst() || isAccessor(C))
      return true;
    const Expr *Object = C->getImplicitObjectArgument();
    const auto *ME = dyn_cast<MemberExpr>(C->getCallee()->IgnoreParens());
    if (ME && ME->isArrow() && Aliases && !Found &&
        throughAlias(strip(Object), true)) // `p->push_back(q)`
      Found = Object;
    check(Object);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->getType()->isReferenceType() &&
        !V->getType().getNonReferenceType().isConstQualified())
      check(V->getInit());
    return true;
  }

private:
  const llvm::SmallPtrSetImpl<const ValueDecl *> &Vars;
  const AliasTypes *Aliases;
  const llvm::SmallPtrSetImpl<const ValueDecl *> *SelectedRoots;
};

/// Counts the uses of `this` in a body, and those that only name a member
/// (`x`, `this->x`, `f()`).
struct ThisUses : RecursiveASTVisitor<ThisUses> {
  unsigned All = 0, Members = 0;
  bool VisitCXXThisExpr(CXXThisExpr *) { return ++All; }
  bool VisitMemberExpr(MemberExpr *ME) {
    Members += isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
    return true;
  }
};

/// Whether Def calls a member function on `this` that may change it.
bool callsOnThis(const FunctionDecl *Def) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) {
      const CXXMethodDecl *MD = C->getMethodDecl();
      const Expr *Object = C->getImplicitObjectArgument();
      Found |= Object && isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) &&
               (!MD || (!MD->isConst() && !WriteFinder::isAccessor(C)));
      return !Found;
    }
  } F;
  F.TraverseStmt(Def->getBody());
  return F.Found;
}

/// A non-const member function of the user's that changes nothing of its
/// object, as its visible body shows: not virtual, writing no field of its
/// class or bases (findWrite: calls of non-const functions on them count),
/// calling only such accessors on `this`, and using `this` only to name
/// members. A container class's `begin() { return objects_.begin(); }`
/// (MercuryDPM's handlers) is one.
bool userAccessor(const CXXMethodDecl *MD) {
  static llvm::SmallPtrSet<const CXXMethodDecl *, 8> InProgress;
  const FunctionDecl *Def = nullptr;
  const CXXRecordDecl *RD = MD->getParent();
  if (MD->isVirtual() || isa<CXXConstructorDecl>(MD) ||
      isa<CXXDestructorDecl>(MD) || !MD->hasBody(Def) || !Def ||
      !RD->hasDefinition() || !InProgress.insert(MD).second)
    return false;
  llvm::SmallPtrSet<const ValueDecl *, 16> Fields;
  auto AddFields = [&](const CXXRecordDecl *C) {
    Fields.insert(C->field_begin(), C->field_end());
    return true;
  };
  AddFields(RD);
  RD->forallBases(AddFields);
  ThisUses Uses;
  Uses.TraverseStmt(Def->getBody());
  bool Accessor = Uses.All == Uses.Members &&
                  !findWrite(Def->getBody(), Fields) && !callsOnThis(Def);
  InProgress.erase(MD);
  return Accessor;
}

} // namespace

const Type *aliasKey(QualType T) {
  return T.getNonReferenceType()
      .getCanonicalType()
      .getUnqualifiedType()
      .getTypePtr();
}

const Expr *
findWrite(const Stmt *S, const llvm::SmallPtrSetImpl<const ValueDecl *> &Vars,
          const AliasTypes *Aliases,
          const llvm::SmallPtrSetImpl<const ValueDecl *> *Selected) {
  WriteFinder Finder(Vars, Aliases, Selected);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  return Finder.Found;
}

LoopJumps findLoopJumps(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    unsigned Loops = 0, Switches = 0; // nested statements owning jumps
    LoopJumps J;
    using Base = RecursiveASTVisitor<Finder>;
// Kind is a type in a declaration, Counter a member: no parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define SOAVIEW_NESTED(Kind, Counter)                                          \
  bool Traverse##Kind(Kind *S) {                                               \
    ++Counter;                                                                 \
    bool R = Base::Traverse##Kind(S);                                          \
    --Counter;                                                                 \
    return R;                                                                  \
  }
    SOAVIEW_NESTED(ForStmt, Loops)
    SOAVIEW_NESTED(CXXForRangeStmt, Loops)
    SOAVIEW_NESTED(WhileStmt, Loops)
    SOAVIEW_NESTED(DoStmt, Loops)
    SOAVIEW_NESTED(SwitchStmt, Switches)
#undef SOAVIEW_NESTED
    // NOLINTEND(bugprone-macro-parentheses)
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitBreakStmt(BreakStmt *S) {
      if (!Loops && !Switches)
        J.Exits.push_back(S);
      return true;
    }
    bool VisitContinueStmt(ContinueStmt *S) {
      if (!Loops)
        J.Continues.push_back(S);
      return true;
    }
    bool VisitReturnStmt(ReturnStmt *S) {
      J.Exits.push_back(S);
      return true;
    }
    bool VisitGotoStmt(GotoStmt *S) {
      J.Exits.push_back(S);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.J;
}

bool copiesAsWritten(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Copies = true;
    bool shouldVisitLambdaBody() const { return true; }
    bool VisitLabelStmt(LabelStmt *) { return Copies = false; }
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->isStaticLocal())
        Copies = false;
      return Copies;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Copies;
}

bool elementBinding(const BindingDecl *B, const SourceManager &SM) {
  if (B->getType().isNull())
    return false;
  QualType T = B->getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  RD = RD ? RD->getDefinition() : nullptr;
  return RD && !RD->isUnion() && !SM.isInSystemHeader(RD->getLocation());
}

bool bodyFitsLambda(const Stmt *Body) {
  if (!findLoopJumps(Body).Exits.empty())
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const Stmt *Body;
    bool Fits = true;
    bool outside(const Decl *D) const {
      return !(Body->getBeginLoc() <= D->getLocation() &&
               D->getLocation() <= Body->getEndLoc());
    }
    bool VisitStmt(Stmt *S) {
      if (isa<CoroutineSuspendExpr>(S) || isa<CoreturnStmt>(S) ||
          isa<PredefinedExpr>(S) || isa<SourceLocExpr>(S) ||
          isa<IndirectGotoStmt>(S))
        Fits = false;
      return Fits;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const ValueDecl *D = E->getDecl();
      if ((isa<BindingDecl>(D) || D->getType()->isVariablyModifiedType()) &&
          outside(D))
        Fits = false;
      return Fits;
    }
  } F;
  F.Body = Body;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Fits;
}

static bool isConstantInt(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  return !E->isValueDependent() && !E->isTypeDependent() &&
         E->isIntegerConstantExpr(Ctx);
}

bool hasRuntimeLoop(const Stmt *Body, const ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ASTContext &Ctx;
    bool Found = false;
    explicit Finder(const ASTContext &C) : Ctx(C) {}
    bool VisitWhileStmt(WhileStmt *) { return !(Found = true); }
    bool VisitDoStmt(DoStmt *) { return !(Found = true); }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
      const Expr *R = S->getRangeInit();
      Found =
          !R || R->isTypeDependent() ||
          !isa<ConstantArrayType>(R->getType()->getUnqualifiedDesugaredType());
      return !Found;
    }
    bool VisitForStmt(ForStmt *S) {
      const auto *C = dyn_cast_or_null<BinaryOperator>(
          S->getCond() ? S->getCond()->IgnoreParenImpCasts() : nullptr);
      Found =
          !C || !C->isComparisonOp() ||
          !(isConstantInt(C->getLHS(), Ctx) || isConstantInt(C->getRHS(), Ctx));
      return !Found;
    }
  } F(Ctx);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

namespace {
/// The innermost type of a declarator's type, through qualifiers,
/// references and pointers.
TypeLoc innermost(TypeLoc TL) {
  while (!TL.isNull()) {
    if (auto Q = TL.getAs<QualifiedTypeLoc>())
      TL = Q.getUnqualifiedLoc();
    else if (auto R = TL.getAs<ReferenceTypeLoc>())
      TL = R.getPointeeLoc();
    else if (auto P = TL.getAs<PointerTypeLoc>())
      TL = P.getPointeeLoc();
    else
      break;
  }
  return TL;
}

/// The characters of TL, where it is written out (not deduced, not from a
/// macro).
CharSourceRange writtenRange(TypeLoc TL, const SourceManager &SM,
                             const LangOptions &LO) {
  if (TL.getType()->getAs<DeducedType>())
    return {};
  SourceRange R = TL.getSourceRange();
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return {};
  return CharSourceRange::getCharRange(
      R.getBegin(), Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO));
}

bool namesRecord(TypeLoc TL, const RecordDecl *Record) {
  const RecordDecl *RD = TL.getType()->getAsRecordDecl();
  return RD && RD->getCanonicalDecl() == Record->getCanonicalDecl();
}
} // namespace

/// Finds the TypeLoc that names Record inside a declarator's type (through
/// references, pointers and qualifiers); returns its character range.
CharSourceRange recordTypeRange(TypeLoc TL, const RecordDecl *Record,
                                const SourceManager &SM,
                                const LangOptions &LO) {
  TL = innermost(TL);
  if (TL.isNull() || !namesRecord(TL, Record))
    return {};
  return writtenRange(TL, SM, LO);
}

} // namespace soaview

namespace soaview {
const DeclRefExpr *findVarUse(const Stmt *S,
                              llvm::function_ref<bool(const VarDecl *)> Which,
                              llvm::ArrayRef<const Stmt *> Skip) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::function_ref<bool(const VarDecl *)> Which;
    llvm::ArrayRef<const Stmt *> Skip;
    const DeclRefExpr *Found = nullptr;
    bool TraverseStmt(Stmt *St) {
      if (Found || (St && llvm::is_contained(Skip, St)))
        return true;
      return RecursiveASTVisitor::TraverseStmt(St);
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *V = dyn_cast<VarDecl>(E->getDecl()); V && Which(V))
        Found = E;
      return !Found;
    }
  } F{{}, Which, Skip};
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}
std::vector<const DeclRefExpr *>
findVarUses(const Stmt *S, llvm::function_ref<bool(const VarDecl *)> Which) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::function_ref<bool(const VarDecl *)> Which;
    std::vector<const DeclRefExpr *> Found;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (const auto *V = dyn_cast<VarDecl>(E->getDecl()); V && Which(V))
        Found.push_back(E);
      return true;
    }
  } F{{}, Which, {}};
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

CharSourceRange elementTypeRange(TypeLoc TL, const RecordDecl *Element,
                                 const SourceManager &SM,
                                 const LangOptions &LO) {
  TL = innermost(TL);
  if (TL.isNull() ||
      !(namesRecord(TL, Element) ||
        isa<TemplateTypeParmType>(TL.getType().getCanonicalType())))
    return {};
  return writtenRange(TL, SM, LO);
}

const FunctionDecl *firstOrdinaryDeclaration(const FunctionDecl *FD) {
  const FunctionDecl *First = nullptr;
  for (const FunctionDecl *R : FD->redecls()) {
    if (R->getFriendObjectKind() != Decl::FOK_None)
      continue;
    const DeclContext *DC = R->getLexicalDeclContext();
    if (!DC->isFileContext() && !DC->isRecord() && !isa<LinkageSpecDecl>(DC))
      continue;
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    if (!First ||
        SM.isBeforeInTranslationUnit(R->getBeginLoc(), First->getBeginLoc()))
      First = R;
  }
  return First;
}

const CXXRecordDecl *classWithDestructor(const ASTContext &Ctx, QualType T) {
  const auto *RD = Ctx.getBaseElementType(T)->getAsCXXRecordDecl();
  return RD && RD->hasDefinition() && !RD->hasTrivialDestructor() ? RD
                                                                  : nullptr;
}

unsigned splitComponents(const ASTContext &Ctx, QualType T, QualType &Elem) {
  constexpr uint64_t MaxComponents = 4; // vectors of 2, 3, 4 in physics codes
  const ConstantArrayType *A = Ctx.getAsConstantArrayType(T);
  if (!A || T.isVolatileQualified())
    return 0;
  QualType E = A->getElementType();
  uint64_t N = A->getSize().getZExtValue();
  if (N == 0 || N > MaxComponents || E.isVolatileQualified() ||
      !E->isArithmeticType() || E->isAnyComplexType() || !E->isBuiltinType())
    return 0;
  Elem = E.getUnqualifiedType();
  return static_cast<unsigned>(N);
}

} // namespace soaview
