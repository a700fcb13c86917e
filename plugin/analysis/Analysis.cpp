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
// ("foreign" accesses) are collected too; checks/ViewChecks.cpp judges them.
//
// Tests: test/Rewrite/*, test/Sema/refusals*.cpp.
//===----------------------------------------------------------------------===//
#include "analysis/Analysis.h"
#include "analysis/Analyzer.h"
#include "analysis/Rules.h"

#include "support/AstHelpers.h"
#include "support/ValueClasses.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace soaview {
namespace analysis {

//--- Collecting what one body holds ------------------------------------------

bool Collector::VisitDeclRefExpr(DeclRefExpr *E) {
  if (!isa<VarDecl, BindingDecl>(E->getDecl()))
    return true;
  if (Unevaluated)
    UnevaluatedNames.push_back(E);
  else
    Roots.push_back(E);
  return true;
}

bool Collector::VisitCXXThisExpr(CXXThisExpr *E) {
  if (!Unevaluated)
    Roots.push_back(E);
  return true;
}

bool Collector::VisitExpr(Expr *E) {
  // (an extra root that is a DeclRefExpr, `it` of `it->`, is a root already)
  if (ExtraRoots.count(E) && !Unevaluated && !isa<DeclRefExpr>(E))
    Roots.push_back(E);
  return true;
}

bool Collector::VisitMemberExpr(MemberExpr *E) {
  (Unevaluated ? UnevaluatedMembers : Members).push_back(E);
  return true;
}

bool Collector::VisitCallExpr(CallExpr *E) {
  if (Unevaluated)
    return true;
  Calls.push_back(E);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Equal)
      Wholes.push_back(E);
  return true;
}

bool Collector::VisitLambdaExpr(LambdaExpr *E) {
  Closures.insert(E->getLambdaClass());
  return true;
}

bool Collector::VisitCXXConstructExpr(CXXConstructExpr *E) {
  if (Unevaluated)
    return true;
  if (E->getConstructor()->isCopyOrMoveConstructor())
    Wholes.push_back(E);
  Ctors.push_back(E);
  return true;
}

//--- Elements, bindings and the work queue -----------------------------------

bool Analyzer::isRecordOf(const RecordDecl *RD, int View) const {
  return isElementOrBase(RD, form(View).Element);
}

bool Analyzer::isElementRecord(const RecordDecl *RD) const {
  for (size_t V = 0; V < In.Loops.size(); ++V)
    if (isRecordOf(RD, (int)V))
      return true;
  return false;
}

AnalysisKey keyOf(const FunctionDecl *FD, const Env &Scope) {
  AnalysisKey Key{FD, {}, std::nullopt};
  for (const auto &[Var, BoundTo] : Scope.Vars)
    if (const auto *P = dyn_cast<ParmVarDecl>(Var))
      Key.Params.emplace_back(P->getFunctionScopeIndex(), BoundTo.first.View,
                              dotted(BoundTo.first.Path));
  llvm::sort(Key.Params);
  if (Scope.HasThis)
    Key.This = {Scope.This.View, dotted(Scope.This.Path)};
  return Key;
}

void Analyzer::enqueue(const FunctionDecl *FD, Env Scope) {
  if (!Seen.insert(keyOf(FD, Scope)).second)
    return;
  Scope.Fn = FD;
  Queue.push_back({FD, std::move(Scope)});
}

void Analyzer::refuse(SourceLocation L, const Msg &Error, SourceLocation NoteL,
                      std::optional<Msg> Note) {
  if (Failed)
    return;
  Failed = true;
  StoredDiag &D = Diags.report(L, Error);
  if (Note)
    Diags.note(D, NoteL.isValid() ? NoteL : L, *Note);
  Diags.note(D, form(CurView).Loop->getBeginLoc(),
             diag::note_in_annotated_loop);
}

bool Analyzer::refused(const std::optional<Refusal> &R) {
  if (R)
    refuse(R->Loc, R->Error, R->NoteLoc, R->Note);
  return R.has_value();
}

/// A member function reached with `this` bound to the element (or one of
/// its sub-objects): copied into the proxy and analysed.
void Analyzer::method(const CXXMethodDecl *MD, const Binding &B,
                      SourceLocation Use, const CallExpr *Call, ParentMap &PM) {
  std::string Name = MD->getQualifiedNameAsString();
  const auto *Callee =
      Call ? dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParens()) : nullptr;
  bool Qualified = Callee && Callee->hasQualifier(); // no dynamic dispatch
  if (MD->isVirtual() && !Qualified && !MD->hasAttr<FinalAttr>() &&
      !MD->getParent()->hasAttr<FinalAttr>())
    return refuse(Use, {diag::err_use_virtual, {Name}}, MD->getLocation(),
                  Msg(diag::note_use_virtual));
  if (MD->getDeclName().isIdentifier() &&
      MD->getName().starts_with(ReservedPrefix))
    return refuse(Use, {diag::err_member_reserved, {MD->getNameAsString()}},
                  MD->getLocation(), Msg(diag::note_member_reserved));
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def)
    return refuse(Use, {diag::err_use_method_invisible, {Name}},
                  MD->getLocation(), Msg(diag::note_use_method_invisible));
  if (SM.isInSystemHeader(Def->getLocation()) || Def->getLocation().isMacroID())
    return refuse(Use, {diag::err_use_method_uncopyable, {Name}},
                  Def->getLocation(), Msg(diag::note_use_method_uncopyable));
  if (isa<CXXConstructorDecl>(MD) || isa<CXXDestructorDecl>(MD))
    return refuse(Use, diag::err_use_ctor_dtor, {},
                  Msg(diag::note_use_only_fields));
  const auto *MDef = cast<CXXMethodDecl>(Def);
  view(B).Methods[B.Path].insert(MDef);
  Env Scope;
  Scope.HasThis = true;
  Scope.This = B;
  // A method returning the element again (`*this`) is walked on instead.
  QualType Pointee = MD->getReturnType()->getPointeeType();
  if (Pointee.isNull() || !isRecordOf(Pointee->getAsRecordDecl(), B.View))
    resultUse(keyOf(MDef, Scope), Call, PM);
  enqueue(MDef, Scope);
}

/// The initializer of a local reference (`S &e = *p;`): what it names for
/// its whole life, since a reference is never reseated; null otherwise.
static const Expr *referenceInit(const ValueDecl *D) {
  const auto *V = dyn_cast<VarDecl>(D);
  if (!V || !V->isLocalVarDecl() || !V->getType()->isLValueReferenceType())
    return nullptr;
  return V->getInit();
}

/// The binding of an expression that denotes a whole element (the loop
/// variable, `*p`, `&e`, `this`), or nullopt.
std::optional<std::pair<Binding, Kind>>
Analyzer::evalElement(const Expr *E, const Env &Scope) {
  E = E->IgnoreParens();
  // `buf[i]`, `*it`, `it->`
  if (auto It = ExtraRootViews.find(E); It != ExtraRootViews.end())
    return std::make_pair(Binding{It->second.first, {}}, It->second.second);
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
    switch (IC->getCastKind()) {
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
      return evalElement(IC->getSubExpr(), Scope);
    default:
      return std::nullopt;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    auto Sub = evalElement(U->getSubExpr(), Scope);
    if (!Sub)
      return std::nullopt;
    if (U->getOpcode() == UO_Deref && Sub->second == Kind::Pointer)
      return std::make_pair(Sub->first, Kind::Lvalue);
    if (U->getOpcode() == UO_AddrOf && Sub->second == Kind::Lvalue)
      return std::make_pair(Sub->first, Kind::Pointer);
    return std::nullopt;
  }
  std::optional<std::pair<Binding, Kind>> Found;
  if (isa<CXXThisExpr>(E) && Scope.HasThis)
    Found = {Scope.This, Kind::Pointer};
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    auto It = Scope.Vars.find(DRE->getDecl());
    if (It != Scope.Vars.end())
      Found = It->second;
    else if (const Expr *Init = referenceInit(DRE->getDecl()))
      return evalElement(Init, Scope); // `S &e = *p;`, before the walk binds e
  }
  if (Found && !Found->first.Path.empty())
    return std::nullopt; // a sub-object, not the element
  return Found;
}

/// A lambda written in this body and called with elements: its element
/// parameters are bound to the view when every call passes an element of the
/// same view (they are rewritten to `auto`, so the lambda takes the proxy).
/// Lambdas written elsewhere (`forEach(l)` calling `l(p)`) are callees.
void Analyzer::bindLambdaParams(const Collector &C, Env &Scope) {
  std::map<const ParmVarDecl *, std::pair<Binding, Kind>> Found;
  std::set<const ParmVarDecl *> Mixed;
  for (const CallExpr *CE : C.Calls) {
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
    if (!OC || !MD || !MD->getParent()->isLambda() ||
        !C.Closures.count(MD->getParent()))
      continue;
    for (unsigned I = 1; I < CE->getNumArgs() && I - 1 < MD->getNumParams();
         ++I) {
      const ParmVarDecl *PD = MD->getParamDecl(I - 1);
      QualType ParamType = PD->getType();
      if (!ParamType->isReferenceType() && !ParamType->isPointerType())
        continue;
      auto Arg = evalElement(CE->getArg(I), Scope);
      if (!Arg) {
        Mixed.insert(PD);
        continue;
      }
      Kind K = ParamType->isPointerType() ? Kind::Pointer : Kind::Lvalue;
      auto [It, New] = Found.insert({PD, {Arg->first, K}});
      if (!New && It->second.first.View != Arg->first.View)
        Mixed.insert(PD);
    }
  }
  for (auto &[PD, BoundTo] : Found)
    if (!Mixed.count(PD) && !Scope.Vars.count(PD)) {
      Scope.Vars[PD] = BoundTo;
      LambdaParams.insert(PD);
      view(BoundTo.first).Aliases.insert(PD);
    }
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
           form(W.B.View).Loop->getBeginLoc(), Msg(diag::note_use_null_test));
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

/// How many classes among RD and its bases declare a member named as M
/// (a class reached twice through bases counts twice). For an anonymous
/// struct or union (`p->S::s0` with s0 its member), the most that one of
/// its members' names counts.
static unsigned declaringClasses(const CXXRecordDecl *RD, const ValueDecl *M) {
  if (const auto *FD = dyn_cast<FieldDecl>(M);
      FD && FD->isAnonymousStructOrUnion()) {
    unsigned Most = 0;
    for (const FieldDecl *Member : FD->getType()->getAsRecordDecl()->fields())
      Most = std::max(Most, declaringClasses(RD, Member));
    return Most;
  }
  unsigned N = 0;
  auto Count = [&](const CXXRecordDecl *C) {
    N += !C->lookup(M->getDeclName()).empty();
    return true;
  };
  Count(RD);
  RD->forallBases(Count);
  return N;
}

/// `p->Base::x`, `p->P::f()`: the view has the element's members under
/// their names alone, so the qualifier goes where the element is a view
/// (LoopAnalysis::Qualified). That names the same member only when no other
/// class of the element declares the name; and a qualifier written in a
/// macro's definition cannot be taken out (one written in a macro's
/// argument is taken out where the argument is written).
bool Analyzer::qualifiedMember(const MemberExpr *ME, int View) {
  QualType T = ME->getBase()->IgnoreImpCasts()->getType(); // not the base's
  if (ME->isArrow())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  const ValueDecl *M = ME->getMemberDecl();
  std::string Name = M->getQualifiedNameAsString();
  if (!RD || !RD->hasDefinition() || declaringClasses(RD, M) != 1) {
    refuse(ME->getMemberLoc(),
           {diag::err_use_qualified_hidden,
            {Name, RD ? RD->getNameAsString() : std::string("?")}},
           M->getLocation(), Msg(diag::note_use_qualified_hidden));
    return false;
  }
  if (!writtenQualifier(SM, ME->getQualifierLoc().getBeginLoc(),
                        ME->getMemberLoc())) {
    refuse(ME->getMemberLoc(), {diag::err_use_qualified_macro, {Name}}, {},
           Msg(diag::note_use_qualified_macro));
    return false;
  }
  Out.Loops[View].Qualified.push_back(ME);
  return true;
}

/// `e.f`: a field ends the walk at a leaf (or walks into a sub-object used
/// through its own fields).
bool Analyzer::stepField(const MemberExpr *ME, const FieldDecl *FD,
                         ElementWalk &W, ParentMap &PM) {
  if (refused(fieldRefusal(Ctx, FD, ME->getMemberLoc())))
    return false;
  FieldPath Path = W.B.Path;
  Path.push_back(FD);
  QualType FieldType = FD->getType();
  const RecordDecl *FieldRecord = FieldType->getAsRecordDecl();
  // An anonymous union is passed through to the member named after it
  // (`p->density.wcount`); checks/ViewChecks.cpp keeps its semantics.
  if (FieldRecord &&
      (!FieldRecord->isUnion() || FD->isAnonymousStructOrUnion())) {
    // A sub-object: keep walking, it may be used whole.
    const Expr *Sub = ME;
    const auto *Next = dyn_cast_or_null<MemberExpr>(
        parentThrough(PM, Sub, Through::Parens | Through::NoOpCasts));
    // Library types (std::array, std::string, ...) are never taken apart:
    // they are leaves, copied whole.
    if (Next && !SM.isInSystemHeader(FieldRecord->getLocation())) {
      W.B.Path = Path;
      W.K = Kind::Lvalue;
      W.Cur = ME;
      return true;
    }
    if (std::optional<AtomicPart> A = atomicPart(Ctx, FieldType)) {
      refuse(ME->getMemberLoc(),
             {diag::err_field_holds_atomic, {FD->getName().str(), A->Member}},
             FD->getLocation(), Msg(diag::note_field_atomic, {A->Type}));
      return false;
    }
    if (refused(bytesRefusal(Ctx, FD, ME->getMemberLoc(),
                             diag::err_use_whole_not_copyable)))
      return false;
    leaf(ME, Binding{W.B.View, Path}, /*Whole=*/true, PM);
    return false;
  }
  if (refused(bytesRefusal(Ctx, FD, ME->getMemberLoc(),
                           diag::err_field_not_copyable)))
    return false;
  leaf(ME, Binding{W.B.View, Path}, /*Whole=*/FieldRecord != nullptr, PM);
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
  if (!MC) { // a bound method is always called
    refuse(ME->getMemberLoc(), diag::err_use_unsupported, {},
           Msg(diag::note_use_only_fields));
    return false;
  }
  BoundCalls.insert(MC);
  method(MD, W.B, ME->getMemberLoc(), MC, PM);
  QualType Returned = MD->getReturnType();
  if (!(Returned->isReferenceType() || Returned->isPointerType()) ||
      !isRecordOf(Returned->getPointeeType()->getAsRecordDecl(), W.B.View))
    return false;
  if (!W.B.Path.empty()) {
    refuse(ME->getMemberLoc(), diag::err_use_subobject_reference, {},
           Msg(diag::note_use_subobject_reference));
    return false;
  }
  W.Cur = MC;
  W.K = Returned->isPointerType() ? Kind::Pointer : Kind::Lvalue;
  return true;
}

/// `T &q = *p`, `T *q = p`: a local alias of the element.
bool Analyzer::stepDecl(const DeclStmt *DS, ElementWalk &W, Env &Scope) {
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || V->getInit() != W.Cur)
      continue;
    QualType VarType = V->getType();
    bool Pointer = VarType->isPointerType();
    if (!(VarType->isReferenceType() || Pointer) || !V->isLocalVarDecl() ||
        V->isStaticLocal())
      refuse(V->getLocation(),
             {diag::err_use_copied_into, {V->getName().str()}},
             V->getLocation(), Msg(diag::note_use_bind_reference));
    else if ((Pointer ? Kind::Pointer : Kind::Lvalue) != W.K)
      refuse(V->getLocation(), diag::err_use_alias, {},
             Msg(diag::note_use_bind_reference));
    else {
      Scope.Vars[V] = {W.B, W.K};
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
    Out.Loops[W.B.View].Identities.push_back(W.Cur);
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
bool Analyzer::stepOther(const Stmt *P, ElementWalk &W, const Env &Scope,
                         ParentMap &PM) {
  SourceLocation L = W.Cur->getExprLoc();
  if (isa<ReturnStmt>(P)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Scope.Fn);
    QualType Pointee = MD ? MD->getReturnType()->getPointeeType() : QualType();
    if (W.RootIsThis && MD && W.B.Path.empty() &&
        isElementRecord(Pointee.isNull() ? nullptr
                                         : Pointee->getAsRecordDecl()))
      return false; // `return *this;`: the call result is the element again
    refuse(L, diag::err_use_returned, P->getBeginLoc(),
           Msg(diag::note_use_iteration_only));
    return false;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
    if (!CE->getConstructor()->isCopyOrMoveConstructor()) {
      refuse(
          L,
          {diag::err_use_constructor_arg, {qualifiedName(Ctx, CE->getType())}},
          CE->getConstructor()->getLocation(),
          Msg(diag::note_use_constructor_arg));
      return false;
    }
    BoundWholes.insert(CE);
    refuse(L, diag::err_use_copied, L, Msg(diag::note_use_copied));
    return false;
  }
  if (!isa<Expr>(P))
    return false; // the value is discarded (expression statement, loop body)
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(P))
    if (EC->getCastKind() == CK_ToVoid)
      return false; // `(void)p;`: discarded too
  if (const auto *LE = dyn_cast<LambdaExpr>(P)) {
    const Expr *Lambda = LE;
    const Stmt *Holder = parentThrough(
        PM, Lambda,
        Through::Parens | Through::ImplicitCasts | Through::Temporaries);
    if (Holder && (isa<DeclStmt>(Holder) || isa<CXXOperatorCallExpr>(Holder)))
      return false; // called right away or kept in a local: analysed inline
    refuse(LE->getBeginLoc(), diag::err_use_lambda_escapes, LE->getBeginLoc(),
           Msg(diag::note_use_lambda_escapes));
    return false;
  }
  refuse(L, diag::err_use_unsupported, {}, Msg(diag::note_use_only_fields));
  return false;
}

/// One step up from W.Cur: true when the walk goes on.
bool Analyzer::step(const Stmt *P, ElementWalk &W, Env &Scope, ParentMap &PM) {
  if (isa<ParenExpr>(P)) {
    W.Cur = cast<Expr>(P);
    return true;
  }
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
    return stepCast(IC, W);
  if (isa<MaterializeTemporaryExpr>(P) && W.K == Kind::Pointer) {
    W.Cur = cast<Expr>(P); // `&p` bound to a reference parameter
    return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(P))
    return stepUnary(U, W);
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    Handled.insert(ME);
    if (ME->hasQualifier() && !qualifiedMember(ME, W.B.View))
      return false;
    const ValueDecl *M = ME->getMemberDecl();
    if (const auto *FD = dyn_cast<FieldDecl>(M))
      return stepField(ME, FD, W, PM);
    if (const auto *MD = dyn_cast<CXXMethodDecl>(M))
      return stepMethod(ME, MD, W, PM);
    return false; // static data member or enumerator named through the element
  }
  if (const auto *C = dyn_cast<CallExpr>(P)) {
    CallOutcome R = call(C, W.Cur, W.K, W.B, Scope, PM);
    if (!R.Continues)
      return false;
    W.Cur = R.Continues->E;
    W.K = R.Continues->K;
    return true;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(P))
    return stepDecl(DS, W, Scope);
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return stepBinary(BO, W);
  return stepOther(P, W, Scope, PM);
}

void Analyzer::element(const Expr *Root, Kind K, Binding B, Env &Scope,
                       ParentMap &PM) {
  ElementWalk W{Root, K, std::move(B), isa<CXXThisExpr>(Root)};
  CurView = W.B.View;
  while (!Failed) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(W.Cur));
    if (!P || !step(P, W, Scope, PM))
      return; // no parent: a discarded expression statement such as `p;`
  }
}

/// `sizeof(*p)`, `alignof(e)`: in the converted loop the operand is the
/// view, whose size is not the element's; refused (a size of the element's
/// type, `sizeof(T)`, is the same in both).
void Analyzer::sizeOfElement(const UnaryExprOrTypeTraitExpr *S,
                             const Env &Scope) {
  auto Element = evalElement(S->getArgumentExpr(), Scope);
  if (!Element || Element->second != Kind::Lvalue)
    return;
  std::string Op = getTraitSpelling(S->getKind());
  refuse(S->getBeginLoc(), {diag::err_size_of_element, {Op}}, {},
         Msg(diag::note_size_of_element, {Op}));
}

/// `decltype(*p)`, `decltype(p)`, `__typeof__(q)` of an element, its
/// pointer or a reference to it: in the converted loop the operand is the
/// view, whose type is not the element's; refused (`decltype(p->f)` of a
/// field is the same in both).
void Analyzer::typeOfElement(const Expr *Operand, const char *Spelling,
                             const Env &Scope) {
  if (!evalElement(Operand, Scope))
    return;
  refuse(Operand->getBeginLoc(), {diag::err_type_of_element, {Spelling}}, {},
         Msg(diag::note_type_of_element, {Spelling}));
}

/// `sizeof(p->f)`, `decltype(p->a.b)`: the view declares the field (it is
/// gathered as a read, so the proxy's member has the field's type); the
/// operand is not evaluated, so it is not an access to check.
void Analyzer::unevaluatedField(const MemberExpr *ME, const Env &Scope) {
  FieldPath Path;
  std::vector<const MemberExpr *> Named; // `p->P::f`: the qualifier goes too
  const Expr *Base = ME;
  while (const auto *M = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts())) {
    const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!FD)
      return;
    Path.insert(Path.begin(), FD);
    if (M->hasQualifier())
      Named.push_back(M);
    Base = M->getBase();
  }
  auto Element = evalElement(Base, Scope);
  if (!Element)
    return;
  for (const FieldDecl *FD : Path)
    if (refused(fieldRefusal(Ctx, FD, ME->getMemberLoc())))
      return;
  for (const MemberExpr *M : Named)
    if (!qualifiedMember(M, Element->first.View))
      return;
  const Binding &B = Element->first;
  FieldPath Full = B.Path;
  Full.insert(Full.end(), Path.begin(), Path.end());
  const RecordDecl *RD = Full.back()->getType()->getAsRecordDecl();
  ViewModel &V = view(B);
  LeafAccess &A = RD ? V.Wholes[Full] : V.Leaves[Full];
  if (A.FirstUse.isInvalid())
    A.FirstUse = ME->getExprLoc();
  A.Read = true;
  A.RefSensitive = true; // decltype(p->f) of a reference member differs
}

//--- One body ----------------------------------------------------------------

/// Walks up from every use of a bound element in the body.
void Analyzer::analyseRoots(const Collector &C, Env &Scope, ParentMap &PM) {
  for (const Expr *R : C.Roots) {
    if (Failed)
      return;
    auto Extra = C.ExtraRoots.find(R);
    if (Extra != C.ExtraRoots.end()) {
      element(R, Extra->second.second, Binding{Extra->second.first, {}}, Scope,
              PM);
      continue;
    }
    if (isa<CXXThisExpr>(R)) {
      if (Scope.HasThis)
        element(R, Kind::Pointer, Scope.This, Scope, PM);
      continue;
    }
    auto It = Scope.Vars.find(cast<DeclRefExpr>(R)->getDecl());
    if (It != Scope.Vars.end()) {
      auto [B, K] = It->second;
      element(R, K, B, Scope, PM);
    }
  }
}

/// Field accesses and whole copies of element-type objects that are not the
/// loops' elements.
void Analyzer::collectForeign(const Collector &C, ParentMap &PM) {
  for (const MemberExpr *ME : C.Members) {
    if (Handled.count(ME))
      continue;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || !isElementRecord(FD->getParent()))
      continue;
    // (a foreign field returned by reference counts as written)
    UseOf U = uses(ME, PM);
    Out.Foreign.push_back({ME->getMemberLoc(), FD,
                           U.Access.Written || U.Returned, FD->getParent()});
  }
  for (const Expr *W : C.Wholes) {
    if (BoundWholes.count(W))
      continue;
    const RecordDecl *RD = W->getType()->getAsRecordDecl();
    if (!isElementRecord(RD))
      continue;
    bool IsWrite = isa<CXXOperatorCallExpr>(W);
    Out.Foreign.push_back({W->getExprLoc(), nullptr, IsWrite, RD});
  }
}

/// Every user function the body calls (and every constructor it runs) is
/// analysed too, with nothing bound: it may reach elements in other ways.
void Analyzer::enqueueCallees(const Collector &C) {
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
    enqueue(Def, Env());
  }
  for (const CXXConstructExpr *CE : C.Ctors) {
    const FunctionDecl *Def = nullptr;
    const CXXConstructorDecl *CD = CE->getConstructor();
    if (!CD->hasBody(Def) || !Def || SM.isInSystemHeader(Def->getLocation()))
      continue;
    enqueue(Def, Env());
  }
}

void Analyzer::analyse(const Stmt *Body, Env &Scope,
                       std::optional<AnalysisKey> Key) {
  CurrentFunction = Scope.Fn;
  CurrentKey = std::move(Key);
  Collector C;
  C.ExtraRoots = ExtraRootViews;
  C.TraverseStmt(const_cast<Stmt *>(Body));
  ParentMap PM(const_cast<Stmt *>(Body));
  WrittenClosures.insert(C.Closures.begin(), C.Closures.end());
  bindLambdaParams(C, Scope);
  analyseRoots(C, Scope, PM);
  if (Failed)
    return;
  llvm::SmallPtrSet<const Expr *, 8> Inner; // `p->a` of `p->a.b`
  for (const MemberExpr *ME : C.UnevaluatedMembers)
    Inner.insert(ME->getBase()->IgnoreParenImpCasts());
  for (const MemberExpr *ME : C.UnevaluatedMembers)
    if (!Inner.count(ME))
      unevaluatedField(ME, Scope);
  for (const UnaryExprOrTypeTraitExpr *S : C.Sizes)
    sizeOfElement(S, Scope);
  for (const auto &[Operand, Spelling] : C.TypeOperands)
    typeOfElement(Operand, Spelling, Scope);
  collectForeign(C, PM);
  enqueueCallees(C);
}

bool Analyzer::run() {
  Out.Loops.resize(In.Loops.size());
  Env Top;
  Top.Fn = In.Loops[0].Form.Function;
  for (size_t I = 0; I < In.Loops.size(); ++I) {
    const LoopForm &F = In.Loops[I].Form;
    Out.Loops[I].View.Element = F.Element;
    Out.Loops[I].View.ElementType = F.ElementType;
    Binding B{(int)I, {}};
    if (F.Kind == LoopFormKind::Range && !F.VarIsWrapper) // else TargetUses
      Top.Vars[F.elementVar()] = {B, F.VarIsPointer ? Kind::Pointer
                                                    : Kind::Lvalue};
    for (const Expr *U : F.TargetUses)
      ExtraRootViews[U] = {(int)I, Kind::Lvalue};
    for (const Expr *U : F.PointerUses)
      ExtraRootViews[U] = {(int)I, Kind::Pointer};
  }
  analyse(In.Root ? In.Root : In.Loops[0].Form.Body, Top);
  while (!Queue.empty() && !Failed) {
    Work W = std::move(Queue.front());
    Queue.pop_front();
    if (const Stmt *Body = W.FD->getBody())
      analyse(Body, W.Scope, keyOf(W.FD, W.Scope));
  }
  if (Failed)
    return false;
  for (const ReturnedWrites::Leaf &L : Returns.written()) {
    ViewModel &V = view(L.B);
    (L.Whole ? V.Wholes : V.Leaves)[L.B.Path].Written = true;
  }
  for (LoopAnalysis &L : Out.Loops)
    L.View.normalise();
  for (size_t K = 0; K < In.Loops.size(); ++K)
    if (std::optional<size_t> Walked = In.Loops[K].WalksViewOf)
      Out.Loops[*Walked].View.absorb(Out.Loops[K].View);
  return true;
}

} // namespace analysis

std::optional<AnalysedNest> analyseNest(ASTContext &Ctx, DiagStore &Diags,
                                        const RecognisedNest &Nest) {
  AnalysedNest Out;
  analysis::Analyzer A(Ctx, Diags, Nest, Out);
  if (!A.run())
    return std::nullopt;
  return Out;
}

} // namespace soaview
