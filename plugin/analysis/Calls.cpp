//===- Calls.cpp - calls that receive an element ------------------------===//
//
// A call whose argument is an element: member operators of the element are
// its methods, lambdas written in analysed code are analysed where written
// (a lambda written elsewhere is a function template: a generic one
// instantiates with the view, one taking the element by its own type is
// made generic where it is written, analysis/TypedLambdas.cpp); free
// functions, function templates and member functions of other classes
// (functors: the element is an argument, not the object) are followed into
// (all element arguments bound at once, each function analysed once per
// binding of its parameters to views); virtual calls that may dispatch
// elsewhere refuse the nest.
// Tests: test/Rewrite/callee-clone.cpp, test/Sema/refusals-uses.cpp.
//===----------------------------------------------------------------------===//
#include "analysis/Analyzer.h"
#include "analysis/Rules.h"

#include "support/AstHelpers.h"

using namespace clang;

namespace soaview {
namespace analysis {

/// The callee's kind decides how an element argument is followed: member
/// operators of the element are its methods, lambdas given the element are
/// analysed where written (both handled here); free functions and templates
/// are followed (nullopt).
std::optional<CallFollower::CallOutcome>
CallFollower::specialCallee(const CallExpr *C, const Expr *Arg, unsigned ArgIdx,
                            Kind K, const Binding &B, ParentMap &PM) {
  const FunctionDecl *FD = C->getDirectCallee();
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (OC && MD && ArgIdx == 0) { // member operator on the element
    State.BoundCalls.insert(C);
    if (K != Kind::Lvalue) { // operands of member operators are lvalues
      State.refuse(Arg->getExprLoc(), diag::err_use_unsupported, {},
                   Msg(diag::note_use_only_fields));
      return CallOutcome{};
    }
    method(MD, B, C->getExprLoc(), C, PM);
    CallOutcome Outcome{!State.Failed, std::nullopt};
    QualType Returned = MD->getReturnType();
    if (Outcome.Accepted &&
        (Returned->isReferenceType() || Returned->isPointerType()) &&
        State.isRecordOf(Returned->getPointeeType()->getAsRecordDecl(), B.View))
      Outcome.Continues = ElementExpr{
          C, Returned->isPointerType() ? Kind::Pointer : Kind::Lvalue};
    return Outcome;
  }
  bool Lambda = MD && MD->getParent()->isLambda();
  if (Lambda && ArgIdx >= 1 && ArgIdx - 1 < MD->getNumParams() &&
      State.LambdaParams.count(MD->getParamDecl(ArgIdx - 1))) {
    State.BoundCalls.insert(C);
    return CallOutcome{true, std::nullopt}; // analysed where it is written
  }
  if (Lambda && State.WrittenClosures.count(MD->getParent())) {
    State.refuse(Arg->getExprLoc(), diag::err_use_lambda_shared,
                 MD->getLocation(), Msg(diag::note_use_lambda_shared));
    return CallOutcome{};
  }
  // A lambda written elsewhere is followed like a function template: a
  // generic one instantiates with the view, a typed one becomes generic.
  if (MD && MD->isVirtual() && !devirtualized(C, MD) && !guardDispatch(C, MD)) {
    const Stmt *Nest =
        State.In.Root ? State.In.Root : State.In.Loops[0].Form.Loop;
    Msg Note(copiesAsWritten(Nest) ? diag::note_use_virtual_method
                                   : diag::note_use_virtual_copy);
    if (MD->isPureVirtual())
      Note = Msg(diag::note_use_virtual_pure, {MD->getQualifiedNameAsString()});
    State.refuse(
        Arg->getExprLoc(),
        {diag::err_use_virtual_method, {MD->getQualifiedNameAsString()}},
        MD->getLocation(), Note);
    return CallOutcome{};
  }
  return std::nullopt;
}

/// Whether a call of the virtual member MD runs MD itself whatever the
/// object: a qualified call (`Base::f(...)`), a final method or class, or
/// an object whose dynamic type is its static type. The clone of a member
/// is a member template, never virtual.
bool CallFollower::devirtualized(const CallExpr *C, const CXXMethodDecl *MD) {
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (ME && ME->hasQualifier())
      return true;
    Object = MC->getImplicitObjectArgument();
  } else if (isa<CXXOperatorCallExpr>(C) && C->getNumArgs() > 0) {
    Object = C->getArg(0);
  }
  return Object && MD->getDevirtualizedMethod(Object, false) == MD;
}

/// In a template, a guarded object must be a parameter declared as a
/// pointer (`F *f`) when Pointer, as no pointer otherwise, so that it is the
/// same in every instantiation: one rewrite of the template serves them all.
static bool samePointernessInPattern(const FunctionDecl *Fn, const VarDecl *V,
                                     bool Pointer) {
  const auto *PV = dyn_cast<ParmVarDecl>(V);
  const FunctionDecl *Pattern = Fn->getTemplateInstantiationPattern();
  if (!PV || !Pattern || PV->getFunctionScopeIndex() >= Pattern->getNumParams())
    return false;
  QualType Written = Pattern->getParamDecl(PV->getFunctionScopeIndex())
                         ->getType()
                         .getNonReferenceType();
  return Written->isPointerType() == Pointer;
}

/// Whether the virtual call C of MD, written in the nest's own code on a
/// variable (a reference or object, or a pointer the nest does not change)
/// declared before the nest, can run MD under a check of the object's
/// dynamic type when the nest starts (recorded in Out.Guards). Not without
/// RTTI, nor for a nest whose copy as written would duplicate a static
/// variable or a label.
bool CallFollower::guardDispatch(const CallExpr *C, const CXXMethodDecl *MD) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(C);
  const Stmt *Nest =
      State.In.Root ? State.In.Root : State.In.Loops[0].Form.Loop;
  const FunctionDecl *Fn = State.In.Loops[0].Form.Function;
  if (!MC || !State.Ctx.getLangOpts().RTTI || !copiesAsWritten(Nest) ||
      MD->isPureVirtual())
    return false; // no object is exactly of a class with a pure virtual
  const Expr *Object = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(Object))
    return guardMember(C, MD, ME);
  if (State.CurrentFunction != Fn || !contains(State.SM, Nest, C))
    return false;
  bool Pointer = Object->getType()->isPointerType();
  if (const auto *U = dyn_cast<UnaryOperator>(Object);
      U && U->getOpcode() == UO_Deref) {
    Object = U->getSubExpr()->IgnoreParenImpCasts();
    Pointer = true;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Object);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !State.SM.isBeforeInTranslationUnit(V->getLocation(),
                                                Nest->getBeginLoc()))
    return false;
  if (State.In.InTemplate && !samePointernessInPattern(Fn, V, Pointer))
    return false;
  QualType T = V->getType().getNonReferenceType();
  const CXXRecordDecl *Static =
      Pointer ? T->getPointeeCXXRecordDecl() : T->getAsCXXRecordDecl();
  if (!Static || !Static->hasDefinition() || Static->isAbstract() ||
      MD->getCorrespondingMethodInClass(Static) != MD)
    return false;
  if (Pointer) { // the pointer must stay as it is for the whole nest
    if (!T->isPointerType() || !V->hasLocalStorage())
      return false;
    ParentMap PM(const_cast<Stmt *>(Nest));
    for (const DeclRefExpr *U :
         findVarUses(Nest, [&](const VarDecl *W) { return W == V; })) {
      const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(PM.getParent(U));
      if (!Read || Read->getCastKind() != CK_LValueToRValue)
        return false;
    }
  }
  return addGuard({V, Pointer, Static, MD, C->getExprLoc()});
}

bool CallFollower::addGuard(const DispatchGuard &G) {
  for (const DispatchGuard &O : State.Out.Guards)
    if (O.Object == G.Object)
      return true;
  State.Out.Guards.push_back(G);
  return true;
}

/// Whether Cur runs with the `this` of Fn, the member function holding the
/// nest: Fn itself, or a lambda written in it that captures `this`
/// (`[this](auto &a, auto &b) { functor.AoSFunctor(a, b); }`, AutoPas's
/// CellFunctor).
static bool runsWithThisOf(const FunctionDecl *Cur, const FunctionDecl *Fn) {
  const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
  if (!Method || !Method->isInstance())
    return false;
  while (Cur != Fn) {
    const auto *Op = dyn_cast_or_null<CXXMethodDecl>(Cur);
    const CXXRecordDecl *Closure = Op ? Op->getParent() : nullptr;
    if (!Closure || !Closure->isLambda() ||
        llvm::none_of(Closure->captures(), [](const LambdaCapture &LC) {
          return LC.capturesThis();
        }))
      return false;
    Cur = dyn_cast<FunctionDecl>(Closure->getDeclContext());
  }
  return true;
}

/// Whether member F is declared a reference where it is written (in a class
/// template, in the template itself: one rewrite serves every
/// instantiation, and `T f;` is a reference only where T is one).
static bool writtenAsReference(const FieldDecl *F) {
  const CXXRecordDecl *Pattern =
      cast<CXXRecordDecl>(F->getParent())->getTemplateInstantiationPattern();
  if (!Pattern)
    return F->getType()->isReferenceType();
  for (const FieldDecl *PF : Pattern->fields())
    if (PF->getName() == F->getName())
      return PF->getType()->isReferenceType();
  return false;
}

/// The virtual call C of MD on a reference member of the nest's object
/// (`this->functor.AoSFunctor(...)`), in the nest's function or a lambda
/// there capturing `this`: a reference is never reseated, so the object's
/// dynamic type is the same for the whole nest, wherever the call is.
bool CallFollower::guardMember(const CallExpr *C, const CXXMethodDecl *MD,
                               const MemberExpr *ME) {
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
      !writtenAsReference(F) ||
      !runsWithThisOf(State.CurrentFunction, State.In.Loops[0].Form.Function))
    return false;
  const CXXRecordDecl *Static =
      F->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!Static || !Static->hasDefinition() || Static->isAbstract() ||
      MD->getCorrespondingMethodInClass(Static) != MD)
    return false;
  return addGuard({F, false, Static, MD, C->getExprLoc()});
}

/// The parameter receiving the element: by reference or pointer, of the
/// element's own type.
bool CallFollower::elementParam(const CallExpr *C, const Expr *Arg,
                                unsigned ParamIdx, const Binding &B) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (ParamIdx >= FD->getNumParams()) {
    State.refuse(Arg->getExprLoc(), diag::err_use_variadic, {},
                 Msg(diag::note_use_variadic));
    return false;
  }
  const ParmVarDecl *PD = FD->getParamDecl(ParamIdx);
  QualType ParamType = PD->getType();
  if (!ParamType->isReferenceType() && !ParamType->isPointerType()) {
    // Unreached for class types (the copy is refused first), kept for safety.
    State.refuse(Arg->getExprLoc(), diag::err_use_copied, PD->getLocation(),
                 Msg(diag::note_use_copied));
    return false;
  }
  const RecordDecl *Received = ParamType->getPointeeType()->getAsRecordDecl();
  if (!Received || Received->getCanonicalDecl() !=
                       State.view(B).Element->getCanonicalDecl()) {
    State.refuse(
        Arg->getExprLoc(),
        {diag::err_use_param_type,
         {qualifiedName(State.Ctx, ParamType), FD->getQualifiedNameAsString()}},
        PD->getLocation(), Msg(diag::note_use_param_type));
    return false;
  }
  return true;
}

/// Binds every element argument of the call to the callee's parameters
/// (`Density(local, active)` binds parameter 0 to one view and 1 to
/// another): the callee's environment and which view each parameter gets.
void CallFollower::bindArguments(const CallExpr *C, const FunctionDecl *Def,
                                 unsigned Shift, unsigned ParamIdx,
                                 const Binding &B, const Env &Caller,
                                 Env &Callee, std::vector<int> &ParamViews) {
  auto KindOf = [](QualType T) {
    return T->isPointerType() ? Kind::Pointer : Kind::Lvalue;
  };
  ParamViews.assign(Def->getNumParams(), -1);
  for (unsigned I = Shift; I < C->getNumArgs(); ++I) {
    unsigned Param = I - Shift;
    if (Param >= Def->getNumParams())
      continue;
    auto Arg = State.evalElement(C->getArg(I), Caller);
    if (!Arg)
      continue;
    QualType ParamType = Def->getParamDecl(Param)->getType();
    if (!ParamType->isReferenceType() && !ParamType->isPointerType())
      continue; // refused when that argument's own root is followed
    ParamViews[Param] = Arg->first.View;
    Callee.Vars[Def->getParamDecl(Param)] = {Arg->first, KindOf(ParamType)};
  }
  ParamViews[ParamIdx] = B.View;
  Callee.Vars[Def->getParamDecl(ParamIdx)] = {
      B, KindOf(Def->getParamDecl(ParamIdx)->getType())};
}

/// Whether the callee gets a clone taking the views or simply instantiates
/// again with the proxy types (templates whose element parameters are
/// dependent); explicit specializations are refused.
std::optional<bool>
CallFollower::needsClone(const CallExpr *C, const FunctionDecl *Def,
                         const std::vector<int> &ParamViews,
                         std::vector<unsigned> &AutoParams) {
  // An explicit specialization (`template <> void f<P>(P &)`) has no
  // instantiation pattern, and a clone of it would specialize nothing.
  if (Def->getTemplateSpecializationKind() == TSK_ExplicitSpecialization) {
    State.refuse(C->getExprLoc(), diag::err_use_explicit_specialization, {},
                 Msg(diag::note_use_explicit_specialization));
    return std::nullopt;
  }
  // A function template whose element parameters are all dependent
  // instantiates with the views as it is; anything else (functions,
  // members of class templates, templates taking the element by its own
  // type) gets a clone.
  // Dependence is on the function template's own parameters: a member
  // template of a class template specialization is declared with the
  // class's arguments in place.
  const FunctionTemplateDecl *Primary = Def->getPrimaryTemplate();
  const FunctionDecl *Declared = Primary ? Primary->getTemplatedDecl() : Def;
  std::vector<unsigned> Typed; // element parameters of their own type
  for (unsigned I = 0; I < ParamViews.size(); ++I)
    if (ParamViews[I] >= 0 &&
        (!Primary || I >= Declared->getNumParams() ||
         !Declared->getParamDecl(I)->getType()->isDependentType()))
      Typed.push_back(I);
  // A closure class takes no members: a lambda written elsewhere takes
  // every element through an `auto` parameter, as written or made so.
  const auto *MD = dyn_cast<CXXMethodDecl>(Def);
  if (Typed.empty() || !MD || !MD->getParent()->isLambda())
    return !Typed.empty();
  if (!typedLambda(C, MD, ParamViews, Typed))
    return std::nullopt;
  AutoParams = Typed;
  return false;
}

/// A free function or function template receiving the element as argument
/// ArgIdx: binds all element arguments at once, records the callee (once
/// per binding of its parameters) and analyses its body with them.
bool CallFollower::followCallee(const CallExpr *C, const Expr *Arg,
                                unsigned ArgIdx, const Binding &B,
                                const Env &Scope, ParentMap &PM) {
  const FunctionDecl *FD = C->getDirectCallee();
  unsigned Shift =
      isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) ? 1 : 0;
  unsigned ParamIdx = ArgIdx - Shift;
  if (ParamIdx < FD->getNumParams() &&
      keepsAddress(State.SM, FD, FD->getParamDecl(ParamIdx), Arg)) {
    State.refuse(
        Arg->getExprLoc(),
        {diag::err_use_address_escapes, {FD->getQualifiedNameAsString()}}, {},
        Msg(diag::note_use_address_escapes));
    return false;
  }
  if (ParamIdx < FD->getNumParams() && // variadic calls are refused below
      State.refused(calleeRefusal(State.SM, FD, C->getExprLoc(),
                                  "a function receiving the element")))
    return false;
  if (!elementParam(C, Arg, ParamIdx, B))
    return false;
  State.BoundCalls.insert(C);
  if (!State.BoundUnder.insert({State.CurrentKey, C}).second)
    return true; // every argument of this call was bound at once
  const FunctionDecl *Def = nullptr;
  FD->hasBody(Def);
  if (Def->getLocation().isMacroID()) {
    State.refuse(C->getExprLoc(),
                 {diag::err_use_macro_callee, {FD->getQualifiedNameAsString()}},
                 {}, Msg(diag::note_use_macro_callee));
    return false;
  }
  Env Callee;
  std::vector<int> ParamViews;
  bindArguments(C, Def, Shift, ParamIdx, B, Scope, Callee, ParamViews);
  std::vector<unsigned> AutoParams;
  std::optional<bool> Clone = needsClone(C, Def, ParamViews, AutoParams);
  if (!Clone)
    return false;
  auto Key = std::make_pair(Def, ParamViews);
  if (!State.CalleeIndex.count(Key)) {
    State.CalleeIndex[Key] = State.Out.Callees.size();
    State.Out.Callees.push_back({Def, ParamViews, *Clone, AutoParams});
  }
  Access.resultUse(keyOf(Def, Callee), C, PM);
  State.enqueue(Def, Callee);
  return true;
}

/// A member function reached with `this` bound to the element (or one of
/// its sub-objects): copied into the proxy and analysed.
void CallFollower::method(const CXXMethodDecl *MD, const Binding &B,
                          SourceLocation Use, const CallExpr *Call,
                          ParentMap &PM) {
  std::string Name = MD->getQualifiedNameAsString();
  const auto *Callee =
      Call ? dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens()) : nullptr;
  bool Qualified = Callee && Callee->hasQualifier(); // no dynamic dispatch
  if (MD->isVirtual() && !Qualified && !MD->hasAttr<FinalAttr>() &&
      !MD->getParent()->hasAttr<FinalAttr>())
    return State.refuse(Use, {diag::err_use_virtual, {Name}}, MD->getLocation(),
                        Msg(diag::note_use_virtual));
  if (MD->getDeclName().isIdentifier() &&
      MD->getName().starts_with(ReservedPrefix))
    return State.refuse(Use,
                        {diag::err_member_reserved, {MD->getNameAsString()}},
                        MD->getLocation(), Msg(diag::note_member_reserved));
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def)
    return State.refuse(Use, {diag::err_use_method_invisible, {Name}},
                        MD->getLocation(),
                        Msg(diag::note_use_method_invisible));
  if (State.SM.isInSystemHeader(Def->getLocation()) ||
      Def->getLocation().isMacroID())
    return State.refuse(Use, {diag::err_use_method_uncopyable, {Name}},
                        Def->getLocation(),
                        Msg(diag::note_use_method_uncopyable));
  if (isa<CXXConstructorDecl>(MD) || isa<CXXDestructorDecl>(MD))
    return State.refuse(Use, diag::err_use_ctor_dtor, {},
                        Msg(diag::note_use_only_fields));
  const auto *MDef = cast<CXXMethodDecl>(Def);
  State.view(B).Methods[B.Path].insert(MDef);
  Env Scope;
  Scope.HasThis = true;
  Scope.This = B;
  // A method returning the element again (`*this`) is walked on instead.
  QualType Pointee = MD->getReturnType()->getPointeeType();
  if (Pointee.isNull() || !State.isRecordOf(Pointee->getAsRecordDecl(), B.View))
    Access.resultUse(keyOf(MDef, Scope), Call, PM);
  State.enqueue(MDef, Scope);
}

CallFollower::CallOutcome CallFollower::call(const CallExpr *C, const Expr *Arg,
                                             Kind K, const Binding &B,
                                             Env &Scope, ParentMap &PM) {
  if (C->getCallee()->IgnoreParenImpCasts() == Arg->IgnoreParenImpCasts() ||
      C->getCallee() == Arg) { // class types are called through operator()
    State.refuse(Arg->getExprLoc(), diag::err_use_unsupported, {},
                 Msg(diag::note_use_only_fields));
    return {};
  }
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD) {
    State.refuse(C->getBeginLoc(), diag::err_use_indirect_call,
                 C->getBeginLoc(), Msg(diag::note_use_indirect_call));
    return {};
  }
  unsigned ArgIdx = 0;
  while (ArgIdx < C->getNumArgs() && C->getArg(ArgIdx) != Arg)
    ++ArgIdx;
  if (std::optional<CallOutcome> Special =
          specialCallee(C, Arg, ArgIdx, K, B, PM))
    return *Special;
  return {followCallee(C, Arg, ArgIdx, B, Scope, PM), std::nullopt};
}

} // namespace analysis
} // namespace soaview
