//===- IndexForm.cpp - recognise index loops ------------------------------===//
//
// An index loop converts when its header steps one integer index by one
// between bounds free of side effects, every use of its target is the
// element `name[i + c]` (one c, or through one neighbour list) or reaches
// no element of the loop, and the body changes neither the index nor the
// bounds. Anything else is refused with the form found and the form
// expected.
//===----------------------------------------------------------------------===//
#include "forms/IndexForm.h"

#include "diag/Diagnostics.h"
#include "forms/FormSteps.h"
#include "forms/TargetNames.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"
#include "support/TargetArrays.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

namespace {

/// What an index loop's header says: the index, the bounds and how the
/// condition bounds the index.
struct IndexHeader {
  const VarDecl *Var = nullptr;
  const Expr *Lo = nullptr;
  const Expr *Hi = nullptr;
  IndexBound Bound = IndexBound::Below;
};

/// Reads an index loop's header, `for (i = lo; i < n; ++i)`: init,
/// condition, increment, pure bounds.
class HeaderReader : FormStep {
public:
  HeaderReader(const FormStep &Step, const ForStmt *FS)
      : FormStep(Step), FS(FS) {}

  /// The header, or nullopt once its refusal is reported.
  std::optional<IndexHeader> read() {
    if (!init())
      return std::nullopt;
    if (!condition() || !increment())
      return std::nullopt;
    if (!pureBound(H.Lo, Ctx) || !pureBound(H.Hi, Ctx)) {
      expectIndexForm(H.Hi->getBeginLoc(), FS->getForLoc(),
                      "the loop bounds must not have side effects");
      return std::nullopt;
    }
    return H;
  }

private:
  bool init();
  bool condition();
  bool increment();

  const ForStmt *FS;
  IndexHeader H;
};

/// `i < n`, `i <= n` or `i != n`: the iterations lo, lo + 1, ... while the
/// condition holds, counted before the loop (soaview::index_trips).
bool HeaderReader::condition() {
  const Expr *Cond = FS->getCond();
  const auto *B = dyn_cast_or_null<BinaryOperator>(strip(Cond));
  if (B && refersTo(B->getLHS(), H.Var) && !refersTo(B->getRHS(), H.Var)) {
    H.Hi = B->getRHS();
    switch (B->getOpcode()) {
    case BO_LT:
      H.Bound = IndexBound::Below;
      return true;
    case BO_LE:
      H.Bound = IndexBound::UpTo;
      return true;
    case BO_NE:
      H.Bound = IndexBound::Until;
      return true;
    default:
      break;
    }
  }
  return expectIndexForm(Cond ? Cond->getBeginLoc() : FS->getForLoc(),
                         FS->getForLoc(),
                         Cond ? "the loop's condition is '" + text(Cond) + "'"
                              : "the loop has no condition");
}

/// Init: `int i = lo` or `i = lo`.
bool HeaderReader::init() {
  const Stmt *Init = FS->getInit();
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
    if (DS->isSingleDecl())
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()))
        if (V->getInit()) {
          H.Var = V;
          H.Lo = V->getInit();
        }
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init)) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(BO->getLHS())))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
          H.Var = V;
          H.Lo = BO->getRHS();
        }
  }
  if (!H.Var || !H.Var->getType()->isIntegerType())
    return expectIndexForm(Init ? Init->getBeginLoc() : FS->getForLoc(),
                           FS->getForLoc(),
                           "the loop must start by setting one integer index");
  return true;
}

/// Increment: ++i, i++, i += 1.
bool HeaderReader::increment() {
  const Expr *Inc = FS->getInc();
  bool IncOK = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(strip(Inc)))
    IncOK = U->isIncrementOp() && refersTo(U->getSubExpr(), H.Var);
  if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(strip(Inc))) {
    Expr::EvalResult R;
    IncOK = B->getOpcode() == BO_AddAssign && refersTo(B->getLHS(), H.Var) &&
            B->getRHS()->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 1;
  }
  if (!IncOK)
    return expectIndexForm(Inc ? Inc->getBeginLoc() : FS->getForLoc(),
                           FS->getForLoc(),
                           Inc ? "the loop's increment is '" + text(Inc) + "'"
                               : "the loop has no increment");
  return true;
}

/// The terms c of a subscript `i + c`, each with whether it is subtracted.
using OffsetTerms = std::vector<std::pair<bool, const Expr *>>;

/// Answers what a subscript of an index loop's target is: the index plus
/// loop-invariant terms, the same element as another subscript, or the
/// list of a neighbour-list subscript.
class Subscripts {
public:
  Subscripts(ASTContext &Ctx, const VarDecl *IndexVar, const Stmt *Loop)
      : Ctx(Ctx), IndexVar(IndexVar), Loop(Loop) {}

  std::optional<OffsetTerms> offsetTerms(const Expr *E) const;
  bool sameElement(const Expr *Use, const Expr *Subscript) const;
  const DeclRefExpr *listOf(const Expr *&Index) const;

private:
  bool invariantTerm(const Expr *T) const;

  ASTContext &Ctx;
  const VarDecl *IndexVar; ///< the loop's index
  const Stmt *Loop;
};

/// The terms c of a subscript `i + c` (`i`, `i - first`, `(i - 1) + k`,
/// `k + i`), each with whether it is subtracted; nullopt when the subscript
/// is not the index plus loop-invariant terms.
std::optional<OffsetTerms> Subscripts::offsetTerms(const Expr *E) const {
  E = strip(E);
  if (refersTo(E, IndexVar))
    return OffsetTerms{};
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub))
    return std::nullopt;
  bool Sub = B->getOpcode() == BO_Sub;
  if (auto T = offsetTerms(B->getLHS()); T && invariantTerm(B->getRHS())) {
    T->push_back({Sub, strip(B->getRHS())});
    return T;
  }
  if (!Sub)
    if (auto T = offsetTerms(B->getRHS()); T && invariantTerm(B->getLHS())) {
      T->push_back({false, strip(B->getLHS())});
      return T;
    }
  return std::nullopt;
}

/// A term of the offset, evaluated once before the loop: free of the index
/// and of side effects, of members and globals, and of variables declared
/// in the loop (that it does not change in the body is checked with the
/// bound: IndexRecogniser::invariant).
bool Subscripts::invariantTerm(const Expr *T) const {
  if (!pureBound(T, Ctx))
    return false;
  struct Vars : RecursiveASTVisitor<Vars> {
    const VarDecl *Index;
    const Stmt *Loop;
    const SourceManager &SM;
    bool OK = true;
    Vars(const VarDecl *I, const Stmt *L, const SourceManager &SM)
        : Index(I), Loop(L), SM(SM) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *V = dyn_cast<VarDecl>(E->getDecl());
      if (V && (V == Index || (V->isLocalVarDecl() &&
                               !SM.isBeforeInTranslationUnit(
                                   V->getLocation(), Loop->getBeginLoc()))))
        OK = false;
      // Only locals and parameters, whose writes in the body findWrite
      // sees, or constants: a global or a member could change in a callee.
      if (V && !V->hasLocalStorage() && !V->getType().isConstQualified())
        OK = false;
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      OK = false;
      return true;
    }
  } V(IndexVar, Loop, Ctx.getSourceManager());
  V.TraverseStmt(const_cast<Expr *>(T));
  return V.OK;
}

/// Whether two subscripts of the target name the same element: the same
/// terms in the same order, equal constants or the same expressions.
bool Subscripts::sameElement(const Expr *Use, const Expr *Subscript) const {
  auto A = offsetTerms(Use), B = offsetTerms(Subscript);
  if (!A || !B || A->size() != B->size())
    return false;
  for (size_t I = 0; I < A->size(); ++I) {
    auto [SubA, TA] = (*A)[I];
    auto [SubB, TB] = (*B)[I];
    Expr::EvalResult RA, RB;
    if (SubA != SubB)
      return false;
    if (TA->EvaluateAsInt(RA, Ctx) && TB->EvaluateAsInt(RB, Ctx)) {
      if (llvm::APSInt::compareValues(RA.Val.getInt(), RB.Val.getInt()))
        return false;
      continue;
    }
    llvm::FoldingSetNodeID IA, IB;
    TA->Profile(IA, Ctx, /*Canonical=*/true);
    TB->Profile(IB, Ctx, /*Canonical=*/true);
    if (IA != IB)
      return false;
  }
  return true;
}

/// The list of a neighbour-list subscript `list[i + c]`, with Index set to
/// its `i + c`; null (Index unchanged) for any other subscript. The list is
/// a local variable or parameter holding integers (a pointer, an array, a
/// std::vector): the body may not change it (checks: the container rule).
const DeclRefExpr *Subscripts::listOf(const Expr *&Index) const {
  const Expr *E = strip(Index), *Base = nullptr, *Sub = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    Base = AS->getBase(), Sub = AS->getIdx();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Subscript)
    Base = OC->getArg(0), Sub = OC->getArg(1);
  const auto *Ref = Base ? dyn_cast<DeclRefExpr>(strip(Base)) : nullptr;
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || !E->getType()->isIntegerType() ||
      !offsetTerms(Sub))
    return nullptr;
  Index = Sub;
  return Ref;
}

/// The subscript U is the base of in its parent P (`i` of `name[i]`), or
/// null when P does not subscript U.
const Expr *subscriptOf(const Expr *U, const Stmt *P) {
  const Expr *Index = nullptr;
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(P))
    if (strip(AS->getBase()) == U)
      Index = AS->getIdx();
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P))
    if (OC->getOperator() == OO_Subscript && strip(OC->getArg(0)) == U)
      Index = OC->getArg(1);
  return Index;
}

/// Recognises an index loop's target: the one declaration its name refers
/// to, the element type, and what each use of the name reaches.
class TargetRecogniser : FormStep {
public:
  TargetRecogniser(const FormStep &Step, const AnnotationCollector &All,
                   const AttrUse &Target, LoopForm &Form)
      : FormStep(Step), All(All), Target(Target), Form(Form),
        Terms(Ctx, Form.IndexVar, Form.Loop) {}

  bool run(const ForStmt *FS, const std::vector<const Expr *> &Uses) {
    return targetDecl(Uses) && targetElement() && targetUses(FS, Uses);
  }

private:
  bool targetDecl(const std::vector<const Expr *> &Uses);
  bool targetElement();
  bool targetUses(const ForStmt *FS, const std::vector<const Expr *> &Uses);
  bool otherElementUse(const Expr *U, const Stmt *P, const Expr *Index) const;
  bool sameList(const Expr *U, const Stmt *P, const DeclRefExpr *List);

  const AnnotationCollector &All;
  const AttrUse &Target; ///< soa_conversion_target
  LoopForm &Form;
  Subscripts Terms;
};

/// The one variable every use of the target name refers to, unqualified.
bool TargetRecogniser::targetDecl(const std::vector<const Expr *> &Uses) {
  for (const Expr *U : Uses) {
    const NamedDecl *D = isa<DeclRefExpr>(U)
                             ? cast<DeclRefExpr>(U)->getDecl()
                             : cast<MemberExpr>(U)->getMemberDecl();
    if (Form.Target && Form.Target != D)
      return fail(U->getExprLoc(),
                  {diag::err_form_target_ambiguous, {Form.TargetName}}, {},
                  std::nullopt);
    Form.Target = D;
    if (const auto *ME = dyn_cast<MemberExpr>(U))
      if (!ME->isImplicitAccess())
        return fail(U->getExprLoc(), Msg(diag::err_form_target_qualified),
                    U->getExprLoc(),
                    Msg(diag::note_form_target_qualified, {Form.TargetName}));
  }
  return true;
}

/// The target's element type: T*, T[N] or std::vector<T> with T a struct.
bool TargetRecogniser::targetElement() {
  QualType TargetType =
      cast<ValueDecl>(Form.Target)->getType().getNonReferenceType();
  QualType Elem = targetArrayElement(Ctx, TargetType);
  if (Elem.isNull() || !recordOf(Elem) || recordOf(Elem)->isUnion())
    return fail(Target.Range.getBegin(),
                {diag::err_form_target_not_structs, {Form.TargetName}},
                Form.Target->getLocation(),
                Msg(diag::note_form_target_not_structs,
                    {qualifiedName(Ctx, TargetType)}));
  Form.ElementType = withoutMemberTypedefs(Elem).getUnqualifiedType();
  Form.Element = recordOf(Elem);
  Form.VarIsConst = Elem.isConstQualified();
  return true;
}

/// A use of the target that does not reach the current element: another
/// element (`name[k]`, k free of the index) or a const query of the whole
/// (`name.size()`). It stays as written, on the target itself; what it
/// reaches of an element is a foreign access, checked against the view.
bool TargetRecogniser::otherElementUse(const Expr *U, const Stmt *P,
                                       const Expr *Index) const {
  if (!P || !U->getExprLoc().isFileID())
    return false;
  if (Index)
    return findVarUses(Index,
                       [&](const VarDecl *V) { return V == Form.IndexVar; })
        .empty();
  const auto *ME = dyn_cast<MemberExpr>(P);
  const auto *MD = ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
  return MD && MD->isConst() &&
         (MD->getReturnType()->isIntegralOrEnumerationType() ||
          MD->getReturnType()->isBooleanType());
}

/// Every use of the element goes through one list, or none does.
bool TargetRecogniser::sameList(const Expr *U, const Stmt *P,
                                const DeclRefExpr *List) {
  if (Form.TargetUses.empty()) {
    Form.IndexList = List;
    return true;
  }
  if ((List ? List->getDecl() : nullptr) ==
      (Form.IndexList ? Form.IndexList->getDecl() : nullptr))
    return true;
  return fail(U->getExprLoc(),
              {diag::err_form_target_two_elements,
               {Form.TargetName, text(Form.TargetUses.front()), text(P)}},
              Form.Loop->getBeginLoc(), Msg(diag::note_form_target_other_use));
}

/// Every use is `name[i + c]` with one c (or `name[j]` of another annotated
/// loop over the same target: the N-body nest), or reaches no element of
/// the loop (otherElementUse).
bool TargetRecogniser::targetUses(const ForStmt *FS,
                                  const std::vector<const Expr *> &Uses) {
  ParentMap PM(const_cast<Stmt *>(Form.Body));
  for (const Expr *U : Uses) {
    const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<Expr *>(U));
    if (!P) // inside a type (`decltype(buf[i].x) t`): outside the statements
      P = typeOperandParent(Ctx, U);
    const Expr *Index = subscriptOf(U, P);
    if (Index && !refersTo(Index, Form.IndexVar) &&
        otherLoopsIndex(Ctx, Index, Form.IndexVar, Form.TargetName, All))
      continue;
    if (otherElementUse(U, P, Index)) { // the outermost loop renames it
      if (!enclosedByTargetLoop(Ctx, Form.Loop, Form.TargetName, All))
        Form.OriginalUses.push_back({cast<DeclRefExpr>(strip(U)), P});
      continue;
    }
    const DeclRefExpr *List = Index ? Terms.listOf(Index) : nullptr;
    if (!sameList(U, P, List))
      return false;
    if (!Index || !Terms.offsetTerms(Index))
      return fail(
          U->getExprLoc(),
          {diag::err_form_target_other_use,
           {Form.TargetName, text(P ? P : U), Form.IndexVar->getName().str()}},
          FS->getForLoc(), Msg(diag::note_form_target_other_use));
    if (Form.Subscript && !Terms.sameElement(Index, Form.Subscript))
      return fail(U->getExprLoc(),
                  {diag::err_form_target_two_elements,
                   {Form.TargetName, text(Form.TargetUses.front()), text(P)}},
                  FS->getForLoc(), Msg(diag::note_form_target_other_use));
    if (!Form.Subscript)
      Form.Subscript = Index;
    Form.TargetUses.push_back(cast<Expr>(P));
    if (insideOtherTargetLoop(Ctx, U, Form.Loop, Form.TargetName, All))
      Form.ShadowedUses.push_back(cast<DeclRefExpr>(strip(U)));
  }
  return true;
}

/// Recognises an index loop: its header (HeaderReader), its target
/// (TargetRecogniser), and that the body changes neither the index nor the
/// bound.
class IndexRecogniser : FormStep {
public:
  IndexRecogniser(const FormStep &Step, const AnnotationCollector &All,
                  LoopForm &Form)
      : FormStep(Step), All(All), Form(Form) {}

  bool run(const ForStmt *FS, const AttrUse *Target);

private:
  bool invariant(const ForStmt *FS);

  const AnnotationCollector &All;
  LoopForm &Form;
};

bool IndexRecogniser::run(const ForStmt *FS, const AttrUse *Target) {
  Form.Kind = LoopFormKind::Index;
  Form.Body = FS->getBody();
  if (!Target)
    return expectIndexForm(FS->getForLoc(), FS->getForLoc(),
                           "an index loop needs soa_conversion_target when "
                           "its body subscripts no array of structs with the "
                           "index, or several");
  std::optional<IndexHeader> H = HeaderReader(*this, FS).read();
  if (!H)
    return false;
  Form.IndexVar = H->Var;
  Form.Lo = H->Lo;
  Form.Hi = H->Hi;
  Form.Bound = H->Bound;
  // Target: every use must be exactly `name[i]`.
  Form.TargetName = Target->Target;
  UseFinder Uses(Form.TargetName);
  Uses.TraverseStmt(const_cast<Stmt *>(Form.Body));
  if (Uses.Uses.empty())
    return fail(Target->Range.getBegin(),
                {diag::err_form_target_unknown, {Form.TargetName}},
                FS->getForLoc(), Msg(diag::note_form_target_unknown));
  return TargetRecogniser(*this, All, *Target, Form).run(FS, Uses.Uses) &&
         invariant(FS);
}

/// The index and the bound must not change in the body.
bool IndexRecogniser::invariant(const ForStmt *FS) {
  llvm::SmallPtrSet<const ValueDecl *, 4> Invariant;
  Invariant.insert(Form.IndexVar);
  struct BoundVars : RecursiveASTVisitor<BoundVars> {
    llvm::SmallPtrSetImpl<const ValueDecl *> &S;
    explicit BoundVars(llvm::SmallPtrSetImpl<const ValueDecl *> &S) : S(S) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (isa<VarDecl>(E->getDecl()))
        S.insert(E->getDecl());
      return true;
    }
  } BoundVars(Invariant);
  BoundVars.TraverseStmt(const_cast<Expr *>(Form.Hi));
  BoundVars.TraverseStmt(const_cast<Expr *>(Form.Subscript)); // its offset
  if (const Expr *Written = findWrite(Form.Body, Invariant))
    return fail(Written->getExprLoc(), Msg(diag::err_form_index_modified),
                FS->getForLoc(), Msg(diag::note_form_index_modified));
  return true;
}

} // namespace

bool recogniseIndex(ASTContext &Ctx, const ForStmt *FS, const AttrUse *Target,
                    const AnnotationCollector &All, LoopForm &F,
                    DiagStore &Diags) {
  return IndexRecogniser(FormStep(Ctx, Diags), All, F).run(FS, Target);
}

} // namespace soaview
