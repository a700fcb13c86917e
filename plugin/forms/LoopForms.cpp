//===- LoopForms.cpp - recognise the loop shapes soaview converts ---------===//
//
// Range-for over anything with begin/end whose elements are structs or
// pointers to structs (forms/RangeForm.cpp); iterator loops
// (forms/IteratorForm.cpp); index loops `for (i = lo; i < n; ++i)` (also
// `<=`, `!=`) over T*, T[N] or std::vector<T> named by soa_conversion_target,
// indexed `name[i + c]` (forms/IndexForm.cpp). This file picks the shape
// and refuses the attributes that do not fit it; anything else is refused
// with the form found and the form expected.
// Tests: test/Sema/loop-forms.cpp, test/Sema/iterator-loops.cpp.
//===----------------------------------------------------------------------===//
#include "forms/LoopForms.h"

#include "diag/Diagnostics.h"
#include "forms/FormSteps.h"
#include "forms/IndexForm.h"
#include "forms/IteratorForm.h"
#include "forms/RangeForm.h"
#include "frontend/Annotations.h"
#include "support/Ancestors.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

namespace {

/// Whether the variable the loop's init sets is an integer (or there is
/// none: the index form says what is missing); else the loop steps an
/// iterator.
bool steppedVarIsIndex(const ForStmt *FS) {
  const VarDecl *V = steppedVar(FS);
  return !V || V->getType()->isIntegerType() || V->getType()->isDependentType();
}

/// Recognises one loop: picks its shape (range, index or iterator loop) by
/// the statement and the variable it steps, refuses the attributes that do
/// not fit that shape, and hands the loop to the shape's recogniser.
class Recogniser : FormStep {
public:
  Recogniser(const FormStep &Step, const LoopAnnotation &A,
             const AnnotationCollector &All)
      : FormStep(Step), All(All), Target(A.get(AttrKind::Target)),
        Hoist(A.get(AttrKind::Hoist)) {}

  std::optional<LoopForm> run(const Stmt *Loop, const FunctionDecl *Fn) {
    Form.Loop = Loop;
    Form.Function = Fn;
    bool OK;
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop))
      OK = range(RF);
    else if (const auto *FS = dyn_cast<ForStmt>(Loop))
      OK = steppedVarIsIndex(FS)
               ? recogniseIndex(Ctx, FS, Target, All, Form, Diags)
               : iterator(FS);
    else
      OK = expectIndexForm(Loop->getBeginLoc(), Loop->getBeginLoc(),
                           "not a for loop");
    if (!OK)
      return std::nullopt;
    return Form;
  }

private:
  bool range(const CXXForRangeStmt *RF);
  bool iterator(const ForStmt *FS);

  const AnnotationCollector &All;
  const AttrUse *Target;
  const AttrUse *Hoist; ///< soa_conversion_hoist, if written
  LoopForm Form;
};

/// A range loop, which soa_conversion_target does not fit.
bool Recogniser::range(const CXXForRangeStmt *RF) {
  if (Target)
    return fail(Target->Range.getBegin(), Msg(diag::err_form_target_on_range),
                RF->getForLoc(), Msg(diag::note_form_target_on_range));
  return recogniseRange(Ctx, RF, Form, Diags);
}

/// An iterator loop, which soa_conversion_target does not fit, nor
/// soa_conversion_hoist when its begin may have side effects.
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

} // namespace

std::optional<LoopForm> recogniseLoop(ASTContext &Ctx, const Stmt *Loop,
                                      const FunctionDecl *Fn,
                                      const LoopAnnotation &A,
                                      const AnnotationCollector &All,
                                      DiagStore &Diags) {
  return Recogniser(FormStep(Ctx, Diags), A, All).run(Loop, Fn);
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
