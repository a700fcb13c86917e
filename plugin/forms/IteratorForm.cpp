//===- IteratorForm.cpp - recognise iterator loops ------------------------===//
//
// An iterator loop visits the elements of [begin, end) in order, as a
// range-for over that range does: it converts as one, with `it` in the body
// a pointer to the view. That holds when the header is exactly `auto it =
// begin; it != end; ++it` (or `it++`) and the body uses `it` only as `*it`
// or `it->`: the element, never the iterator itself. The condition may also
// ask the iterator (`it.isValid()`, `!it.atEnd()`: a const member function
// without arguments), as the iterators of AutoPas and ls1-mardyn are used;
// the frame then gathers until that condition fails. Anything else is
// refused with the form found (err_form_iterator).
//===----------------------------------------------------------------------===//
#include "forms/IteratorForm.h"

#include "diag/Diagnostics.h"
#include "support/Ancestors.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace soaview {

namespace {

/// `begin`, `end` and their const and reverse forms.
bool isBeginOrEnd(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  return N == "begin" || N == "end" || N == "cbegin" || N == "cend" ||
         N == "rbegin" || N == "rend" || N == "crbegin" || N == "crend";
}

/// `it + 1` or `it - k` by an operator that takes its operands by value
/// or const reference (a free operator+, as std::deque's iterator has).
bool isArithmetic(const CallExpr *C, const FunctionDecl *FD) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
  if (!OC || (OC->getOperator() != OO_Plus && OC->getOperator() != OO_Minus))
    return false;
  return llvm::none_of(FD->parameters(), [](const ParmVarDecl *P) {
    QualType T = P->getType();
    return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
  });
}

/// An iterator bound free of side effects: calls only to begin/end
/// (members or free), const members and constexpr functions (`std::next`).
/// The end must be one: soaview evaluates it once, before the loop.
bool pureIteratorBound(const Expr *E) {
  struct Check : RecursiveASTVisitor<Check> {
    bool OK = true;
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *FD = C->getDirectCallee();
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      if (!FD || !(isBeginOrEnd(FD) || FD->isConstexpr() ||
                   (MD && MD->isConst()) || isArithmetic(C, FD)))
        OK = false;
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      OK &= !U->isIncrementDecrementOp();
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      OK &= !B->isAssignmentOp();
      return true;
    }
  } C;
  C.TraverseStmt(const_cast<Expr *>(E));
  return C.OK;
}

/// The container a begin expression starts (`c` of `c.begin()`,
/// `std::begin(c)`), or the expression itself (`parts + 1`).
const Expr *containerOf(const Expr *Begin) {
  const Expr *E = Begin->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs())
    E = CE->getArg(0)->IgnoreImplicit();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (isBeginOrEnd(MC->getMethodDecl()))
      return MC->getImplicitObjectArgument();
  if (const auto *C = dyn_cast<CallExpr>(E))
    if (isBeginOrEnd(C->getDirectCallee()) && C->getNumArgs() == 1)
      return C->getArg(0);
  return Begin;
}

/// The operator*() of an iterator class, the non-const one for a
/// non-const iterator when there is one; declared in the class or, if not,
/// inherited (ls1-mardyn's RegionParticleIterator from ParticleIterator).
const CXXMethodDecl *derefOperator(ASTContext &Ctx, QualType It,
                                   const CXXRecordDecl *RD = nullptr) {
  if (!RD)
    RD = It->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return nullptr;
  RD = RD->getDefinition();
  const CXXMethodDecl *Found = nullptr;
  for (const NamedDecl *ND :
       RD->lookup(Ctx.DeclarationNames.getCXXOperatorName(OO_Star))) {
    const auto *MD = dyn_cast<CXXMethodDecl>(ND->getUnderlyingDecl());
    if (!MD || MD->getNumParams() != 0)
      continue;
    if (!Found || MD->isConst() == It.isConstQualified())
      Found = MD;
  }
  for (const CXXBaseSpecifier &B : RD->bases())
    if (!Found)
      Found = derefOperator(Ctx, It, B.getType()->getAsCXXRecordDecl());
  return Found;
}

/// What the pieces of an iterator loop's recognition share: the loop, the
/// form they fill, and its refusal (err_form_iterator, naming the form
/// found).
class IteratorStep {
public:
  IteratorStep(ASTContext &Ctx, const ForStmt *FS, LoopForm &Form,
               DiagStore &Diags)
      : Ctx(Ctx), FS(FS), Form(Form), Diags(Diags) {}

protected:
  bool fail(SourceLocation L, const std::string &What) {
    StoredDiag &D = Diags.report(L, {diag::err_form_iterator, {What}});
    Diags.note(D, FS->getForLoc(), diag::note_form_iterator_expected);
    return false;
  }
  std::string text(const Stmt *S) const {
    return writtenText(Ctx, S->getSourceRange());
  }
  std::string name() const { return Form.Iterator->getName().str(); }

  ASTContext &Ctx;
  const ForStmt *FS;
  LoopForm &Form;
  DiagStore &Diags;
};

/// Reads an iterator loop's header (`auto it = begin; it != end; ++it`, or
/// a condition that asks the iterator) and the element `*it` designates.
class IteratorHeader : IteratorStep {
public:
  explicit IteratorHeader(const IteratorStep &Step) : IteratorStep(Step) {}

  bool read() {
    return init() && condition() && increment() && element() &&
           validReadsNoElement();
  }

private:
  bool init();
  bool condition();
  bool askedIterator(const clang::Expr *Cond);
  bool validReadsNoElement();
  bool increment();
  bool element();

  const CXXMemberCallExpr *ValidCall = nullptr; ///< `it.isValid()`
};

/// `auto it = begin`: one iterator, declared in the header (its value
/// after the loop is the end, which the converted loop does not leave in
/// an iterator declared before it).
bool IteratorHeader::init() {
  const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit());
  const auto *V = DS && DS->isSingleDecl()
                      ? dyn_cast<VarDecl>(DS->getSingleDecl())
                      : nullptr;
  if (!V || !V->getInit()) {
    const Stmt *Init = FS->getInit();
    return fail(Init ? Init->getBeginLoc() : FS->getForLoc(),
                Init ? "the loop's init is '" + text(Init) +
                           "'; it must declare the one iterator"
                     : "the loop declares no iterator");
  }
  Form.Iterator = V;
  Form.Begin = V->getInit();
  Form.RangeInit = containerOf(Form.Begin);
  Form.BeginHasEffects = !pureIteratorBound(Form.Begin);
  return true;
}

/// `it != end` or `end != it` (also as a C++20 rewritten `==`).
bool IteratorHeader::condition() {
  const Expr *Cond = FS->getCond();
  const Expr *L = nullptr, *R = nullptr;
  bool NotEqual = false;
  if (const auto *RW = dyn_cast_or_null<CXXRewrittenBinaryOperator>(
          Cond ? Cond->IgnoreImplicit() : nullptr)) {
    CXXRewrittenBinaryOperator::DecomposedForm D = RW->getDecomposedForm();
    NotEqual = D.Opcode == BO_NE, L = D.LHS, R = D.RHS;
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(strip(Cond))) {
    NotEqual = B->getOpcode() == BO_NE, L = B->getLHS(), R = B->getRHS();
  } else if (const auto *OC =
                 dyn_cast_or_null<CXXOperatorCallExpr>(strip(Cond))) {
    NotEqual = OC->getOperator() == OO_ExclaimEqual && OC->getNumArgs() == 2;
    if (NotEqual)
      L = OC->getArg(0), R = OC->getArg(1);
  }
  if (askedIterator(Cond))
    return true;
  if (NotEqual && refersTo(R, Form.Iterator))
    std::swap(L, R);
  if (!NotEqual || !refersTo(L, Form.Iterator) || refersTo(R, Form.Iterator))
    return fail(Cond ? Cond->getBeginLoc() : FS->getForLoc(),
                Cond ? "the loop's condition is '" + text(Cond) + "'"
                     : "the loop has no condition");
  Form.End = R;
  if (!pureIteratorBound(Form.End))
    return fail(Form.End->getBeginLoc(), "the loop's end '" + text(Form.End) +
                                             "' may have side effects");
  return true;
}

/// `it.isValid()` or `!it.atEnd()`: a const member function of the
/// iterator without arguments, called on the iterator itself.
bool IteratorHeader::askedIterator(const Expr *Cond) {
  const Expr *E = Cond ? strip(Cond) : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(E);
      U && U->getOpcode() == UO_LNot)
    E = strip(U->getSubExpr());
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->isConst() || MC->getNumArgs() != 0 ||
      MC->getImplicitObjectArgument()->getType()->isPointerType())
    return false; // `p->alive()` asks the element, which the body may change
  const auto *Object = dyn_cast<DeclRefExpr>(
      MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
  if (!Object || Object->getDecl() != Form.Iterator)
    return false;
  Form.Valid = Cond;
  ValidCall = MC;
  return true;
}

/// The frame evaluates a condition that asks the iterator for every element
/// before the loop runs: its answer must not depend on the elements, which
/// the body may change. So its function's body must be visible and read no
/// member of the element's class.
bool IteratorHeader::validReadsNoElement() {
  if (!Form.Valid)
    return true;
  const FunctionDecl *Def = nullptr;
  if (!ValidCall->getMethodDecl()->hasBody(Def) || !Def)
    return fail(Form.Valid->getBeginLoc(),
                "the loop's condition '" + text(Form.Valid) +
                    "' calls a function whose definition is not visible");
  struct Reads : RecursiveASTVisitor<Reads> {
    const CXXRecordDecl *Element;
    const MemberExpr *Found = nullptr;
    bool VisitMemberExpr(MemberExpr *ME) {
      const auto *RD = dyn_cast<CXXRecordDecl>(
          ME->getMemberDecl()->getDeclContext()->getRedeclContext());
      if (RD && (RD->getCanonicalDecl() == Element->getCanonicalDecl() ||
                 Element->isDerivedFrom(RD)))
        Found = ME;
      return !Found;
    }
  } R;
  R.Element = Form.Element;
  R.TraverseStmt(Def->getBody());
  if (R.Found)
    return fail(Form.Valid->getBeginLoc(),
                "the loop's condition '" + text(Form.Valid) + "' reads '" +
                    R.Found->getMemberDecl()->getNameAsString() +
                    "' of an element, which the body may change");
  return true;
}

/// `++it` or `it++`.
bool IteratorHeader::increment() {
  const Expr *Inc = FS->getInc();
  bool OK = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(strip(Inc)))
    OK = U->isIncrementOp() && refersTo(U->getSubExpr(), Form.Iterator);
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(strip(Inc)))
    OK = OC->getOperator() == OO_PlusPlus &&
         refersTo(OC->getArg(0), Form.Iterator);
  if (!OK)
    return fail(Inc ? Inc->getBeginLoc() : FS->getForLoc(),
                Inc ? "the loop's increment is '" + text(Inc) + "'"
                    : "the loop has no increment");
  return true;
}

/// The element `*it` designates: a struct, or a pointer to one.
bool IteratorHeader::element() {
  QualType It = Form.Iterator->getType();
  QualType Deref;
  if (It->isPointerType())
    Deref = It->getPointeeType();
  else if (const CXXMethodDecl *Star = derefOperator(Ctx, It))
    Deref = Star->getReturnType().getNonReferenceType();
  QualType Elem = Deref;
  if (!Deref.isNull() && Deref->isPointerType()) {
    Form.VarIsPointer = true;
    Elem = Deref->getPointeeType();
  }
  const CXXRecordDecl *RD =
      Elem.isNull() ? nullptr : Elem->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isUnion())
    return fail(Form.Iterator->getLocation(),
                Deref.isNull() ? "'" + name() + "' has no 'operator*'"
                               : "'*" + name() + "' has type '" +
                                     qualifiedName(Ctx, Deref) +
                                     "', not a struct or a pointer to one");
  Form.VarIsConst = Elem.isConstQualified();
  Form.ElementType = Elem.getUnqualifiedType();
  Form.Element = RD->getDefinition();
  return true;
}

/// What a use of the iterator reaches: Root is the element (`*it`) or what
/// points at it (`it` of `it->`, or the `operator->` call), Deref whether
/// it is reached by dereferencing; Root is null for any other use.
struct ElementUse {
  const Expr *Root = nullptr;
  bool Deref = false;
};

/// Answers whether the body uses the iterator only as the element, `*it`
/// or `it->` (or to start an annotated pair loop), and records each use.
class IteratorUses : IteratorStep {
public:
  IteratorUses(const IteratorStep &Step,
               llvm::function_ref<bool(const ForStmt *)> Annotated)
      : IteratorStep(Step), Annotated(Annotated) {}

  bool check();

private:
  bool use(const DeclRefExpr *DRE);
  ElementUse elementUse(const DeclRefExpr *DRE) const;
  bool startsAnnotatedLoop(const DeclRefExpr *DRE) const;
  const Stmt *parent(const Stmt *S) const;
  const Stmt *parentThrough(const Expr *&E, unsigned Skip) const;

  llvm::function_ref<bool(const ForStmt *)> Annotated;
};

/// Every use of the iterator in the body is `*it` or `it->`.
bool IteratorUses::check() {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    std::vector<const DeclRefExpr *> Found;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->getDecl() == V)
        Found.push_back(E);
      return true;
    }
  } Finder;
  Finder.V = Form.Iterator;
  Finder.TraverseStmt(const_cast<Stmt *>(Form.Body));
  for (const DeclRefExpr *DRE : Finder.Found)
    if (!use(DRE))
      return false;
  return true;
}

/// The statement around S, through declarations and types (`P *q = p`,
/// `__typeof__(it->x)`), which a ParentMap of the body does not reach.
const Stmt *IteratorUses::parent(const Stmt *S) const {
  for (const DynTypedNode &N : ancestors(Ctx, *S)) {
    if (const Stmt *P = N.get<Stmt>())
      return P;
    if (N.get<FunctionDecl>())
      return nullptr;
  }
  return nullptr;
}

/// The first parent of E not looked through (Skip: parentheses, no-op
/// casts); E becomes its child.
const Stmt *IteratorUses::parentThrough(const Expr *&E, unsigned Skip) const {
  while (true) {
    const Stmt *P = parent(E);
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
    bool Through =
        ((Skip & Through::Parens) && isa_and_nonnull<ParenExpr>(P)) ||
        ((Skip & Through::NoOpCasts) && Cast &&
         (Cast->getCastKind() == CK_NoOp ||
          Cast->getCastKind() == CK_UncheckedDerivedToBase ||
          Cast->getCastKind() == CK_DerivedToBase)); // an inherited operator*
    if (!Through)
      return P;
    E = cast<Expr>(P);
  }
}

/// `auto jt = std::next(it)` heading an annotated loop in the body: a
/// symmetric pair loop, whose header the rewrite replaces.
bool IteratorUses::startsAnnotatedLoop(const DeclRefExpr *DRE) const {
  const Stmt *Child = DRE;
  for (const Stmt *P = parent(DRE); P && P != FS; Child = P, P = parent(P))
    if (const auto *Inner = dyn_cast<ForStmt>(P))
      return Inner->getInit() == Child && Annotated(Inner);
  return false;
}

/// What the use DRE of the iterator reaches: `*it`, or `it->` of an
/// iterator over structs (ElementUse).
ElementUse IteratorUses::elementUse(const DeclRefExpr *DRE) const {
  const Expr *Child = DRE;
  const Stmt *P = parentThrough(Child, Through::Parens | Through::NoOpCasts);
  ElementUse Found;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P)) {
    // a pointer iterator: `*it` reads it first
    if (U->getOpcode() == UO_Deref)
      Found = {U, true};
  } else if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P)) {
    const Expr *Read = IC;
    const Stmt *Q = parentThrough(Read, Through::Parens);
    if (const auto *Star = dyn_cast_or_null<UnaryOperator>(Q);
        Star && Star->getOpcode() == UO_Deref)
      Found = {Star, true};
    // `it->x` of a pointer iterator: it points at the element
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(Q);
        ME && ME->isArrow() && !Form.VarIsPointer)
      Found.Root = DRE;
  } else if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P)) {
    if (OC->getArg(0) == Child && OC->getNumArgs() == 1) {
      if (OC->getOperator() == OO_Star)
        Found = {OC, true};
      if (OC->getOperator() == OO_Arrow && !Form.VarIsPointer)
        Found.Root = OC;
    }
  }
  return Found;
}

/// One use of the iterator: the element (TargetUses) or what points at it
/// (PointerUses), a pointer element only read; anything else is refused.
bool IteratorUses::use(const DeclRefExpr *DRE) {
  if (startsAnnotatedLoop(DRE))
    return true;
  const ElementUse Found = elementUse(DRE);
  const Expr *Root = Found.Root;
  const bool Deref = Found.Deref;
  // The smallest statement around the use that is more than `it`.
  const Stmt *Shown = DRE;
  // A pointer element is read, never written or bound to a reference
  // (that would change the container).
  if (Root && Deref && Form.VarIsPointer) {
    const Expr *E = Root;
    const Stmt *Use = parentThrough(E, Through::Parens);
    const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(Use);
    if (!Read || Read->getCastKind() != CK_LValueToRValue)
      Shown = Use ? Use : E, Root = nullptr;
  }
  if (!Root) {
    while (Shown->getSourceRange() == DRE->getSourceRange() && parent(Shown))
      Shown = parent(Shown);
    return fail(DRE->getLocation(), "the iterator '" + name() +
                                        "' is used in '" + text(Shown) + "'");
  }
  if (Deref && !Form.VarIsPointer)
    Form.TargetUses.push_back(Root);
  else
    Form.PointerUses.push_back(Root);
  return true;
}

} // namespace

bool recogniseIterator(ASTContext &Ctx, const ForStmt *FS, LoopForm &F,
                       DiagStore &Diags,
                       llvm::function_ref<bool(const ForStmt *)> Annotated) {
  F.Kind = LoopFormKind::Iterator;
  F.Body = FS->getBody();
  IteratorStep Step(Ctx, FS, F, Diags);
  return IteratorHeader(Step).read() && IteratorUses(Step, Annotated).check();
}

} // namespace soaview
