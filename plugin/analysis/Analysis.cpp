//===- Analysis.cpp - which fields an annotated loop reads and writes -----===//
//
// Starting from the loop variable (or the `buf[i]` expressions of an index
// loop), every use of the element is classified by walking up the AST:
// field accesses become leaves (read / written), member calls pull the member
// function into the proxy and are analysed with `this` bound to the element,
// element arguments bind the callee's parameter and analyse the callee. The
// call graph is followed to a fixpoint (each function once per binding).
// Any other use refuses the loop with a located error: soaview never guesses.
//
// Uses of element-type objects that do not come from the loop variable
// ("foreign" accesses) are collected too: they conflict with the view when
// they touch a written field, or write a viewed field.
//
// Tests: test/Rewrite/*, test/Sema/refusals.cpp.
//===----------------------------------------------------------------------===//
#include "analysis/Analysis.h"
#include "analysis/AnalysisImpl.h"

#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace soaview {
namespace detail {

bool Analyzer::isRecordOf(const RecordDecl *RD, int V) const {
  if (!RD)
    return false;
  const CXXRecordDecl *E = Nest.Loops[V].View.Element;
  if (RD->getCanonicalDecl() == E->getCanonicalDecl())
    return true;
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
    if (E->isDerivedFrom(CRD))
      return true;
  return false;
}

bool Analyzer::isElementRecord(const RecordDecl *RD) const {
  for (size_t V = 0; V < Nest.Loops.size(); ++V)
    if (isRecordOf(RD, (int)V))
      return true;
  return false;
}

std::string keyOf(const FunctionDecl *FD, const Env &E) {
  std::string K = std::to_string(reinterpret_cast<uintptr_t>(FD));
  // Deterministic within a run; never leaves the process.
  std::vector<std::pair<unsigned, std::string>> Vars;
  for (auto &V : E.Vars)
    if (const auto *P = dyn_cast<ParmVarDecl>(V.first))
      Vars.push_back({P->getFunctionScopeIndex(),
                      std::to_string(V.second.first.View) + "/" +
                          dotted(V.second.first.Path)});
  llvm::sort(Vars);
  for (auto &V : Vars)
    K += "|" + std::to_string(V.first) + ":" + V.second;
  if (E.HasThis)
    K += "|this:" + std::to_string(E.This.View) + "/" + dotted(E.This.Path);
  return K;
}

void Analyzer::enqueue(const FunctionDecl *FD, Env E, const std::string &Key) {
  if (!Seen.insert(Key).second)
    return;
  E.Fn = FD;
  Queue.push_back({FD, std::move(E)});
}

void Analyzer::method(const CXXMethodDecl *MD, const Binding &B,
                      SourceLocation Use) {
  if (MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
      !MD->getParent()->hasAttr<FinalAttr>()) {
    refuse(Use, {diag::err_use_virtual, {MD->getQualifiedNameAsString()}}, MD->getLocation(), Msg(diag::note_use_virtual));
    return;
  }
  if (MD->getDeclName().isIdentifier() &&
      MD->getName().starts_with(ReservedPrefix)) {
    refuse(Use, {diag::err_member_reserved, {MD->getNameAsString()}},
           MD->getLocation(), Msg(diag::note_member_reserved));
    return;
  }
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def) {
    refuse(Use, {diag::err_use_method_invisible, {MD->getQualifiedNameAsString()}}, MD->getLocation(), Msg(diag::note_use_method_invisible));
    return;
  }
  if (SM.isInSystemHeader(Def->getLocation()) ||
      Def->getLocation().isMacroID()) {
    refuse(Use, {diag::err_use_method_uncopyable, {MD->getQualifiedNameAsString()}}, Def->getLocation(), Msg(diag::note_use_method_uncopyable));
    return;
  }
  if (isa<CXXConstructorDecl>(MD) || isa<CXXDestructorDecl>(MD)) {
    refuse(Use, diag::err_use_ctor_dtor, {}, Msg(diag::note_use_only_fields));
    return;
  }
  const auto *MDef = cast<CXXMethodDecl>(Def);
  view(B).Methods[B.Path].insert(MDef);
  Env E;
  E.HasThis = true;
  E.This = B;
  enqueue(MDef, E, keyOf(MDef, E));
}

/// The binding of an expression that denotes a whole element (the loop
/// variable, `*p`, `&e`, `this`), or false.
bool Analyzer::evalElement(const Expr *E, const Env &En, Binding &B, Kind &K) {
  E = E->IgnoreParens();
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
    switch (IC->getCastKind()) {
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
      return evalElement(IC->getSubExpr(), En, B, K);
    default:
      return false;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (!evalElement(U->getSubExpr(), En, B, K))
      return false;
    if (U->getOpcode() == UO_Deref && K == Kind::Pointer)
      return K = Kind::Lvalue, true;
    if (U->getOpcode() == UO_AddrOf && K == Kind::Lvalue)
      return K = Kind::Pointer, true;
    return false;
  }
  if (isa<CXXThisExpr>(E)) {
    if (!En.HasThis)
      return false;
    B = En.This;
    K = Kind::Pointer;
    return B.Path.empty();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = V ? En.Vars.find(V) : En.Vars.end();
    if (It == En.Vars.end())
      return false;
    B = It->second.first;
    K = It->second.second;
    return B.Path.empty();
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2) {
      auto It = ExtraRootViews.find(OC);
      if (It != ExtraRootViews.end())
        return B = Binding{It->second, {}}, K = Kind::Lvalue, true;
    }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    auto It = ExtraRootViews.find(AS);
    if (It != ExtraRootViews.end())
      return B = Binding{It->second, {}}, K = Kind::Lvalue, true;
  }
  return false;
}

/// A lambda written in analysed code and called with elements: its element
/// parameters are bound to the view when every call passes an element of the
/// same view (they are rewritten to `auto`, so the lambda takes the proxy).
void Analyzer::bindLambdaParams(const Collector &C, Env &E) {
  std::map<const ParmVarDecl *, std::pair<Binding, Kind>> Found;
  std::set<const ParmVarDecl *> Mixed;
  for (const CallExpr *CE : C.Calls) {
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
    if (!OC || !MD || !MD->getParent()->isLambda())
      continue;
    for (unsigned I = 1; I < CE->getNumArgs() && I - 1 < MD->getNumParams();
         ++I) {
      const ParmVarDecl *PD = MD->getParamDecl(I - 1);
      QualType PT = PD->getType();
      if (!PT->isReferenceType() && !PT->isPointerType())
        continue;
      Binding B;
      Kind K;
      if (!evalElement(CE->getArg(I), E, B, K)) {
        Mixed.insert(PD);
        continue;
      }
      auto [It, New] = Found.insert({PD, {B, PT->isPointerType() ? Kind::Pointer
                                                                  : Kind::Lvalue}});
      if (!New && It->second.first.View != B.View)
        Mixed.insert(PD);
    }
  }
  for (auto &[PD, BK] : Found)
    if (!Mixed.count(PD) && !E.Vars.count(PD)) {
      E.Vars[PD] = BK;
      LambdaParams.insert(PD);
      view(BK.first).Aliases.insert(PD);
    }
}

/// The callee's kind decides how an element argument is followed: member
/// operators of the element are its methods, lambdas given the element are
/// analysed where written; free functions and templates are followed.
/// Returns false when the call is handled (Done says whether it succeeded).
bool Analyzer::specialCallee(const CallExpr *C, const Expr *Arg,
                             unsigned ArgIdx, Kind K, const Binding &B,
                             const Expr *&Result, Kind &ResultKind, bool &Done) {
  const FunctionDecl *FD = C->getDirectCallee();
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  Done = false;
  if (OC && MD && ArgIdx == 0) { // member operator on the element
    BoundCalls.insert(C);
    if (K != Kind::Lvalue) {
      refuse(Arg->getExprLoc(), diag::err_use_unsupported, {},
             Msg(diag::note_use_only_fields)); // operands of member operators are lvalues
      return false;
    }
    method(MD, B, C->getExprLoc());
    QualType RT = MD->getReturnType();
    if ((RT->isReferenceType() || RT->isPointerType()) &&
        isRecordOf(RT->getPointeeType()->getAsRecordDecl(), B.View)) {
      Result = C;
      ResultKind = RT->isPointerType() ? Kind::Pointer : Kind::Lvalue;
    }
    Done = !Failed;
    return false;
  }
  if (MD && MD->getParent()->isLambda() && ArgIdx >= 1 &&
      ArgIdx - 1 < MD->getNumParams() &&
      LambdaParams.count(MD->getParamDecl(ArgIdx - 1))) {
    BoundCalls.insert(C);
    Done = true; // the lambda's body is analysed where it is written
    return false;
  }
  if (MD && MD->getParent()->isLambda()) {
    refuse(Arg->getExprLoc(), diag::err_use_lambda_shared, MD->getLocation(),
           Msg(diag::note_use_lambda_shared));
    return false;
  }
  if (MD && !MD->isStatic()) {
    refuse(Arg->getExprLoc(),
           {diag::err_use_foreign_method, {MD->getQualifiedNameAsString()}},
           MD->getLocation(), Msg(diag::note_use_foreign_method));
    return false;
  }
  return true;
}

/// The parameter receiving the element: by reference or pointer, of the
/// element's own type.
bool Analyzer::elementParam(const CallExpr *C, const Expr *Arg,
                            unsigned ParamIdx, const Binding &B) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (ParamIdx >= FD->getNumParams()) {
    refuse(Arg->getExprLoc(), diag::err_use_variadic, {},
           Msg(diag::note_use_variadic));
    return false;
  }
  const ParmVarDecl *PD = FD->getParamDecl(ParamIdx);
  QualType PT = PD->getType();
  if (!PT->isReferenceType() && !PT->isPointerType()) {
    // Unreached for class types (the copy is refused first), kept for safety.
    refuse(Arg->getExprLoc(), diag::err_use_copied, PD->getLocation(),
           Msg(diag::note_use_copied));
    return false;
  }
  const RecordDecl *PR = PT->getPointeeType()->getAsRecordDecl();
  if (!PR || PR->getCanonicalDecl() != view(B).Element->getCanonicalDecl()) {
    refuse(Arg->getExprLoc(),
           {diag::err_use_param_type,
            {qualifiedName(Ctx, PT), FD->getQualifiedNameAsString()}},
           PD->getLocation(), Msg(diag::note_use_param_type));
    return false;
  }
  return true;
}

/// Binds every element argument of the call to the callee's parameters
/// (`Density(local, active)` binds parameter 0 to one view and 1 to
/// another): the callee's environment and which view each parameter gets.
void Analyzer::bindArguments(const CallExpr *C, const FunctionDecl *Def,
                             unsigned Shift, unsigned ParamIdx,
                             const Binding &B, const Env &E, Env &CE,
                             std::vector<int> &ParamViews) {
  ParamViews.assign(Def->getNumParams(), -1);
  for (unsigned I = Shift; I < C->getNumArgs(); ++I) {
    unsigned PI = I - Shift;
    Binding AB;
    Kind AK;
    if (PI >= Def->getNumParams() || !evalElement(C->getArg(I), E, AB, AK))
      continue;
    QualType APT = Def->getParamDecl(PI)->getType();
    if (!APT->isReferenceType() && !APT->isPointerType())
      continue; // refused when that argument's own root is followed
    ParamViews[PI] = AB.View;
    CE.Vars[Def->getParamDecl(PI)] = {
        AB, APT->isPointerType() ? Kind::Pointer : Kind::Lvalue};
  }
  QualType PT = Def->getParamDecl(ParamIdx)->getType();
  ParamViews[ParamIdx] = B.View;
  CE.Vars[Def->getParamDecl(ParamIdx)] = {
      B, PT->isPointerType() ? Kind::Pointer : Kind::Lvalue};
}

/// Whether the callee gets a clone taking the views (free functions) or
/// simply instantiates again with the proxy types (templates whose element
/// parameters are dependent); the other templated shapes are refused.
bool Analyzer::cloneKind(const CallExpr *C, const FunctionDecl *Def,
                         const std::vector<int> &ParamViews, bool &NeedsClone) {
  const FunctionDecl *FD = C->getDirectCallee();
  NeedsClone = true;
  // An explicit specialization (`template <> void f<P>(P &)`) has no
  // instantiation pattern, and a clone of it would specialize nothing.
  if (Def->getTemplateSpecializationKind() == TSK_ExplicitSpecialization) {
    refuse(C->getExprLoc(), diag::err_use_explicit_specialization, {},
           Msg(diag::note_use_explicit_specialization));
    return false;
  }
  if (!Def->getPrimaryTemplate() && Def->getTemplateInstantiationPattern()) {
    // A member of a class template: its parameter types are fixed by the
    // class's (explicit) template arguments, so it cannot take the proxy.
    refuse(C->getExprLoc(),
           {diag::err_use_class_template_member, {FD->getQualifiedNameAsString()}},
           Def->getLocation(), Msg(diag::note_use_class_template_member));
    return false;
  }
  if (const FunctionDecl *Pattern = Def->getTemplateInstantiationPattern()) {
    for (unsigned PI = 0; PI < ParamViews.size(); ++PI)
      if (ParamViews[PI] >= 0 &&
          !Pattern->getParamDecl(PI)->getType()->isDependentType()) {
        refuse(C->getExprLoc(),
               {diag::err_use_nondependent_param, {FD->getQualifiedNameAsString()}},
               Pattern->getParamDecl(PI)->getLocation(),
               Msg(diag::note_use_nondependent_param));
        return false;
      }
    NeedsClone = false;
  } else if (Def->isTemplated()) {
    refuse(C->getExprLoc(),
           {diag::err_use_class_template_member, {FD->getQualifiedNameAsString()}},
           Def->getLocation(), Msg(diag::note_use_class_template_member));
    return false;
  }
  return true;
}

bool Analyzer::call(const CallExpr *C, const Expr *Arg, Kind K,
                    const Binding &B, Env &E, const Expr *&Result,
                    Kind &ResultKind) {
  Result = nullptr;
  if (C->getCallee()->IgnoreParenImpCasts() == Arg->IgnoreParenImpCasts() ||
      C->getCallee() == Arg) {
    refuse(Arg->getExprLoc(), diag::err_use_unsupported, {},
           Msg(diag::note_use_only_fields)); // class types are called through operator()
    return false;
  }
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD) {
    refuse(C->getBeginLoc(), diag::err_use_indirect_call, C->getBeginLoc(),
           Msg(diag::note_use_indirect_call));
    return false;
  }
  unsigned ArgIdx = 0;
  while (ArgIdx < C->getNumArgs() && C->getArg(ArgIdx) != Arg)
    ++ArgIdx;
  bool Done;
  if (!specialCallee(C, Arg, ArgIdx, K, B, Result, ResultKind, Done))
    return Done;
  unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) ? 1 : 0;
  unsigned ParamIdx = ArgIdx - Shift;
  if (!elementParam(C, Arg, ParamIdx, B))
    return false;
  // Every argument of this call is bound at once.
  if (!BoundCalls.insert(C).second)
    return true;
  if (!visible(FD, C->getExprLoc(), "a function receiving the element"))
    return false;
  const FunctionDecl *Def = nullptr;
  FD->hasBody(Def);
  if (Def->getLocation().isMacroID()) {
    refuse(C->getExprLoc(),
           {diag::err_use_macro_callee, {FD->getQualifiedNameAsString()}}, {},
           Msg(diag::note_use_macro_callee));
    return false;
  }
  Env CE;
  std::vector<int> ParamViews;
  bindArguments(C, Def, Shift, ParamIdx, B, E, CE, ParamViews);
  bool NeedsClone;
  if (!cloneKind(C, Def, ParamViews, NeedsClone))
    return false;
  auto Key = std::make_pair(Def, ParamViews);
  if (!CalleeIndex.count(Key)) {
    CalleeIndex[Key] = Nest.Callees.size();
    CalleeUse U;
    U.FD = Def;
    U.ParamViews = ParamViews;
    U.NeedsClone = NeedsClone;
    Nest.Callees.push_back(U);
  }
  enqueue(Def, CE, keyOf(Def, CE));
  return true;
}

//--- Following one element use up its parents ---------------------------------
// element() walks from a use of the element (a variable naming it, `this`,
// `buf[i]`) up the AST; each step looks at the parent and either moves up
// (the expression is still the element: parentheses, `*p`, `&e`, a method
// returning it) or ends the walk (a field access, a call, a binding).

/// Casts that keep the element (or refuse: tests for null, conversions).
bool Analyzer::stepCast(const ImplicitCastExpr *IC, ElementWalk &W) {
  switch (IC->getCastKind()) {
  case CK_NoOp:
  case CK_LValueToRValue:
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
    W.Cur = IC;
    return true;
  case CK_PointerToBoolean:
    refuse(W.Cur->getExprLoc(), diag::err_use_null_test,
           Nest.Loops[W.B.View].Form.Loop->getBeginLoc(),
           Msg(diag::note_use_null_test));
    return false;
  default:
    refuse(W.Cur->getExprLoc(),
           {diag::err_use_converted, {qualifiedName(Ctx, IC->getType())}}, {},
           Msg(diag::note_use_only_fields));
    return false;
  }
}

/// `*p` of a pointer and `&e` of an lvalue keep the element.
bool Analyzer::stepUnary(const UnaryOperator *U, ElementWalk &W) {
  if (U->getOpcode() == UO_Deref && W.K == Kind::Pointer) {
    W.K = Kind::Lvalue;
    W.Cur = U;
    return true;
  }
  if (U->getOpcode() == UO_AddrOf && W.K == Kind::Lvalue) {
    W.K = Kind::Pointer;
    W.Cur = U;
    return true;
  }
  refuse(W.Cur->getExprLoc(), diag::err_use_operation, {},
         Msg(diag::note_use_only_fields));
  return false;
}

/// `e.f`: a field ends the walk at a leaf (or walks into a sub-object used
/// through its own fields).
bool Analyzer::stepField(const MemberExpr *ME, const FieldDecl *FD,
                         ElementWalk &W, ParentMap &PM) {
  if (!checkField(FD, ME->getMemberLoc()))
    return false;
  FieldPath NP = W.B.Path;
  NP.push_back(FD);
  QualType FT = FD->getType();
  const RecordDecl *FR = FT->getAsRecordDecl();
  // An anonymous union is passed through to the member named after it
  // (`p->density.wcount`); checkUnions() keeps its semantics.
  if (FR && (!FR->isUnion() || FD->isAnonymousStructOrUnion())) {
    // A sub-object: keep walking, it may be used whole.
    const Stmt *PP = PM.getParent(const_cast<MemberExpr *>(ME));
    while (PP && (isa<ParenExpr>(PP) ||
                  (isa<ImplicitCastExpr>(PP) &&
                   cast<ImplicitCastExpr>(PP)->getCastKind() == CK_NoOp)))
      PP = PM.getParent(const_cast<Stmt *>(PP));
    const auto *Next = dyn_cast_or_null<MemberExpr>(PP);
    // Library types (std::array, std::string, ...) are never taken apart:
    // they are leaves, copied whole.
    if (Next && !SM.isInSystemHeader(FR->getLocation())) {
      W.B.Path = NP;
      W.K = Kind::Lvalue;
      W.Cur = ME;
      return true;
    }
    if (!FT.isTriviallyCopyableType(Ctx)) {
      refuse(ME->getMemberLoc(),
             {diag::err_use_whole_not_copyable, {FD->getName().str()}},
             FD->getLocation(), Msg(diag::note_field_memcpy));
      return false;
    }
    leaf(ME, Binding{W.B.View, NP}, /*Whole=*/true, PM);
    return false;
  }
  if (!FT.isTriviallyCopyableType(Ctx)) {
    refuse(ME->getMemberLoc(), {diag::err_field_not_copyable, {FD->getName().str()}},
           FD->getLocation(), Msg(diag::note_field_memcpy));
    return false;
  }
  leaf(ME, Binding{W.B.View, NP}, /*Whole=*/FR != nullptr, PM);
  return false;
}

/// `e.m()`: the method is copied into the view; one returning the element
/// again (`*this`) continues the walk.
bool Analyzer::stepMethod(const MemberExpr *ME, const CXXMethodDecl *MD,
                          ElementWalk &W, ParentMap &PM) {
  if (MD->isStatic())
    return false;
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(
      PM.getParent(const_cast<MemberExpr *>(ME)));
  if (!MC) {
    refuse(ME->getMemberLoc(), diag::err_use_unsupported, {},
           Msg(diag::note_use_only_fields)); // a bound method is always called
    return false;
  }
  BoundCalls.insert(MC);
  method(MD, W.B, ME->getMemberLoc());
  QualType RT = MD->getReturnType();
  if (!(RT->isReferenceType() || RT->isPointerType()) ||
      !isRecordOf(RT->getPointeeType()->getAsRecordDecl(), W.B.View))
    return false;
  if (!W.B.Path.empty()) {
    refuse(ME->getMemberLoc(), diag::err_use_subobject_reference, {},
           Msg(diag::note_use_subobject_reference));
    return false;
  }
  W.Cur = MC;
  W.K = RT->isPointerType() ? Kind::Pointer : Kind::Lvalue;
  return true;
}

/// `T &q = *p`, `T *q = p`: a local alias of the element.
bool Analyzer::stepDecl(const DeclStmt *DS, ElementWalk &W, Env &E) {
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || V->getInit() != W.Cur)
      continue;
    QualType VT = V->getType();
    bool Ptr = VT->isPointerType();
    if (!(VT->isReferenceType() || Ptr) || !V->isLocalVarDecl() ||
        V->isStaticLocal())
      refuse(V->getLocation(), {diag::err_use_copied_into, {V->getName().str()}},
             V->getLocation(), Msg(diag::note_use_bind_reference));
    else if ((Ptr ? Kind::Pointer : Kind::Lvalue) != W.K)
      refuse(V->getLocation(), diag::err_use_alias, {},
             Msg(diag::note_use_bind_reference));
    else {
      E.Vars[V] = {W.B, W.K};
      view(W.B).Aliases.insert(V);
    }
    return false;
  }
  refuse(W.Cur->getExprLoc(), diag::err_use_unsupported, {},
         Msg(diag::note_use_only_fields));
  return false;
}

/// Comparisons of element pointers compare the originals; other operators
/// (assignment of the element, arithmetic) are refused.
bool Analyzer::stepBinary(const BinaryOperator *BO, ElementWalk &W) {
  SourceLocation L = W.Cur->getExprLoc();
  if (BO->getOpcode() == BO_Comma && BO->getLHS() == W.Cur)
    return false;
  if (BO->isComparisonOp() && W.K == Kind::Pointer && W.B.Path.empty()) {
    // Compared by the address of the original object, which the proxy
    // keeps: `p != q` becomes `identity(p) != identity(q)`.
    Nest.Loops[W.B.View].Identities.push_back(W.Cur);
    return false;
  }
  if (BO->isAssignmentOp())
    refuse(L, diag::err_use_assigned, BO->getOperatorLoc(),
           Msg(diag::note_use_iteration_only));
  else
    refuse(L, diag::err_use_operation, {}, Msg(diag::note_use_only_fields));
  return false;
}

/// The remaining parents: returns, copies, constructors, lambdas and
/// discarded values.
bool Analyzer::stepOther(const Stmt *P, ElementWalk &W, const Env &E,
                         ParentMap &PM) {
  SourceLocation L = W.Cur->getExprLoc();
  if (isa<ReturnStmt>(P)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(E.Fn);
    QualType RP = MD ? MD->getReturnType()->getPointeeType() : QualType();
    if (W.RootIsThis && MD && W.B.Path.empty() &&
        isElementRecord(RP.isNull() ? nullptr : RP->getAsRecordDecl()))
      return false; // `return *this;`: the call result is the element again
    refuse(L, diag::err_use_returned, P->getBeginLoc(),
           Msg(diag::note_use_iteration_only));
    return false;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
    if (!CE->getConstructor()->isCopyOrMoveConstructor())
      refuse(L, {diag::err_use_constructor_arg, {qualifiedName(Ctx, CE->getType())}},
             CE->getConstructor()->getLocation(),
             Msg(diag::note_use_constructor_arg));
    else
      BoundWholes.insert(CE), refuse(L, diag::err_use_copied, L,
                                     Msg(diag::note_use_copied));
    return false;
  }
  if (!isa<Expr>(P))
    return false; // the value is discarded (expression statement, loop body)
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(P))
    if (EC->getCastKind() == CK_ToVoid)
      return false; // `(void)p;`: discarded too
  if (const auto *LE = dyn_cast<LambdaExpr>(P)) {
    const Stmt *LP = PM.getParent(const_cast<LambdaExpr *>(LE));
    while (LP && (isa<ImplicitCastExpr>(LP) || isa<MaterializeTemporaryExpr>(LP) ||
                  isa<CXXBindTemporaryExpr>(LP) || isa<ParenExpr>(LP)))
      LP = PM.getParent(const_cast<Stmt *>(LP));
    if (LP && (isa<DeclStmt>(LP) || isa<CXXOperatorCallExpr>(LP)))
      return false; // called right away or kept in a local: analysed inline
    refuse(LE->getBeginLoc(), diag::err_use_lambda_escapes, LE->getBeginLoc(),
           Msg(diag::note_use_lambda_escapes));
    return false;
  }
  refuse(L, diag::err_use_unsupported, {}, Msg(diag::note_use_only_fields));
  return false;
}

/// One step up from W.Cur: true when the walk goes on.
bool Analyzer::step(const Stmt *P, ElementWalk &W, Env &E, ParentMap &PM) {
  if (isa<ParenExpr>(P)) {
    W.Cur = cast<Expr>(P);
    return true;
  }
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
    return stepCast(IC, W);
  if (const auto *U = dyn_cast<UnaryOperator>(P))
    return stepUnary(U, W);
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    Handled.insert(ME);
    const ValueDecl *M = ME->getMemberDecl();
    if (const auto *FD = dyn_cast<FieldDecl>(M))
      return stepField(ME, FD, W, PM);
    if (const auto *MD = dyn_cast<CXXMethodDecl>(M))
      return stepMethod(ME, MD, W, PM);
    return false; // static data member or enumerator named through the element
  }
  if (const auto *C = dyn_cast<CallExpr>(P)) {
    const Expr *Res;
    Kind RK;
    if (!call(C, W.Cur, W.K, W.B, E, Res, RK) || !Res)
      return false;
    W.Cur = Res;
    W.K = RK;
    return true;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(P))
    return stepDecl(DS, W, E);
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return stepBinary(BO, W);
  return stepOther(P, W, E, PM);
}

void Analyzer::element(const Expr *Root, Kind K, Binding B, Env &E,
                       ParentMap &PM) {
  ElementWalk W{Root, K, std::move(B), isa<CXXThisExpr>(Root)};
  CurView = W.B.View;
  while (!Failed) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(W.Cur));
    if (!P || !step(P, W, E, PM))
      return; // no parent: a discarded expression statement such as `p;`
  }
}

/// `sizeof(p->f)`, `decltype(p->a.b)`: the view declares the field (it is
/// gathered as a read, so the proxy's member has the field's type); the
/// operand is not evaluated, so it is not an access to check.
void Analyzer::unevaluatedField(const MemberExpr *ME, const Env &E) {
  FieldPath Path;
  const Expr *Base = ME;
  while (const auto *M = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts())) {
    const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!FD)
      return;
    Path.insert(Path.begin(), FD);
    Base = M->getBase();
  }
  Binding B;
  Kind K;
  if (!evalElement(Base, E, B, K))
    return;
  for (const FieldDecl *FD : Path)
    if (!checkField(FD, ME->getMemberLoc()))
      return;
  FieldPath Full = B.Path;
  Full.insert(Full.end(), Path.begin(), Path.end());
  const RecordDecl *RD = Full.back()->getType()->getAsRecordDecl();
  ViewModel &V = view(B);
  LeafAccess &A = RD ? V.Wholes[Full] : V.Leaves[Full];
  if (A.FirstUse.isInvalid())
    A.FirstUse = ME->getExprLoc();
  A.Read = true;
}

void Analyzer::analyse(const Stmt *Body, Env &E) {
  Collector C;
  C.ExtraRoots = ExtraRootViews;
  C.TraverseStmt(const_cast<Stmt *>(Body));
  ParentMap PM(const_cast<Stmt *>(Body));
  bindLambdaParams(C, E);
  for (const Expr *R : C.Roots) {
    if (Failed)
      return;
    auto XR = C.ExtraRoots.find(R);
    if (XR != C.ExtraRoots.end()) {
      element(R, Kind::Lvalue, Binding{XR->second, {}}, E, PM);
      continue;
    }
    if (isa<CXXThisExpr>(R)) {
      if (E.HasThis)
        element(R, Kind::Pointer, E.This, E, PM);
      continue;
    }
    const auto *V = dyn_cast<VarDecl>(cast<DeclRefExpr>(R)->getDecl());
    auto It = E.Vars.find(V);
    if (It != E.Vars.end()) {
      auto [B, K] = It->second;
      element(R, K, B, E, PM);
    }
  }
  llvm::SmallPtrSet<const Expr *, 8> Inner; // `p->a` of `p->a.b`
  for (const MemberExpr *ME : C.UnevaluatedMembers)
    Inner.insert(ME->getBase()->IgnoreParenImpCasts());
  for (const MemberExpr *ME : C.UnevaluatedMembers)
    if (!Inner.count(ME))
      unevaluatedField(ME, E);
  for (const MemberExpr *ME : C.Members) {
    if (Handled.count(ME))
      continue;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || !isElementRecord(FD->getParent()))
      continue;
    Foreigns.push_back(
        {ME->getMemberLoc(), FD, classifyUse(ME, PM).second, FD->getParent()});
  }
  // Whole-object copies and assignments of other elements.
  for (const Expr *W : C.Wholes) {
    if (BoundWholes.count(W))
      continue;
    const RecordDecl *RD = W->getType()->getAsRecordDecl();
    if (!isElementRecord(RD))
      continue;
    bool IsWrite = isa<CXXOperatorCallExpr>(W);
    Foreigns.push_back({W->getExprLoc(), nullptr, IsWrite, RD});
  }
  for (const CallExpr *CE : C.Calls) {
    if (BoundCalls.count(CE))
      continue;
    const FunctionDecl *FD = CE->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (!FD || !FD->hasBody(Def) || !Def ||
        SM.isInSystemHeader(Def->getLocation()))
      continue;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
      if (MD->getParent()->isLambda())
        continue; // lambda bodies are analysed where they are written
    Env CE2;
    enqueue(Def, CE2, keyOf(Def, CE2));
  }
  for (const CXXConstructExpr *CE : C.Ctors) {
    const FunctionDecl *Def = nullptr;
    const CXXConstructorDecl *CD = CE->getConstructor();
    if (!CD->hasBody(Def) || !Def || SM.isInSystemHeader(Def->getLocation()))
      continue;
    Env CE2;
    enqueue(Def, CE2, keyOf(Def, CE2));
  }
}

bool Analyzer::run() {
  Env Top;
  Top.Fn = Nest.Loops[0].Form.Function;
  for (size_t I = 0; I < Nest.Loops.size(); ++I) {
    const LoopForm &F = Nest.Loops[I].Form;
    Binding B{(int)I, {}};
    if (F.Kind == LoopFormKind::Range)
      Top.Vars[F.LoopVar] = {B, F.VarIsPointer ? Kind::Pointer : Kind::Lvalue};
    else
      for (const Expr *U : F.TargetUses)
        ExtraRootViews[U] = (int)I;
  }
  analyse(Nest.Root ? Nest.Root : Nest.Loops[0].Form.Body, Top);
  while (!Queue.empty() && !Failed) {
    Work W = std::move(Queue.front());
    Queue.pop_front();
    if (const Stmt *Body = W.FD->getBody())
      analyse(Body, W.E);
  }
  if (Failed)
    return false;
  for (LoopPlan &L : Nest.Loops)
    L.View.normalise();
  checkForeign();
  if (!Failed)
    checkUnions();
  if (!Failed)
    checkAliasing();
  return !Failed;
}

} // namespace detail

bool analyseNest(clang::ASTContext &Ctx, DiagStore &Diags, NestPlan &Nest) {
  for (LoopPlan &L : Nest.Loops) {
    L.View.Element = L.Form.Element;
    L.View.ElementType = L.Form.ElementType;
  }
  detail::Analyzer A(Ctx, Diags, Nest);
  return A.run();
}

} // namespace soaview
