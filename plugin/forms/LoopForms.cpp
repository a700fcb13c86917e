//===- LoopForms.cpp - recognise the loop shapes soaview converts ---------===//
//
// Range-for over anything with begin/end whose elements are structs or
// pointers to structs; iterator loops (forms/IteratorForm.cpp); index loops
// `for (i = lo; i < n; ++i)` (also `<=`, `!=`) over T*, T[N] or
// std::vector<T> named by soa_conversion_target, indexed `name[i + c]`.
// Anything else is refused with the form found and the form expected.
// Tests: test/Sema/loop-forms.cpp, test/Sema/iterator-loops.cpp.
//===----------------------------------------------------------------------===//
#include "forms/LoopForms.h"

#include "diag/Diagnostics.h"
#include "forms/IteratorForm.h"
#include "forms/TargetNames.h"
#include "frontend/Annotations.h"
#include "support/Ancestors.h"
#include "support/AstHelpers.h"
#include "support/TargetArrays.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace soaview {

static const CXXRecordDecl *recordOf(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD ? RD->getDefinition() : nullptr;
}

/// The element type without the typedefs of classes it was reached through
/// (`auto &m` over a `std::array<Mol, 2>` is its `value_type`, a container's
/// `ParticleType`): generated code names the element from outside those
/// classes, and the views and diagnostics are named after what it is.
static QualType withoutMemberTypedefs(QualType T) {
  while (const auto *TT = T->getAs<TypedefType>()) {
    if (!isa<RecordDecl>(TT->getDecl()->getDeclContext()))
      break;
    T = QualType(TT->desugar().getTypePtr(),
                 T.getLocalFastQualifiers() |
                     TT->desugar().getLocalFastQualifiers());
  }
  return T;
}

namespace {

bool steppedVarIsIndex(const ForStmt *FS);

/// Recognition of one loop: each step fills part of the form or reports
/// why the loop has no form soaview converts.
class Recogniser {
public:
  Recogniser(ASTContext &Ctx, const LoopAnnotation &A,
             const AnnotationCollector &All, DiagStore &Diags)
      : Ctx(Ctx), All(All), Diags(Diags), Target(A.get(AttrKind::Target)),
        Hoist(A.get(AttrKind::Hoist)) {}

  std::optional<LoopForm> run(const Stmt *Loop, const FunctionDecl *Fn) {
    Form.Loop = Loop;
    Form.Function = Fn;
    bool OK;
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop))
      OK = range(RF);
    else if (const auto *FS = dyn_cast<ForStmt>(Loop))
      OK = steppedVarIsIndex(FS) ? index(FS) : iterator(FS);
    else
      OK = expectIndexForm(Loop->getBeginLoc(), Loop->getBeginLoc(),
                           "not a for loop");
    if (!OK)
      return std::nullopt;
    return Form;
  }

private:
  bool range(const CXXForRangeStmt *RF);
  bool rangeElement(const CXXForRangeStmt *RF);
  bool structElement();
  bool pointerOnlyRead();
  bool wrapperUses();
  const Stmt *shown(ParentMap &PM, const Expr *Use) const;
  const Stmt *parentOf(ParentMap &PM, const Stmt *S) const;
  const Stmt *usedIn(ParentMap &PM, const Expr *&E) const;
  std::vector<const DeclRefExpr *> loopVarUses() const {
    return findVarUses(Form.Body,
                       [&](const VarDecl *V) { return V == Form.LoopVar; });
  }
  bool bindings(const DecompositionDecl *DD);
  /// The element a range loop's variable (or binding) names, of type Elem.
  void setElement(QualType Elem) {
    Form.VarIsConst = Elem.isConstQualified();
    Form.ElementType = withoutMemberTypedefs(Elem).getUnqualifiedType();
    Form.Element = recordOf(Form.ElementType);
  }
  bool iterator(const ForStmt *FS);
  bool index(const ForStmt *FS);
  bool indexHeader(const ForStmt *FS);
  bool indexCondition(const ForStmt *FS);
  bool indexInit(const ForStmt *FS);
  bool indexIncrement(const ForStmt *FS);
  bool indexInvariant(const ForStmt *FS);
  bool targetDecl(const ForStmt *FS, const std::vector<const Expr *> &Uses);
  bool targetElement();
  bool targetUses(const ForStmt *FS, const std::vector<const Expr *> &Uses);
  bool otherElementUse(const Expr *U, const Stmt *P, const Expr *Index) const;
  const DeclRefExpr *listOf(const Expr *&Index);
  bool sameList(const Expr *U, const Stmt *P, const DeclRefExpr *List);
  bool sameElement(const Expr *Use, const Expr *Subscript);
  std::optional<std::vector<std::pair<bool, const Expr *>>>
  offsetTerms(const Expr *Subscript);
  bool invariantTerm(const Expr *T);
  std::string text(const Stmt *S) const {
    return writtenText(Ctx, S->getSourceRange());
  }

  bool fail(SourceLocation L, const Msg &Error, SourceLocation NoteL,
            std::optional<Msg> Note) {
    StoredDiag &D = Diags.report(L, Error);
    if (Note)
      Diags.note(D, NoteL, *Note);
    return false;
  }
  bool expectIndexForm(SourceLocation L, SourceLocation For, StringRef What) {
    return fail(L, {diag::err_form_unsupported, {What.str()}}, For,
                Msg(diag::note_form_index_expected));
  }

  ASTContext &Ctx;
  const AnnotationCollector &All;
  DiagStore &Diags;
  const AttrUse *Target;
  const AttrUse *Hoist; ///< soa_conversion_hoist, if written
  LoopForm Form;
};

bool Recogniser::range(const CXXForRangeStmt *RF) {
  if (Target)
    return fail(Target->Range.getBegin(), Msg(diag::err_form_target_on_range),
                RF->getForLoc(), Msg(diag::note_form_target_on_range));
  Form.Kind = LoopFormKind::Range;
  Form.Body = RF->getBody();
  Form.LoopVar = RF->getLoopVariable();
  if (RF->getInit())
    return fail(RF->getInit()->getBeginLoc(), Msg(diag::err_form_range_init),
                RF->getInit()->getBeginLoc(), Msg(diag::note_form_range_init));
  Form.RangeInit = RF->getRangeInit();
  if (const auto *DD = dyn_cast<DecompositionDecl>(Form.LoopVar))
    return bindings(DD);
  return rangeElement(RF);
}

/// Whether `*it`, the initializer of a range-for's variable (copied for
/// `auto [a, b]`), is a temporary rather than an element the range holds.
static bool yieldsTemporaries(const Expr *Init) {
  if (!Init)
    return false;
  Init = Init->IgnoreImplicit();
  if (const auto *C = dyn_cast<CXXConstructExpr>(Init))
    if (C->getNumArgs() == 1)
      Init = C->getArg(0)->IgnoreImplicit();
  return Init->isPRValue();
}

/// `for (auto &[key, p] : range)`: the element is the one binding that is a
/// struct or a pointer to one; the other bindings keep binding into the
/// range's elements as written (emit/Loops.cpp).
bool Recogniser::bindings(const DecompositionDecl *DD) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const BindingDecl *> Elements;
  ArrayRef<BindingDecl *> Bs = DD->bindings();
  for (const BindingDecl *B : Bs)
    if (elementBinding(B, SM))
      Elements.push_back(B);
  SourceLocation V = DD->getLocation();
  if (Elements.empty())
    return fail(V, Msg(diag::err_form_bindings_none), V,
                Msg(diag::note_form_bindings_none));
  if (Elements.size() > 1)
    return fail(
        Elements[1]->getLocation(),
        {diag::err_form_bindings_several, {std::to_string(Elements.size())}},
        Elements[1]->getLocation(),
        Msg(diag::note_form_bindings_several,
            {Elements[0]->getName().str(), Elements[1]->getName().str()}));
  Form.ElementBinding = Elements[0];
  QualType Bound = Form.ElementBinding->getType();
  // `std::tuple_element<1, pair<int, P>>::type` is written `P` here.
  QualType T = Bound.getNonReferenceType().getCanonicalType();
  Form.VarIsPointer = T->isPointerType();
  // A struct held in a temporary that the range yields (a generator's
  // pair by value) ends before the frame could gather it.
  if (!Form.VarIsPointer && !Bound->isReferenceType() &&
      yieldsTemporaries(DD->getInit()))
    return fail(V, Msg(diag::err_form_bindings_temporary), V,
                Msg(diag::note_form_bindings_temporary));
  QualType Elem = Form.VarIsPointer ? T->getPointeeType() : T;
  Form.VarIsCopy = !Form.VarIsPointer && !DD->getType()->isReferenceType();
  setElement(Elem);
  Form.BindingSpec = Lexer::getSourceText(CharSourceRange::getCharRange(
                                              SM.getFileLoc(DD->getBeginLoc()),
                                              SM.getFileLoc(V)),
                                          SM, Ctx.getLangOpts())
                         .rtrim()
                         .str();
  return true;
}

/// The type a `std::reference_wrapper<T>` refers to (`T`, const kept), or
/// null for any other type.
static QualType referredBy(QualType T) {
  const auto *CTS =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsRecordDecl());
  if (!CTS || !CTS->isInStdNamespace() || !CTS->getIdentifier() ||
      CTS->getName() != "reference_wrapper" ||
      CTS->getTemplateArgs().size() != 1 ||
      CTS->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return CTS->getTemplateArgs()[0].getAsType();
}

/// The conversion function a range-for's variable is initialised by, from
/// the range's element (`T &e` over `std::reference_wrapper<T>` calls its
/// `operator T &`), copied or not; null when it binds or copies the
/// element itself.
static const CXXMemberCallExpr *elementConversion(const Expr *Init) {
  if (!Init)
    return nullptr;
  Init = Init->IgnoreImplicit();
  if (const auto *C = dyn_cast<CXXConstructExpr>(Init))
    if (C->getNumArgs() == 1)
      Init = C->getArg(0)->IgnoreImplicit();
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Init);
  return MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl())
             ? MC
             : nullptr;
}

/// The element type behind the loop variable (`auto &p`, `auto *p`, `P p`,
/// `P *&p`, `auto &r` of a `std::reference_wrapper<P>`).
bool Recogniser::rangeElement(const CXXForRangeStmt *RF) {
  QualType VarType = Form.LoopVar->getType();
  QualType Elem = VarType.getNonReferenceType();
  if (QualType Referred = referredBy(Elem); !Referred.isNull()) {
    Form.Wrapped = Form.VarIsWrapper = true;
    setElement(Referred);
    return structElement() && wrapperUses();
  }
  SourceLocation V = Form.LoopVar->getLocation();
  if (const CXXMemberCallExpr *Conv =
          elementConversion(Form.LoopVar->getInit())) {
    QualType From =
        Conv->getImplicitObjectArgument()->getType().getUnqualifiedType();
    if (referredBy(From).isNull() || Elem->isPointerType())
      return fail(V,
                  {diag::err_form_converted_elements,
                   {qualifiedName(Ctx, From), qualifiedName(Ctx, VarType)}},
                  Conv->getMethodDecl()->getLocation(),
                  Msg(diag::note_form_converted_elements));
    Form.Wrapped = true;
  }
  Form.VarIsCopy = !VarType->isReferenceType() && !VarType->isPointerType();
  if (Elem->isPointerType()) {
    Form.VarIsPointer = true;
    Elem = Elem->getPointeeType();
  }
  setElement(Elem);
  if (!structElement())
    return false;
  // `P *&p`: the container's own pointer, converted as `P *p` where the
  // body only reads it.
  return !Form.VarIsPointer || VarType->isPointerType() || pointerOnlyRead();
}

/// The element is a struct or class.
bool Recogniser::structElement() {
  SourceLocation V = Form.LoopVar->getLocation();
  if (!Form.Element || Form.Element->isUnion())
    return fail(V, Msg(diag::err_form_not_structs), V,
                Msg(diag::note_form_not_structs,
                    {qualifiedName(Ctx, Form.LoopVar->getType())}));
  return true;
}

/// The smallest expression or statement around Use that is more than it:
/// what a refusal quotes (`p = q` of `p`).
const Stmt *Recogniser::shown(ParentMap &PM, const Expr *Use) const {
  const Stmt *Shown = Use;
  while (Shown->getSourceRange() == Use->getSourceRange())
    if (const Stmt *P = parentOf(PM, Shown))
      Shown = P;
    else
      break;
  return Shown;
}

/// The parent of S in the body's ParentMap, or for an operand of a type
/// (`decltype(p->x) t`), which that map does not reach, in the
/// ASTContext's.
const Stmt *Recogniser::parentOf(ParentMap &PM, const Stmt *S) const {
  if (const Stmt *P = PM.getParent(const_cast<Stmt *>(S)))
    return P;
  return firstParent(Ctx, *S).get<Stmt>();
}

/// The first parent of E that is not a parenthesis or a cast adjusting
/// qualifiers; E becomes its child.
const Stmt *Recogniser::usedIn(ParentMap &PM, const Expr *&E) const {
  while (true) {
    const Stmt *P = parentOf(PM, E);
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
    if (!isa_and_nonnull<ParenExpr>(P) &&
        !(Cast && Cast->getCastKind() == CK_NoOp))
      return P;
    E = cast<Expr>(P);
  }
}

/// `(void)p;`: a use that does nothing.
static bool discarded(const Stmt *Parent) {
  const auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(Parent);
  return Cast && Cast->getCastKind() == CK_ToVoid;
}

/// `for (P *&p : v)`: a reference to the container's pointer. The frame
/// reads the container's pointers before the loop starts, so the body may
/// only read `p` (`p->x`, `*p`, a copy); anything else (`p = q`, `++p`,
/// `&p`) could change which element the container holds.
bool Recogniser::pointerOnlyRead() {
  ParentMap PM(const_cast<Stmt *>(Form.Body));
  for (const DeclRefExpr *Use : loopVarUses()) {
    const Expr *E = Use;
    const Stmt *P = usedIn(PM, E);
    const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(P);
    if ((Read && Read->getCastKind() == CK_LValueToRValue) || discarded(P) ||
        isa_and_nonnull<LambdaExpr>(P)) // its uses in the lambda are checked
      continue;
    std::string Name = Form.LoopVar->getName().str();
    return fail(Use->getLocation(),
                {diag::err_form_pointer_reference,
                 {Name, writtenText(Ctx, shown(PM, Use)->getSourceRange())}},
                Use->getLocation(),
                Msg(diag::note_form_pointer_reference, {Name}));
  }
  return true;
}

/// `for (auto &r : refs)` over `std::reference_wrapper<T>`: every use of
/// `r` is `r.get()` or its conversion to `T &`, each of which is the
/// element (Form.TargetUses).
bool Recogniser::wrapperUses() {
  ParentMap PM(const_cast<Stmt *>(Form.Body));
  for (const DeclRefExpr *Use : loopVarUses()) {
    const Expr *E = Use;
    const auto *ME = dyn_cast_or_null<MemberExpr>(usedIn(PM, E));
    const auto *MD =
        ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
    const auto *Call =
        ME ? dyn_cast_or_null<CXXMemberCallExpr>(parentOf(PM, ME)) : nullptr;
    if (Call && MD && isa<CXXConversionDecl>(MD)) { // `T &e = r`
      const Expr *Element = Call;
      if (const auto *IC =
              dyn_cast_or_null<ImplicitCastExpr>(parentOf(PM, Call));
          IC && IC->getCastKind() == CK_UserDefinedConversion)
        Element = IC;
      Form.TargetUses.push_back(Element);
      Form.WrapperConversions.push_back(Use);
      continue;
    }
    if (Call && MD && MD->getIdentifier() && MD->getName() == "get") {
      Form.TargetUses.push_back(Call);
      continue;
    }
    if (discarded(parentOf(PM, Use)))
      continue;
    std::string Name = Form.LoopVar->getName().str();
    return fail(Use->getLocation(),
                {diag::err_form_wrapper_use,
                 {Name, writtenText(Ctx, shown(PM, Use)->getSourceRange())}},
                Use->getLocation(), Msg(diag::note_form_wrapper_use, {Name}));
  }
  return true;
}

/// Whether the variable the loop's init sets is an integer (or there is
/// none: the index form says what is missing); else the loop steps an
/// iterator.
bool steppedVarIsIndex(const ForStmt *FS) {
  const VarDecl *V = steppedVar(FS);
  return !V || V->getType()->isIntegerType() || V->getType()->isDependentType();
}

bool Recogniser::iterator(const ForStmt *FS) {
  if (Target)
    return fail(Target->Range.getBegin(),
                {diag::err_form_iterator,
                 {"soa_conversion_target names the array of an index "
                  "loop, and this loop steps an iterator"}},
                FS->getForLoc(), Msg(diag::note_form_iterator_expected));
  if (!recogniseIterator(Ctx, FS, Form, Diags, [&](const ForStmt *Inner) {
        return All.Loops.count(Inner->getForLoc()) != 0;
      }))
    return false;
  if (Form.BeginHasEffects && Hoist) // evaluated before the loops around it
    return fail(Form.Begin->getBeginLoc(),
                {diag::err_form_iterator,
                 {"the loop's begin '" +
                  writtenText(Ctx, Form.Begin->getSourceRange()) +
                  "' may have side effects, and soa_conversion_hoist "
                  "evaluates it before the loops around it"}},
                FS->getForLoc(), Msg(diag::note_form_iterator_expected));
  return true;
}

bool Recogniser::index(const ForStmt *FS) {
  Form.Kind = LoopFormKind::Index;
  Form.Body = FS->getBody();
  if (!Target)
    return expectIndexForm(FS->getForLoc(), FS->getForLoc(),
                           "an index loop needs soa_conversion_target when "
                           "its body subscripts no array of structs with the "
                           "index, or several");
  if (!indexHeader(FS))
    return false;
  // Target: every use must be exactly `name[i]`.
  Form.TargetName = Target->Target;
  UseFinder Uses(Form.TargetName);
  Uses.TraverseStmt(const_cast<Stmt *>(Form.Body));
  if (Uses.Uses.empty())
    return fail(Target->Range.getBegin(),
                {diag::err_form_target_unknown, {Form.TargetName}},
                FS->getForLoc(), Msg(diag::note_form_target_unknown));
  return targetDecl(FS, Uses.Uses) && targetElement() &&
         targetUses(FS, Uses.Uses) && indexInvariant(FS);
}

/// `for (i = lo; i < n; ++i)`: init, condition, increment, pure bounds.
bool Recogniser::indexHeader(const ForStmt *FS) {
  if (!indexInit(FS))
    return false;
  if (!indexCondition(FS) || !indexIncrement(FS))
    return false;
  if (!pureBound(Form.Lo, Ctx) || !pureBound(Form.Hi, Ctx))
    return expectIndexForm(Form.Hi->getBeginLoc(), FS->getForLoc(),
                           "the loop bounds must not have side effects");
  return true;
}

/// `i < n`, `i <= n` or `i != n`: the iterations lo, lo + 1, ... while the
/// condition holds, counted before the loop (soaview::index_trips).
bool Recogniser::indexCondition(const ForStmt *FS) {
  const Expr *Cond = FS->getCond();
  const auto *B = dyn_cast_or_null<BinaryOperator>(strip(Cond));
  if (B && refersTo(B->getLHS(), Form.IndexVar) &&
      !refersTo(B->getRHS(), Form.IndexVar)) {
    Form.Hi = B->getRHS();
    switch (B->getOpcode()) {
    case BO_LT:
      Form.Bound = IndexBound::Below;
      return true;
    case BO_LE:
      Form.Bound = IndexBound::UpTo;
      return true;
    case BO_NE:
      Form.Bound = IndexBound::Until;
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
bool Recogniser::indexInit(const ForStmt *FS) {
  const Stmt *Init = FS->getInit();
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
    if (DS->isSingleDecl())
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()))
        if (V->getInit()) {
          Form.IndexVar = V;
          Form.Lo = V->getInit();
        }
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init)) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(BO->getLHS())))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
          Form.IndexVar = V;
          Form.Lo = BO->getRHS();
        }
  }
  if (!Form.IndexVar || !Form.IndexVar->getType()->isIntegerType())
    return expectIndexForm(Init ? Init->getBeginLoc() : FS->getForLoc(),
                           FS->getForLoc(),
                           "the loop must start by setting one integer index");
  return true;
}

/// Increment: ++i, i++, i += 1.
bool Recogniser::indexIncrement(const ForStmt *FS) {
  const Expr *Inc = FS->getInc();
  bool IncOK = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(strip(Inc)))
    IncOK = U->isIncrementOp() && refersTo(U->getSubExpr(), Form.IndexVar);
  if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(strip(Inc))) {
    Expr::EvalResult R;
    IncOK = B->getOpcode() == BO_AddAssign &&
            refersTo(B->getLHS(), Form.IndexVar) &&
            B->getRHS()->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 1;
  }
  if (!IncOK)
    return expectIndexForm(Inc ? Inc->getBeginLoc() : FS->getForLoc(),
                           FS->getForLoc(),
                           Inc ? "the loop's increment is '" + text(Inc) + "'"
                               : "the loop has no increment");
  return true;
}

/// The index and the bound must not change in the body.
bool Recogniser::indexInvariant(const ForStmt *FS) {
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

/// The one variable every use of the target name refers to, unqualified.
bool Recogniser::targetDecl(const ForStmt *FS,
                            const std::vector<const Expr *> &Uses) {
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
bool Recogniser::targetElement() {
  QualType TargetType =
      cast<ValueDecl>(Form.Target)->getType().getNonReferenceType();
  QualType Elem = targetArrayElement(Ctx, TargetType);
  if (Elem.isNull() || !recordOf(Elem) || recordOf(Elem)->isUnion())
    return fail(Target->Range.getBegin(),
                {diag::err_form_target_not_structs, {Form.TargetName}},
                Form.Target->getLocation(),
                Msg(diag::note_form_target_not_structs,
                    {qualifiedName(Ctx, TargetType)}));
  Form.ElementType = withoutMemberTypedefs(Elem).getUnqualifiedType();
  Form.Element = recordOf(Elem);
  Form.VarIsConst = Elem.isConstQualified();
  return true;
}

/// The terms c of a subscript `i + c` (`i`, `i - first`, `(i - 1) + k`,
/// `k + i`), each with whether it is subtracted; nullopt when the subscript
/// is not the index plus loop-invariant terms.
std::optional<std::vector<std::pair<bool, const Expr *>>>
Recogniser::offsetTerms(const Expr *E) {
  E = strip(E);
  if (refersTo(E, Form.IndexVar))
    return std::vector<std::pair<bool, const Expr *>>{};
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
/// bound: indexInvariant).
bool Recogniser::invariantTerm(const Expr *T) {
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
  } V(Form.IndexVar, Form.Loop, Ctx.getSourceManager());
  V.TraverseStmt(const_cast<Expr *>(T));
  return V.OK;
}

/// Whether two subscripts of the target name the same element: the same
/// terms in the same order, equal constants or the same expressions.
bool Recogniser::sameElement(const Expr *Use, const Expr *Subscript) {
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

/// A use of the target that does not reach the current element: another
/// element (`name[k]`, k free of the index) or a const query of the whole
/// (`name.size()`). It stays as written, on the target itself; what it
/// reaches of an element is a foreign access, checked against the view.
bool Recogniser::otherElementUse(const Expr *U, const Stmt *P,
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

/// The list of a neighbour-list subscript `list[i + c]`, with Index set to
/// its `i + c`; null (Index unchanged) for any other subscript. The list is
/// a local variable or parameter holding integers (a pointer, an array, a
/// std::vector): the body may not change it (checks: the container rule).
const DeclRefExpr *Recogniser::listOf(const Expr *&Index) {
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

/// Every use of the element goes through one list, or none does.
bool Recogniser::sameList(const Expr *U, const Stmt *P,
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
bool Recogniser::targetUses(const ForStmt *FS,
                            const std::vector<const Expr *> &Uses) {
  ParentMap PM(const_cast<Stmt *>(Form.Body));
  for (const Expr *U : Uses) {
    const Stmt *P = PM.getParentIgnoreParenImpCasts(const_cast<Expr *>(U));
    if (!P) // inside a type (`decltype(buf[i].x) t`): outside the statements
      P = typeOperandParent(Ctx, U);
    const Expr *Index = nullptr;
    if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(P))
      if (strip(AS->getBase()) == U)
        Index = AS->getIdx();
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P))
      if (OC->getOperator() == OO_Subscript && strip(OC->getArg(0)) == U)
        Index = OC->getArg(1);
    if (Index && !refersTo(Index, Form.IndexVar) &&
        otherLoopsIndex(Ctx, Index, Form.IndexVar, Form.TargetName, All))
      continue;
    if (otherElementUse(U, P, Index)) { // the outermost loop renames it
      if (!enclosedByTargetLoop(Ctx, Form.Loop, Form.TargetName, All))
        Form.OriginalUses.push_back({cast<DeclRefExpr>(strip(U)), P});
      continue;
    }
    const DeclRefExpr *List = Index ? listOf(Index) : nullptr;
    if (!sameList(U, P, List))
      return false;
    if (!Index || !offsetTerms(Index))
      return fail(
          U->getExprLoc(),
          {diag::err_form_target_other_use,
           {Form.TargetName, text(P ? P : U), Form.IndexVar->getName().str()}},
          FS->getForLoc(), Msg(diag::note_form_target_other_use));
    if (Form.Subscript && !sameElement(Index, Form.Subscript))
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

} // namespace

std::optional<LoopForm> recogniseLoop(ASTContext &Ctx, const Stmt *Loop,
                                      const FunctionDecl *Fn,
                                      const LoopAnnotation &A,
                                      const AnnotationCollector &All,
                                      DiagStore &Diags) {
  return Recogniser(Ctx, A, All, Diags).run(Loop, Fn);
}

/// The statement of Body that starts at For (a template's pattern keeps the
/// locations of its instantiations).
static const Stmt *loopAt(const Stmt *Body, SourceLocation For) {
  if (!Body)
    return nullptr;
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Body);
      RF && RF->getForLoc() == For)
    return RF;
  if (const auto *FS = dyn_cast<ForStmt>(Body); FS && FS->getForLoc() == For)
    return FS;
  for (const Stmt *Child : Body->children())
    if (const Stmt *Found = loopAt(Child, For))
      return Found;
  return nullptr;
}

/// Whether the pattern's loop names its target (`gates` of `gates[i]`)
/// with a type known in the pattern.
static bool nondependentTarget(const Stmt *Loop, StringRef Target) {
  struct Find : RecursiveASTVisitor<Find> {
    StringRef Name;
    std::optional<bool> Known;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (!Known && E->getDecl()->getName() == Name)
        Known = !E->isTypeDependent();
      return !Known;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      if (!Known && E->getMemberDecl()->getDeclName().isIdentifier() &&
          E->getMemberDecl()->getName() == Name)
        Known = !E->isTypeDependent();
      return !Known;
    }
  } F;
  F.Name = Target;
  F.TraverseStmt(const_cast<Stmt *>(Loop));
  return F.Known.value_or(false);
}

/// A range-for, an iterator loop or an index loop in a template whose
/// range's type (the iterator's, the target's) is known in the pattern.
static bool nondependentRange(const LoopInstance &I, const LoopForm &F) {
  const FunctionDecl *Pattern = I.Fn->getTemplateInstantiationPattern();
  if (!Pattern)
    return false;
  const Stmt *Written = loopAt(Pattern->getBody(),
                               F.Kind == LoopFormKind::Range
                                   ? cast<CXXForRangeStmt>(I.Loop)->getForLoc()
                                   : cast<ForStmt>(I.Loop)->getForLoc());
  if (F.Kind == LoopFormKind::Index)
    return Written && nondependentTarget(Written, F.TargetName);
  if (const auto *RF = dyn_cast_or_null<CXXForRangeStmt>(Written))
    return RF->getRangeInit() && !RF->getRangeInit()->isTypeDependent();
  const auto *FS = dyn_cast_or_null<ForStmt>(Written);
  const auto *DS = FS ? dyn_cast_or_null<DeclStmt>(FS->getInit()) : nullptr;
  const auto *V = DS && DS->isSingleDecl()
                      ? dyn_cast<VarDecl>(DS->getSingleDecl())
                      : nullptr;
  return V && V->getInit() && !V->getInit()->isTypeDependent() &&
         !V->getType()->isDependentType();
}

RecognisedLoop recognisedLoop(ASTContext &Ctx, const LoopInstance &I,
                              LoopForm F) {
  RecognisedLoop L;
  L.Annotation = I.Annotation;
  L.Form = std::move(F);
  if (const AttrUse *H = I.Annotation->get(AttrKind::Hoist)) {
    L.HoistTo = enclosingLoops(Ctx, I.Loop)[H->Hoist - 1]; // checked
    L.HoistLevels = (unsigned)H->Hoist;
  }
  L.InTemplate = I.Fn->getTemplateInstantiationPattern() != nullptr ||
                 I.Fn->isTemplateInstantiation();
  L.NondependentRange = L.InTemplate && nondependentRange(I, L.Form);
  return L;
}

const Stmt *nestRoot(ASTContext &Ctx,
                     const std::vector<RecognisedLoop> &Loops) {
  SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Root = nullptr;
  for (const RecognisedLoop &L : Loops)
    if (L.HoistTo && (!Root || contains(SM, L.HoistTo, Root)) &&
        contains(SM, L.HoistTo, Loops[0].Form.Loop))
      Root = L.HoistTo;
  return Root;
}

} // namespace soaview
