//===- Analysis.cpp - which fields an annotated loop reads and writes -----===//
//
// Starting from the loop variable (or the `buf[i]` expressions of an index
// loop), every use of the element is classified by walking up the AST
// (Walk.cpp): field accesses become leaves (read / written, Accesses.cpp),
// member calls pull the member function into the proxy and are analysed
// with `this` bound to the element, element arguments bind the callee's
// parameter and analyse the callee (Calls.cpp). The call graph is followed
// to a fixpoint (each function once per binding, breadth first: a
// ReachedFunctions of support/Reach.h): this file analyses one body at a time.
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

bool NestState::isRecordOf(const RecordDecl *RD, int View) const {
  return isElementOrBase(RD, form(View).Element);
}

bool NestState::isElementRecord(const RecordDecl *RD) const {
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

void NestState::enqueue(const FunctionDecl *FD, Env Scope) {
  AnalysisKey Key = keyOf(FD, Scope);
  Scope.Fn = FD;
  Bodies.later(Key, Work{FD->getBody(), std::move(Scope), Key});
}

void NestState::refuse(SourceLocation L, const Msg &Error, SourceLocation NoteL,
                       std::optional<Msg> Note) {
  if (Failed)
    return;
  Failed = true;
  Bodies.stop(); // nothing more is analysed
  StoredDiag &D = Diags.report(L, Error);
  if (Note)
    Diags.note(D, NoteL.isValid() ? NoteL : L, *Note);
  Diags.note(D, form(CurView).Loop->getBeginLoc(),
             diag::note_in_annotated_loop);
}

bool NestState::refused(const std::optional<Refusal> &R) {
  if (R)
    refuse(R->Loc, R->Error, R->NoteLoc, R->Note);
  return R.has_value();
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
NestState::evalElement(const Expr *E, const Env &Scope) {
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
void Analyzer::bindLambdaParams(const Collector &Collected, Env &Scope) {
  std::map<const ParmVarDecl *, std::pair<Binding, Kind>> Found;
  std::set<const ParmVarDecl *> Mixed;
  for (const CallExpr *CE : Collected.Calls) {
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
    if (!OC || !MD || !MD->getParent()->isLambda() ||
        !Collected.Closures.count(MD->getParent()))
      continue;
    for (unsigned I = 1; I < CE->getNumArgs() && I - 1 < MD->getNumParams();
         ++I) {
      const ParmVarDecl *PD = MD->getParamDecl(I - 1);
      QualType ParamType = PD->getType();
      if (!ParamType->isReferenceType() && !ParamType->isPointerType())
        continue;
      auto Arg = State.evalElement(CE->getArg(I), Scope);
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
      State.LambdaParams.insert(PD);
      State.view(BoundTo.first).Aliases.insert(PD);
    }
}

/// `sizeof(*p)`, `alignof(e)`: in the converted loop the operand is the
/// view, whose size is not the element's; refused (a size of the element's
/// type, `sizeof(T)`, is the same in both).
void Analyzer::sizeOfElement(const UnaryExprOrTypeTraitExpr *S,
                             const Env &Scope) {
  auto Element = State.evalElement(S->getArgumentExpr(), Scope);
  if (!Element || Element->second != Kind::Lvalue)
    return;
  std::string Op = getTraitSpelling(S->getKind());
  State.refuse(S->getBeginLoc(), {diag::err_size_of_element, {Op}}, {},
               Msg(diag::note_size_of_element, {Op}));
}

/// `decltype(*p)`, `decltype(p)`, `__typeof__(q)` of an element, its
/// pointer or a reference to it: in the converted loop the operand is the
/// view, whose type is not the element's; refused (`decltype(p->f)` of a
/// field is the same in both).
void Analyzer::typeOfElement(const Expr *Operand, const char *Spelling,
                             const Env &Scope) {
  if (!State.evalElement(Operand, Scope))
    return;
  State.refuse(Operand->getBeginLoc(), {diag::err_type_of_element, {Spelling}},
               {}, Msg(diag::note_type_of_element, {Spelling}));
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
  auto Element = State.evalElement(Base, Scope);
  if (!Element)
    return;
  for (const FieldDecl *FD : Path)
    if (State.refused(fieldRefusal(State.Ctx, FD, ME->getMemberLoc())))
      return;
  for (const MemberExpr *M : Named)
    if (!Walker.qualifiedMember(M, Element->first.View))
      return;
  const Binding &B = Element->first;
  FieldPath Full = B.Path;
  Full.insert(Full.end(), Path.begin(), Path.end());
  const RecordDecl *RD = Full.back()->getType()->getAsRecordDecl();
  ViewModel &V = State.view(B);
  LeafAccess &A = RD ? V.Wholes[Full] : V.Leaves[Full];
  if (A.FirstUse.isInvalid())
    A.FirstUse = ME->getExprLoc();
  A.Read = true;
  A.RefSensitive = true; // decltype(p->f) of a reference member differs
}

//--- One body ----------------------------------------------------------------

/// Walks up from every use of a bound element in the body.
void Analyzer::analyseRoots(const Collector &Collected, Env &Scope,
                            ParentMap &PM) {
  for (const Expr *R : Collected.Roots) {
    if (State.Failed)
      return;
    auto Extra = Collected.ExtraRoots.find(R);
    if (Extra != Collected.ExtraRoots.end()) {
      Walker.element(R, Extra->second.second, Binding{Extra->second.first, {}},
                     Scope, PM);
      continue;
    }
    if (isa<CXXThisExpr>(R)) {
      if (Scope.HasThis)
        Walker.element(R, Kind::Pointer, Scope.This, Scope, PM);
      continue;
    }
    auto It = Scope.Vars.find(cast<DeclRefExpr>(R)->getDecl());
    if (It != Scope.Vars.end()) {
      auto [B, K] = It->second;
      Walker.element(R, K, B, Scope, PM);
    }
  }
}

/// Field accesses and whole copies of element-type objects that are not the
/// loops' elements.
void Analyzer::collectForeign(const Collector &Collected, ParentMap &PM) {
  for (const MemberExpr *ME : Collected.Members) {
    if (State.Handled.count(ME))
      continue;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || !State.isElementRecord(FD->getParent()))
      continue;
    // (a foreign field returned by reference counts as written)
    UseOf U = Access.uses(ME, PM);
    State.Out.Foreign.push_back({ME->getMemberLoc(), FD,
                                 U.Access.Written || U.Returned,
                                 FD->getParent()});
  }
  for (const Expr *W : Collected.Wholes) {
    if (State.BoundWholes.count(W))
      continue;
    const RecordDecl *RD = W->getType()->getAsRecordDecl();
    if (!State.isElementRecord(RD))
      continue;
    bool IsWrite = isa<CXXOperatorCallExpr>(W);
    State.Out.Foreign.push_back({W->getExprLoc(), nullptr, IsWrite, RD});
  }
}

/// Every user function the body calls (and every constructor it runs) is
/// analysed too, with nothing bound: it may reach elements in other ways.
void Analyzer::enqueueCallees(const Collector &Collected) {
  for (const CallExpr *CE : Collected.Calls) {
    if (State.BoundCalls.count(CE))
      continue;
    const FunctionDecl *FD = CE->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (!FD || !FD->hasBody(Def) || !Def ||
        State.SM.isInSystemHeader(Def->getLocation()))
      continue;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
      if (MD->getParent()->isLambda())
        continue; // lambda bodies are analysed where they are written
    State.enqueue(Def, Env());
  }
  for (const CXXConstructExpr *CE : Collected.Ctors) {
    const FunctionDecl *Def = nullptr;
    const CXXConstructorDecl *CD = CE->getConstructor();
    if (!CD->hasBody(Def) || !Def ||
        State.SM.isInSystemHeader(Def->getLocation()))
      continue;
    State.enqueue(Def, Env());
  }
}

/// Analyses one body of the walk with a copy of its bindings (the analysis
/// binds more: lambda parameters).
void Analyzer::read(const NestState::Work &W) {
  if (!W.Body)
    return;
  Env Scope = W.Scope;
  analyse(W.Body, Scope, W.Key);
}

void Analyzer::analyse(const Stmt *Body, Env &Scope,
                       std::optional<AnalysisKey> Key) {
  State.CurrentFunction = Scope.Fn;
  State.CurrentKey = std::move(Key);
  Collector Collected;
  Collected.ExtraRoots = State.ExtraRootViews;
  Collected.TraverseStmt(const_cast<Stmt *>(Body));
  ParentMap PM(const_cast<Stmt *>(Body));
  State.WrittenClosures.insert(Collected.Closures.begin(),
                               Collected.Closures.end());
  bindLambdaParams(Collected, Scope);
  analyseRoots(Collected, Scope, PM);
  if (State.Failed)
    return;
  llvm::SmallPtrSet<const Expr *, 8> Inner; // `p->a` of `p->a.b`
  for (const MemberExpr *ME : Collected.UnevaluatedMembers)
    Inner.insert(ME->getBase()->IgnoreParenImpCasts());
  for (const MemberExpr *ME : Collected.UnevaluatedMembers)
    if (!Inner.count(ME))
      unevaluatedField(ME, Scope);
  for (const UnaryExprOrTypeTraitExpr *S : Collected.Sizes)
    sizeOfElement(S, Scope);
  for (const auto &[Operand, Spelling] : Collected.TypeOperands)
    typeOfElement(Operand, Spelling, Scope);
  collectForeign(Collected, PM);
  enqueueCallees(Collected);
}

bool Analyzer::run() {
  State.Out.Loops.resize(State.In.Loops.size());
  Env Top;
  Top.Fn = State.In.Loops[0].Form.Function;
  for (size_t I = 0; I < State.In.Loops.size(); ++I) {
    const LoopForm &F = State.In.Loops[I].Form;
    State.Out.Loops[I].View.Element = F.Element;
    State.Out.Loops[I].View.ElementType = F.ElementType;
    Binding B{(int)I, {}};
    if (F.Kind == LoopFormKind::Range && !F.VarIsWrapper) // else TargetUses
      Top.Vars[F.elementVar()] = {B, F.VarIsPointer ? Kind::Pointer
                                                    : Kind::Lvalue};
    for (const Expr *U : F.TargetUses)
      State.ExtraRootViews[U] = {(int)I, Kind::Lvalue};
    for (const Expr *U : F.PointerUses)
      State.ExtraRootViews[U] = {(int)I, Kind::Pointer};
  }
  const Stmt *Root =
      State.In.Root ? State.In.Root : State.In.Loops[0].Form.Body;
  State.Bodies.run({Root, std::move(Top), std::nullopt});
  if (State.Failed)
    return false;
  for (const ReturnedWrites::Leaf &L : State.Returns.written()) {
    ViewModel &V = State.view(L.B);
    (L.Whole ? V.Wholes : V.Leaves)[L.B.Path].Written = true;
  }
  for (LoopAnalysis &L : State.Out.Loops)
    L.View.normalise(State.In.RegionSweep);
  for (size_t K = 0; K < State.In.Loops.size(); ++K)
    if (std::optional<size_t> Walked = State.In.Loops[K].WalksViewOf)
      State.Out.Loops[*Walked].View.absorb(State.Out.Loops[K].View);
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
