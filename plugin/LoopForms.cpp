//===- LoopForms.cpp - recognise the loop shapes soaview converts ---------===//
//
// Range-for over anything with begin/end whose elements are structs or
// pointers to structs; index loops `for (i = lo; i < n; ++i)` over T*, T[N]
// or std::vector<T> named by soa_conversion_target. Anything else is refused
// with the expected form. Tests: test/Sema/loop-forms.cpp.
//===----------------------------------------------------------------------===//
#include "LoopForms.h"

#include "Annotations.h"
#include "Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace soaview {

static const CXXRecordDecl *recordOf(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD ? RD->getDefinition() : nullptr;
}

static const Expr *strip(const Expr *E) {
  return E ? E->IgnoreParenImpCasts() : nullptr;
}

static bool refersTo(const Expr *E, const ValueDecl *D) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(E));
  return DRE && DRE->getDecl() == D;
}

namespace {

/// Finds writes to a set of variables inside a statement.
class WriteFinder : public RecursiveASTVisitor<WriteFinder> {
public:
  explicit WriteFinder(llvm::SmallPtrSetImpl<const ValueDecl *> &Vars)
      : Vars(Vars) {}
  const Expr *Found = nullptr;

  /// The variable an lvalue is part of, looking through element selection
  /// (`v[i]`, `v.front()`) but not into the elements' own fields.
  static const Expr *root(const Expr *E) {
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
        if (isAccessor(MC)) {
          E = MC->getImplicitObjectArgument();
          continue;
        }
      return E;
    }
    return E;
  }
  /// Non-const member functions of standard containers that do not change
  /// the container (only give access to its elements).
  static bool isAccessor(const CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getParent()->isInStdNamespace() || !MD->getIdentifier())
      return false;
    return llvm::StringSwitch<bool>(MD->getName())
        .Cases("front", "back", "at", "data", "begin", "end", true)
        .Cases("rbegin", "rend", "find", "lower_bound", "upper_bound", true)
        .Cases("equal_range", "count", "size", "empty", true)
        .Default(false);
  }

  bool check(const Expr *E) {
    const Expr *R = root(E);
    // Writing an element object reached through the container (`buf[i]`
    // passed by reference, a method called on it) changes the element, not
    // the container; writing a pointer slot (`v[k] = q`) changes the
    // container.
    if (E && R != strip(E) && E->getType()->isRecordType())
      return true;
    const auto *DRE = dyn_cast_or_null<DeclRefExpr>(R);
    if (DRE && Vars.count(DRE->getDecl()) && !Found)
      Found = DRE;
    return true;
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
    if (const auto *MD = C->getMethodDecl())
      if (!MD->isConst() && !isAccessor(C))
        check(C->getImplicitObjectArgument());
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->getType()->isReferenceType() &&
        !V->getType().getNonReferenceType().isConstQualified())
      check(V->getInit());
    return true;
  }

private:
  llvm::SmallPtrSetImpl<const ValueDecl *> &Vars;
};

/// Collects every reference to a named declaration.
class UseFinder : public RecursiveASTVisitor<UseFinder> {
public:
  explicit UseFinder(StringRef Name) : Name(Name) {}
  std::vector<const Expr *> Uses;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl()->getName() == Name)
      Uses.push_back(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (E->getMemberDecl()->getName() == Name &&
        isa<FieldDecl>(E->getMemberDecl()))
      Uses.push_back(E);
    return true;
  }

private:
  StringRef Name;
};

/// A loop bound soaview may evaluate once more: no side effects, where calls
/// are allowed only to const member functions (`v.size()`) and constexpr
/// functions.
bool pureBound(const Expr *E, ASTContext &Ctx) {
  struct Check : RecursiveASTVisitor<Check> {
    bool OK = true;
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *FD = C->getDirectCallee();
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      if (!FD || !(FD->isConstexpr() || (MD && MD->isConst())))
        OK = false;
      return true;
    }
    bool VisitExpr(Expr *E) {
      if (isa<CallExpr>(E) || isa<CXXConstructExpr>(E) ||
          isa<MaterializeTemporaryExpr>(E) || isa<ImplicitCastExpr>(E) ||
          isa<CXXBindTemporaryExpr>(E) || isa<ExprWithCleanups>(E))
        return true;
      if (const auto *U = dyn_cast<UnaryOperator>(E))
        if (U->isIncrementDecrementOp())
          OK = false;
      if (const auto *B = dyn_cast<BinaryOperator>(E))
        if (B->isAssignmentOp())
          OK = false;
      return true;
    }
  } C;
  C.TraverseStmt(const_cast<Expr *>(E));
  return C.OK;
}

} // namespace

const Expr *findWrite(const Stmt *S,
                      llvm::SmallPtrSetImpl<const ValueDecl *> &Vars) {
  WriteFinder WF(Vars);
  WF.TraverseStmt(const_cast<Stmt *>(S));
  return WF.Found;
}

/// True when FS is annotated with soa_conversion_target(Name).
static bool hasTarget(const ForStmt *FS, StringRef Name,
                      const AnnotationCollector &All) {
  auto It = All.Loops.find(FS->getForLoc());
  const AttrUse *T =
      It == All.Loops.end() ? nullptr : It->second.get(AttrKind::Target);
  return T && T->Target == Name;
}

/// True when Index is the index variable of another annotated index loop
/// whose target is Name (`bodies[j]` in the loop over `bodies[i]`): that use
/// belongs to the other loop's view.
static bool otherLoopsIndex(ASTContext &Ctx, const Expr *Index,
                            const VarDecl *Own, StringRef Name,
                            const AnnotationCollector &All) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Index->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || V == Own)
    return false;
  for (const DynTypedNode &DS : Ctx.getParents(*V))
    for (const DynTypedNode &FP : Ctx.getParents(DS)) {
      const auto *FS = FP.get<ForStmt>();
      if (FS && FS->getInit() == DS.get<Stmt>() && hasTarget(FS, Name, All))
        return true;
    }
  return false;
}

/// The parent of E, skipping parentheses and implicit casts, for expressions
/// that ParentMap does not reach (operands of decltype and __typeof__ in a
/// declaration's type).
static const Stmt *typeOperandParent(ASTContext &Ctx, const Expr *E) {
  const Stmt *Cur = E;
  while (true) {
    DynTypedNodeList Ps = Ctx.getParents(*Cur);
    const Stmt *P = Ps.empty() ? nullptr : Ps[0].get<Stmt>();
    if (!P || !(isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P)))
      return P;
    Cur = P;
  }
}

/// True when E lies in the body of an annotated loop over target Name that
/// is nested in Own.
static bool insideOtherTargetLoop(ASTContext &Ctx, const Expr *E,
                                  const Stmt *Own, StringRef Name,
                                  const AnnotationCollector &All) {
  DynTypedNodeList Parents = Ctx.getParents(*E);
  while (!Parents.empty()) {
    DynTypedNode N = Parents[0];
    const Stmt *P = N.get<Stmt>();
    if (P == Own)
      return false;
    // Through declarations (`double d = bodies[i].x`) and lambdas in the
    // loop, but not out of the function.
    if (const auto *FD = N.get<FunctionDecl>()) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!MD || !MD->getParent()->isLambda())
        return false;
    }
    if (const auto *FS = dyn_cast_or_null<ForStmt>(P))
      if (hasTarget(FS, Name, All))
        return true;
    Parents = Ctx.getParents(N);
  }
  return false;
}

std::optional<LoopForm> recogniseLoop(ASTContext &Ctx, const Stmt *Loop,
                                      const FunctionDecl *Fn,
                                      const LoopAnnotation &A,
                                      const AnnotationCollector &All,
                                      DiagStore &Diags) {
  LoopForm F;
  F.Loop = Loop;
  F.Function = Fn;
  const AttrUse *Target = A.get(AttrKind::Target);

  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop)) {
    if (Target) {
      StoredDiag &D = Diags.error(
          Target->Range.getBegin(),
          "'soa_conversion_target' names the array of an index loop; a "
          "range-based for loop converts its range");
      Diags.note(D, RF->getForLoc(), "remove the target or use an index loop");
      return std::nullopt;
    }
    F.Kind = LoopFormKind::Range;
    F.Body = RF->getBody();
    F.LoopVar = RF->getLoopVariable();
    if (isa<DecompositionDecl>(F.LoopVar) || RF->getInit()) {
      StoredDiag &D = Diags.error(
          F.LoopVar->getLocation(),
          "unsupported loop form: structured bindings or an init-statement");
      Diags.note(D, RF->getForLoc(),
                 "expected 'for (auto &e : range)' or 'for (auto *e : range)'");
      return std::nullopt;
    }
    F.RangeInit = RF->getRangeInit();
    QualType VT = F.LoopVar->getType();
    QualType Elem = VT.getNonReferenceType();
    F.VarIsCopy = !VT->isReferenceType() && !VT->isPointerType();
    if (Elem->isPointerType()) {
      F.VarIsPointer = true;
      Elem = Elem->getPointeeType();
    }
    F.VarIsConst = Elem.isConstQualified();
    F.ElementType = Elem.getUnqualifiedType();
    F.Element = recordOf(F.ElementType);
    if (!F.Element || F.Element->isUnion()) {
      StoredDiag &D = Diags.error(
          F.LoopVar->getLocation(),
          "cannot convert a loop whose elements are not structs");
      Diags.note(D, F.LoopVar->getLocation(),
                 "the loop variable has type '" +
                     qualifiedName(Ctx, F.LoopVar->getType()) +
                     "'; soaview views struct and class elements");
      return std::nullopt;
    }
    if (F.VarIsPointer && !VT->isPointerType()) {
      StoredDiag &D = Diags.error(F.LoopVar->getLocation(),
                                  "cannot convert a loop whose variable is a "
                                  "reference to a pointer");
      Diags.note(D, F.LoopVar->getLocation(),
                 "iterate by value: 'auto *" + F.LoopVar->getName().str() +
                     "'");
      return std::nullopt;
    }
    return F;
  }

  const auto *FS = dyn_cast<ForStmt>(Loop);
  auto expectIndexForm = [&](SourceLocation L, StringRef What) {
    StoredDiag &D = Diags.error(L, ("unsupported loop form: " + What).str());
    Diags.note(D, FS ? FS->getForLoc() : Loop->getBeginLoc(),
               "expected 'for (i = lo; i < n; ++i)' with "
               "soa_conversion_target(\"name\") naming the indexed array, or a "
               "range-based for loop");
    return std::nullopt;
  };
  if (!FS)
    return expectIndexForm(Loop->getBeginLoc(), "not a for loop");
  F.Kind = LoopFormKind::Index;
  F.Body = FS->getBody();
  if (!Target)
    return expectIndexForm(FS->getForLoc(),
                           "an index loop needs soa_conversion_target");

  // Init: `int i = lo` or `i = lo`.
  const Stmt *Init = FS->getInit();
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
    if (DS->isSingleDecl())
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()))
        if (V->getInit()) {
          F.IndexVar = V;
          F.Lo = V->getInit();
        }
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init)) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(BO->getLHS())))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
          F.IndexVar = V;
          F.Lo = BO->getRHS();
        }
  }
  if (!F.IndexVar || !F.IndexVar->getType()->isIntegerType())
    return expectIndexForm(Init ? Init->getBeginLoc() : FS->getForLoc(),
                           "the loop must start by setting one integer index");
  // Condition: i < n.
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || Cond->getOpcode() != BO_LT || !refersTo(Cond->getLHS(), F.IndexVar))
    return expectIndexForm(FS->getCond() ? FS->getCond()->getBeginLoc()
                                         : FS->getForLoc(),
                           "the condition must be 'index < bound'");
  F.Hi = Cond->getRHS();
  // Increment: ++i, i++, i += 1.
  const Expr *Inc = FS->getInc();
  bool IncOK = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(strip(Inc)))
    IncOK = U->isIncrementOp() && refersTo(U->getSubExpr(), F.IndexVar);
  if (const auto *B = dyn_cast_or_null<CompoundAssignOperator>(strip(Inc))) {
    Expr::EvalResult R;
    IncOK = B->getOpcode() == BO_AddAssign && refersTo(B->getLHS(), F.IndexVar) &&
            B->getRHS()->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 1;
  }
  if (!IncOK)
    return expectIndexForm(Inc ? Inc->getBeginLoc() : FS->getForLoc(),
                           "the increment must be '++index', 'index++' or "
                           "'index += 1'");
  if (!pureBound(F.Lo, Ctx) || !pureBound(F.Hi, Ctx))
    return expectIndexForm(F.Hi->getBeginLoc(),
                           "the loop bounds must not have side effects");

  // The index and the bound must not change in the body.
  llvm::SmallPtrSet<const ValueDecl *, 4> Invariant;
  Invariant.insert(F.IndexVar);
  struct BoundVars : RecursiveASTVisitor<BoundVars> {
    llvm::SmallPtrSetImpl<const ValueDecl *> &S;
    explicit BoundVars(llvm::SmallPtrSetImpl<const ValueDecl *> &S) : S(S) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (isa<VarDecl>(E->getDecl()))
        S.insert(E->getDecl());
      return true;
    }
  } BV(Invariant);
  BV.TraverseStmt(const_cast<Expr *>(F.Hi));
  WriteFinder WF(Invariant);
  WF.TraverseStmt(const_cast<Stmt *>(F.Body));
  if (WF.Found) {
    StoredDiag &D =
        Diags.error(WF.Found->getExprLoc(),
                    "the loop index or bound is modified in the loop body");
    Diags.note(D, FS->getForLoc(),
               "a converted index loop must run exactly 'bound - lo' "
               "iterations, known before it starts");
    return std::nullopt;
  }

  // Target: every use must be exactly `name[i]`.
  F.TargetName = Target->Target;
  UseFinder UF(F.TargetName);
  UF.TraverseStmt(const_cast<Stmt *>(F.Body));
  if (UF.Uses.empty()) {
    StoredDiag &D = Diags.error(
        Target->Range.getBegin(),
        "unknown target '" + F.TargetName + "': the loop body never uses it");
    Diags.note(D, FS->getForLoc(),
               "soa_conversion_target names the array the loop indexes as "
               "'name[i]'");
    return std::nullopt;
  }
  for (const Expr *U : UF.Uses) {
    const NamedDecl *D = isa<DeclRefExpr>(U)
                             ? cast<DeclRefExpr>(U)->getDecl()
                             : cast<MemberExpr>(U)->getMemberDecl();
    if (F.Target && F.Target != D) {
      Diags.error(U->getExprLoc(), "target name '" + F.TargetName +
                                       "' refers to more than one variable");
      return std::nullopt;
    }
    F.Target = D;
    if (const auto *ME = dyn_cast<MemberExpr>(U))
      if (!ME->isImplicitAccess()) {
        StoredDiag &Dg = Diags.error(U->getExprLoc(),
                                     "the target must be named unqualified");
        Diags.note(Dg, U->getExprLoc(), "write '" + F.TargetName +
                                            "[i]' instead of an explicit "
                                            "member access");
        return std::nullopt;
      }
  }
  QualType TT = cast<ValueDecl>(F.Target)->getType().getNonReferenceType();
  QualType Elem;
  if (TT->isPointerType())
    Elem = TT->getPointeeType();
  else if (TT->isConstantArrayType())
    Elem = Ctx.getAsConstantArrayType(TT)->getElementType();
  else if (const auto *TS = TT->getAs<TemplateSpecializationType>()) {
    (void)TS;
  }
  if (Elem.isNull())
    if (const auto *CT = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            TT->getAsCXXRecordDecl()))
      if (CT->getQualifiedNameAsString() == "std::vector")
        Elem = CT->getTemplateArgs()[0].getAsType();
  if (Elem.isNull() || !recordOf(Elem) || recordOf(Elem)->isUnion()) {
    StoredDiag &D = Diags.error(Target->Range.getBegin(),
                                "target '" + F.TargetName +
                                    "' is not an array of structs");
    Diags.note(D, F.Target->getLocation(),
               "declared here with type '" + qualifiedName(Ctx, TT) +
                   "'; expected T*, T[N] or std::vector<T> with T a struct");
    return std::nullopt;
  }
  F.ElementType = Elem.getUnqualifiedType();
  F.Element = recordOf(Elem);
  F.VarIsConst = Elem.isConstQualified();

  ParentMap PM(const_cast<Stmt *>(F.Body));
  for (const Expr *U : UF.Uses) {
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
    if (Index && !refersTo(Index, F.IndexVar) &&
        otherLoopsIndex(Ctx, Index, F.IndexVar, F.TargetName, All))
      continue;
    if (!Index || !refersTo(Index, F.IndexVar)) {
      StoredDiag &D = Diags.error(
          U->getExprLoc(), "target '" + F.TargetName +
                               "' is used other than as '" + F.TargetName +
                               "[" + F.IndexVar->getName().str() + "]'");
      Diags.note(D, FS->getForLoc(),
                 "a view holds exactly the element of the current iteration");
      return std::nullopt;
    }
    F.TargetUses.push_back(cast<Expr>(P));
    if (insideOtherTargetLoop(Ctx, U, F.Loop, F.TargetName, All))
      F.ShadowedUses.push_back(cast<DeclRefExpr>(strip(U)));
  }
  return F;
}

LoopJumps findLoopJumps(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    unsigned Loops = 0, Switches = 0; // nested statements owning jumps
    LoopJumps J;
    using Base = RecursiveASTVisitor<Finder>;
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

} // namespace soaview
