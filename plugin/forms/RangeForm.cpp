//===- RangeForm.cpp - recognise range loops ------------------------------===//
//
// A range loop converts when its variable (or the one binding of a
// structured binding that is a struct or a pointer to one) names the
// element, and the body uses it as that form allows: a reference to the
// container's pointer only read, a reference wrapper only unwrapped.
// Anything else is refused with the form found and the form expected.
//===----------------------------------------------------------------------===//
#include "forms/RangeForm.h"

#include "diag/Diagnostics.h"
#include "forms/FormSteps.h"
#include "support/Ancestors.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace soaview {

namespace {

/// A range-for variable's initializer without its implicit nodes and the
/// copy's constructor of one argument, where it copies.
const Expr *withoutCopy(const Expr *Init) {
  Init = Init->IgnoreImplicit();
  if (const auto *C = dyn_cast<CXXConstructExpr>(Init))
    if (C->getNumArgs() == 1)
      return C->getArg(0)->IgnoreImplicit();
  return Init;
}

/// Whether `*it`, the initializer of a range-for's variable (copied for
/// `auto [a, b]`), is a temporary rather than an element the range holds.
bool yieldsTemporaries(const Expr *Init) {
  return Init && withoutCopy(Init)->isPRValue();
}

/// The type a `std::reference_wrapper<T>` refers to (`T`, const kept), or
/// null for any other type.
QualType referredBy(QualType T) {
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
const CXXMemberCallExpr *elementConversion(const Expr *Init) {
  if (!Init)
    return nullptr;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(withoutCopy(Init));
  return MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl())
             ? MC
             : nullptr;
}

/// `(void)p;`: a use that does nothing.
bool discarded(const Stmt *Parent) {
  const auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(Parent);
  return Cast && Cast->getCastKind() == CK_ToVoid;
}

/// Answers whether the body uses a range loop's variable as its form
/// allows: a reference to the container's pointer only read, a reference
/// wrapper only unwrapped (each unwrapping is the element).
class LoopVarUses : FormStep {
public:
  LoopVarUses(const FormStep &Step, LoopForm &Form)
      : FormStep(Step), Form(Form), PM(const_cast<Stmt *>(Form.Body)) {}

  bool pointerOnlyRead();
  bool wrapperUses();

private:
  const Stmt *shown(const Expr *Use) const;
  const Stmt *parentOf(const Stmt *S) const;
  const Stmt *usedIn(const Expr *&E) const;
  std::vector<const DeclRefExpr *> loopVarUses() const {
    return findVarUses(Form.Body,
                       [&](const VarDecl *V) { return V == Form.LoopVar; });
  }

  LoopForm &Form;
  ParentMap PM; ///< of the body
};

/// The smallest expression or statement around Use that is more than it:
/// what a refusal quotes (`p = q` of `p`).
const Stmt *LoopVarUses::shown(const Expr *Use) const {
  const Stmt *Shown = Use;
  while (Shown->getSourceRange() == Use->getSourceRange())
    if (const Stmt *P = parentOf(Shown))
      Shown = P;
    else
      break;
  return Shown;
}

/// The parent of S in the body's ParentMap, or for an operand of a type
/// (`decltype(p->x) t`), which that map does not reach, in the
/// ASTContext's.
const Stmt *LoopVarUses::parentOf(const Stmt *S) const {
  if (const Stmt *P = PM.getParent(const_cast<Stmt *>(S)))
    return P;
  return firstParent(Ctx, *S).get<Stmt>();
}

/// The first parent of E that is not a parenthesis or a cast adjusting
/// qualifiers; E becomes its child.
const Stmt *LoopVarUses::usedIn(const Expr *&E) const {
  while (true) {
    const Stmt *P = parentOf(E);
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
    if (!isa_and_nonnull<ParenExpr>(P) &&
        !(Cast && Cast->getCastKind() == CK_NoOp))
      return P;
    E = cast<Expr>(P);
  }
}

/// `for (P *&p : v)`: a reference to the container's pointer. The frame
/// reads the container's pointers before the loop starts, so the body may
/// only read `p` (`p->x`, `*p`, a copy); anything else (`p = q`, `++p`,
/// `&p`) could change which element the container holds.
bool LoopVarUses::pointerOnlyRead() {
  for (const DeclRefExpr *Use : loopVarUses()) {
    const Expr *E = Use;
    const Stmt *P = usedIn(E);
    const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(P);
    if ((Read && Read->getCastKind() == CK_LValueToRValue) || discarded(P) ||
        isa_and_nonnull<LambdaExpr>(P)) // its uses in the lambda are checked
      continue;
    std::string Name = Form.LoopVar->getName().str();
    return fail(Use->getLocation(),
                {diag::err_form_pointer_reference,
                 {Name, writtenText(Ctx, shown(Use)->getSourceRange())}},
                Use->getLocation(),
                Msg(diag::note_form_pointer_reference, {Name}));
  }
  return true;
}

/// `for (auto &r : refs)` over `std::reference_wrapper<T>`: every use of
/// `r` is `r.get()` or its conversion to `T &`, each of which is the
/// element (Form.TargetUses).
bool LoopVarUses::wrapperUses() {
  for (const DeclRefExpr *Use : loopVarUses()) {
    const Expr *E = Use;
    const auto *ME = dyn_cast_or_null<MemberExpr>(usedIn(E));
    const auto *MD =
        ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
    const auto *Call =
        ME ? dyn_cast_or_null<CXXMemberCallExpr>(parentOf(ME)) : nullptr;
    if (Call && MD && isa<CXXConversionDecl>(MD)) { // `T &e = r`
      const Expr *Element = Call;
      if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(parentOf(Call));
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
    if (discarded(parentOf(Use)))
      continue;
    std::string Name = Form.LoopVar->getName().str();
    return fail(Use->getLocation(),
                {diag::err_form_wrapper_use,
                 {Name, writtenText(Ctx, shown(Use)->getSourceRange())}},
                Use->getLocation(), Msg(diag::note_form_wrapper_use, {Name}));
  }
  return true;
}

/// Recognises a range loop: its variable or binding, and the element type
/// behind it (the body's uses of the variable: LoopVarUses).
class RangeRecogniser : FormStep {
public:
  RangeRecogniser(const FormStep &Step, LoopForm &Form)
      : FormStep(Step), Form(Form) {}

  bool run(const CXXForRangeStmt *RF);

private:
  bool rangeElement();
  bool bindings(const DecompositionDecl *DD);
  bool structElement();
  /// The element a range loop's variable (or binding) names, of type Elem.
  void setElement(QualType Elem) {
    Form.VarIsConst = Elem.isConstQualified();
    Form.ElementType = withoutMemberTypedefs(Elem).getUnqualifiedType();
    Form.Element = recordOf(Form.ElementType);
  }

  LoopForm &Form;
};

bool RangeRecogniser::run(const CXXForRangeStmt *RF) {
  Form.Kind = LoopFormKind::Range;
  Form.Body = RF->getBody();
  Form.LoopVar = RF->getLoopVariable();
  if (RF->getInit())
    return fail(RF->getInit()->getBeginLoc(), Msg(diag::err_form_range_init),
                RF->getInit()->getBeginLoc(), Msg(diag::note_form_range_init));
  Form.RangeInit = RF->getRangeInit();
  if (const auto *DD = dyn_cast<DecompositionDecl>(Form.LoopVar))
    return bindings(DD);
  return rangeElement();
}

/// `for (auto &[key, p] : range)`: the element is the one binding that is a
/// struct or a pointer to one; the other bindings keep binding into the
/// range's elements as written (emit/Loops.cpp).
bool RangeRecogniser::bindings(const DecompositionDecl *DD) {
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

/// The element type behind the loop variable (`auto &p`, `auto *p`, `P p`,
/// `P *&p`, `auto &r` of a `std::reference_wrapper<P>`).
bool RangeRecogniser::rangeElement() {
  QualType VarType = Form.LoopVar->getType();
  QualType Elem = VarType.getNonReferenceType();
  if (QualType Referred = referredBy(Elem); !Referred.isNull()) {
    Form.Wrapped = Form.VarIsWrapper = true;
    setElement(Referred);
    return structElement() && LoopVarUses(*this, Form).wrapperUses();
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
  return !Form.VarIsPointer || VarType->isPointerType() ||
         LoopVarUses(*this, Form).pointerOnlyRead();
}

/// The element is a struct or class.
bool RangeRecogniser::structElement() {
  SourceLocation V = Form.LoopVar->getLocation();
  if (!Form.Element || Form.Element->isUnion())
    return fail(V, Msg(diag::err_form_not_structs), V,
                Msg(diag::note_form_not_structs,
                    {qualifiedName(Ctx, Form.LoopVar->getType())}));
  return true;
}

} // namespace

bool recogniseRange(ASTContext &Ctx, const CXXForRangeStmt *RF, LoopForm &F,
                    DiagStore &Diags) {
  return RangeRecogniser(FormStep(Ctx, Diags), F).run(RF);
}

} // namespace soaview
