//===- Accesses.cpp - how a field access is used, and what a view holds ---===//
//
// The analysis's rules for one field access: whether its value is read,
// written or both, whether its address may outlive the iteration, whether
// the field can live in a view at all, and whether a callee receiving an
// element is visible. Tests: test/Sema/refusals*.cpp, test/Rewrite/*.
//===----------------------------------------------------------------------===//
#include "analysis/Analyzer.h"

#include "support/AstHelpers.h"
#include "support/ValueClasses.h"

#include "clang/AST/StmtOpenMP.h"

using namespace clang;

namespace soaview {
namespace analysis {

bool Analyzer::visible(const FunctionDecl *FD, SourceLocation Use,
                       StringRef What) {
  const FunctionDecl *Def = nullptr;
  // std::move, std::forward, std::addressof, ...: builtins without a body,
  // declared in a system header like any other library function.
  bool Library = isLibraryFunction(SM, FD);
  if ((!FD->hasBody(Def) || !Def) && !Library) {
    refuse(Use, {diag::err_callee_invisible, {FD->getQualifiedNameAsString()}},
           FD->getLocation(), Msg(diag::note_callee_invisible));
    return false;
  }
  if (Library || SM.isInSystemHeader(Def->getLocation())) {
    refuse(Use, {diag::err_callee_system, {FD->getQualifiedNameAsString()}},
           FD->getLocation(), Msg(diag::note_callee_system, {What.str()}));
    return false;
  }
  return true;
}

bool Analyzer::checkField(const FieldDecl *FD, SourceLocation Use) {
  auto Bad = [&](diag::Id Why, diag::Id Note) {
    refuse(Use, {Why, {FD->getName().str()}}, FD->getLocation(), Msg(Note));
    return false;
  };
  QualType T = FD->getType();
  if (FD->getName().starts_with(ReservedPrefix))
    return Bad(diag::err_member_reserved, diag::note_member_reserved);
  if (FD->isBitField())
    return Bad(diag::err_field_bitfield, diag::note_field_bitfield);
  if (T->isReferenceType())
    return Bad(diag::err_field_reference, diag::note_field_reference);
  if (T.isVolatileQualified() || T->isAtomicType())
    return Bad(diag::err_field_volatile, diag::note_field_volatile);
  if (std::optional<AtomicPart> A = atomicPart(Ctx, T);
      A && A->Member.empty()) {
    refuse(Use, {diag::err_field_volatile, {FD->getName().str()}},
           FD->getLocation(), Msg(diag::note_field_atomic, {A->Type}));
    return false;
  }
  if (!T.isTriviallyCopyableType(Ctx) && !T->isRecordType())
    return Bad(diag::err_field_not_copyable, diag::note_field_memcpy);
  return true;
}

namespace {
bool passedOn(const Expr *Use, ParentMap &PM);

/// The atomic operation the builtin call or node P is, or "".
std::string atomicOperation(const Stmt *P) {
  if (isa<AtomicExpr>(P))
    return "an atomic builtin";
  if (const auto *CE = dyn_cast<CallExpr>(P))
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && FD->getBuiltinID() && FD->getName().starts_with("__sync_"))
      return "'" + FD->getName().rtrim("0123456789").rtrim('_').str() + "'";
  if (isa<OMPAtomicDirective>(P))
    return "'#pragma omp atomic'";
  return "";
}

/// The first atomic operation in the body of FD (a callee given a field's
/// address), or "".
std::string atomicOperationIn(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def->getBody())
    return "";
  std::vector<const Stmt *> Work{Def->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (std::string Op = atomicOperation(S); !Op.empty())
      return Op;
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S))
      if (std::optional<AtomicPart> A =
              atomicPart(FD->getASTContext(), CE->getType()))
        return "'" + A->Type + "'";
    for (const Stmt *C : S->children())
      if (C)
        Work.push_back(C);
  }
  return "";
}
/// The atomic operation that Use (a field's lvalue) is handed to: an atomic
/// builtin given its address, a std::atomic_ref bound to it, or an update
/// under `#pragma omp atomic`; "" when none.
std::string atomicUseOf(const ASTContext &Ctx, const Expr *Use, ParentMap &PM) {
  const Expr *Cur = Use;
  const Stmt *P =
      parentThrough(PM, Cur, Through::Parens | Through::ImplicitCasts);
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
      U && U->getOpcode() == UO_AddrOf) {
    Cur = U;
    P = parentThrough(PM, Cur, Through::Parens | Through::ImplicitCasts);
  }
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(P))
    if (std::optional<AtomicPart> A = atomicPart(Ctx, CE->getType()))
      return "'" + A->Type + "'";
  if (const auto *CE = dyn_cast_or_null<CallExpr>(P);
      CE && !CE->getBuiltinCallee())
    if (std::string Op = atomicOperationIn(CE->getDirectCallee()); !Op.empty())
      return Op;
  for (; P; P = PM.getParent(const_cast<Stmt *>(P)))
    if (std::string Op = atomicOperation(P); !Op.empty())
      return Op;
  return "";
}

} // namespace

/// A field access through a view: recorded as a leaf (or a whole record)
/// of the view with how it is used.
void Analyzer::leaf(const Expr *Use, const Binding &B, bool Whole,
                    ParentMap &PM) {
  std::string Atomic = atomicUseOf(Ctx, Use, PM);
  const CallExpr *RefCall = nullptr;
  bool Returned = false;
  LeafAccess Found = classifyUse(Use, PM, &RefCall, &Returned);
  if (Atomic.empty() && RefCall)
    Atomic = atomicOperationIn(RefCall->getDirectCallee());
  if (!Atomic.empty()) {
    refuse(Use->getExprLoc(),
           {diag::err_field_atomic_use, {dotted(B.Path), Atomic}}, {},
           Msg(diag::note_field_atomic_use));
    return;
  }
  if (const RecordDecl *RD =
          Ctx.getBaseElementType(Use->getType())->getAsRecordDecl();
      RD && !RD->getIdentifier() && !RD->getTypedefNameForAnonDecl()) {
    refuse(
        Use->getExprLoc(), {diag::err_field_unnamed_class, {dotted(B.Path)}},
        RD->getLocation(),
        Msg(diag::note_field_unnamed_class, {B.Path.back()->getName().str()}));
    return;
  }
  std::vector<PassedAddress> Passed;
  if (RefCall) // by non-const reference or pointer: it may keep the address
    Passed.push_back({RefCall, Use->getType(), true});
  if (!addressStaysLocal(Use, PM, Passed)) {
    refuse(Use->getExprLoc(),
           {diag::err_field_address_escapes, {dotted(B.Path)}}, {},
           Msg(diag::note_field_address_escapes));
    return;
  }
  if (!calleesSeeAddresses(Use, B, Passed))
    return;
  Found.RefSensitive = Use->getType().isConstQualified() && passedOn(Use, PM);
  ViewModel &V = view(B);
  (Whole ? V.Wholes[B.Path] : V.Leaves[B.Path]).join(Found);
  if (Returned)
    ReturnedLeaves.push_back({*CurrentKey, B, Whole});
}

/// A call handing on the address of part of an element must reach a body
/// soaview sees (checked where it is analysed), or a library function that
/// only treats the object as memory: one given the address of a number (an
/// array of numbers), or a builtin such as memcpy. A lock or another object
/// known by its address would be the view's copy there, not the element's.
bool Analyzer::calleesSeeAddresses(const Expr *Use, const Binding &B,
                                   const std::vector<PassedAddress> &Passed) {
  for (const PassedAddress &A : Passed) {
    const FunctionDecl *FD = A.Call->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    bool System = FD && SM.isInSystemHeader(FD->getLocation());
    if (!FD || (!FD->hasBody(Def) && !System)) {
      refuse(Use->getExprLoc(),
             {A.ByReference ? diag::err_field_ref_invisible
                            : diag::err_field_address_invisible,
              {dotted(B.Path), FD ? "'" + FD->getQualifiedNameAsString() + "'"
                                  : std::string("an indirect call")}},
             FD ? FD->getLocation() : Use->getExprLoc(),
             Msg(diag::note_field_ref_invisible));
      return false;
    }
    QualType Object = Ctx.getBaseElementType(A.Pointee.getNonReferenceType());
    if (!System || FD->hasBody(Def) || FD->getBuiltinID() ||
        !Object->isRecordType())
      continue;
    refuse(Use->getExprLoc(),
           {diag::err_field_address_opaque,
            {dotted(B.Path),
             Object.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()),
             FD->getQualifiedNameAsString()}},
           FD->getLocation(), Msg(diag::note_field_address_opaque));
    return false;
  }
  return true;
}

void Analyzer::resultUse(const AnalysisKey &Callee, const CallExpr *C,
                         ParentMap &PM) {
  QualType T = Callee.FD->getReturnType();
  if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified())
    return; // nothing written through the result of this call
  bool Returned = false;
  LeafAccess A = classifyUse(C, PM, nullptr, &Returned);
  ResultUse &U = ResultUses[Callee];
  U.Written |= A.Written;
  if (Returned)
    U.Into.insert(*CurrentKey);
}

bool Analyzer::resultWritten(const AnalysisKey &K,
                             std::set<AnalysisKey> &Visited) const {
  auto It = ResultUses.find(K);
  if (It == ResultUses.end() || It->second.Written)
    return true; // no call seen: counted as written, as always safe
  if (!Visited.insert(K).second)
    return false; // a recursion: decided by the other callers
  for (const AnalysisKey &Caller : It->second.Into)
    if (resultWritten(Caller, Visited))
      return true;
  return false;
}

void Analyzer::writesThroughResults() {
  for (const ReturnedLeaf &R : ReturnedLeaves) {
    std::set<AnalysisKey> Visited;
    if (!resultWritten(R.From, Visited))
      continue;
    ViewModel &V = view(R.B);
    (R.Whole ? V.Wholes : V.Leaves)[R.B.Path].Written = true;
  }
}

namespace {

/// The value-keeping parent of E: past parentheses and casts other than
/// the ones that read the value or decay an array (E becomes its child).
const Stmt *valueParent(const Expr *&E, ParentMap &PM) {
  return parentThrough(PM, E, Through::Parens | Through::ValueCasts);
}

/// Whether a pointer value E (an address of part of an element) is only
/// used within the statement: dereferenced, subscripted, compared, passed
/// to a call.
bool pointerUseIsLocal(const Expr *E, ParentMap &PM,
                       std::vector<PassedAddress> &Passed) {
  QualType Pointee = E->getType()->getPointeeType();
  const Stmt *P = valueParent(E, PM);
  if (!P)
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(P))
    return U->getOpcode() == UO_Deref;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P))
    return AS->getBase() == E;
  if (const auto *ME = dyn_cast<MemberExpr>(P))
    return ME->getBase() == E;
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    return BO->isComparisonOp();
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    Passed.push_back({CE, Pointee});
    return true; // the callee may not keep it (docs/semantics.md)
  }
  return false;
}

/// A use of a local reference to part of an element stays local: it is
/// used like the field itself, except that its address is not taken and no
/// other reference is bound to it.
bool referenceUseIsLocal(const Expr *E, const Stmt *P, ParentMap &PM,
                         std::vector<PassedAddress> &Passed) {
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
    if (UO->getOpcode() == UO_AddrOf)
      return false;
  if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P))
    if (IC->getCastKind() == CK_ArrayToPointerDecay &&
        !pointerUseIsLocal(IC, PM, Passed))
      return false;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(P))
    for (const Decl *X : DS->decls())
      if (const auto *W = dyn_cast<VarDecl>(X))
        if (W->getInit() == E && W->getType()->isReferenceType())
          return false;
  return true;
}

/// Whether every use of local variable V (a pointer or reference to part
/// of an element) stays within the iteration.
bool localUsesStayLocal(const VarDecl *V, const Stmt *Body, ParentMap &PM,
                        std::vector<PassedAddress> &Passed) {
  for (const DeclRefExpr *D :
       findVarUses(Body, [&](const VarDecl *W) { return W == V; })) {
    const Expr *E = D;
    const Stmt *P = valueParent(E, PM);
    if (V->getType()->isReferenceType()) {
      if (!referenceUseIsLocal(E, P, PM, Passed))
        return false;
      continue;
    }
    if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P))
      if (IC->getCastKind() == CK_LValueToRValue) {
        if (!pointerUseIsLocal(IC, PM, Passed))
          return false;
        continue;
      }
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P))
      if (BO->getOpcode() == BO_Assign && BO->getLHS() == E)
        continue; // reassigned: what it gets is checked where it comes from
    return false;
  }
  return true;
}

/// The local variable that Init initialises in DS (a pointer or reference
/// to part of an element), or null.
const VarDecl *initialised(const DeclStmt *DS, const Expr *Init) {
  for (const Decl *D : DS->decls())
    if (const auto *V = dyn_cast<VarDecl>(D))
      if (V->getInit() == Init)
        return V;
  return nullptr;
}

/// Whether a local pointer or reference V bound in DS keeps the address
/// within the iteration.
bool localStaysLocal(const VarDecl *V, const DeclStmt *DS, ParentMap &PM,
                     std::vector<PassedAddress> &Passed) {
  const Stmt *Scope = PM.getParent(const_cast<DeclStmt *>(DS));
  return V->isLocalVarDecl() && !V->isStaticLocal() &&
         localUsesStayLocal(V, Scope ? Scope : DS, PM, Passed);
}

} // namespace

bool Analyzer::addressStaysLocal(const Expr *Use, ParentMap &PM,
                                 std::vector<PassedAddress> &Passed) {
  // Find the address or reference taken of the field, if any.
  const Expr *Cur = Use;
  while (true) {
    const Stmt *P =
        parentThrough(PM, Cur, Through::Parens | Through::NoOpCasts);
    if (!P)
      return true;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P)) {
      if (AS->getBase() != Cur)
        return true; // the field is the index: its value is read
      Cur = AS;      // an element of an array field: follow it
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (ME->getBase() == Cur && !isa<CXXMethodDecl>(ME->getMemberDecl())) {
        Cur = ME;
        continue;
      }
      return true;
    }
    const Expr *Addr = nullptr;
    if (const auto *U = dyn_cast<UnaryOperator>(P)) {
      if (U->getOpcode() != UO_AddrOf)
        return true;
      Addr = U;
    } else if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() != CK_ArrayToPointerDecay)
        return true;
      const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(
          PM.getParent(const_cast<ImplicitCastExpr *>(IC)));
      if (AS && AS->getBase() == IC) {
        Cur = AS; // `p->a[k]`: follow the element
        continue;
      }
      Addr = IC;
    } else if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      // `T &r = p->f;`: a local reference to the field.
      const VarDecl *V = initialised(DS, Cur);
      if (V && V->getType()->isReferenceType())
        return localStaysLocal(V, DS, PM, Passed);
      return true;
    } else {
      return true;
    }
    if (pointerUseIsLocal(Addr, PM, Passed))
      return true;
    const Expr *E = Addr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(valueParent(E, PM)))
      if (const VarDecl *V = initialised(DS, E))
        return localStaysLocal(V, DS, PM, Passed);
    return false;
  }
}

/// How a call uses the lvalue Arg: read through a const reference (or a
/// const member operator), written by `=`, else both; RefCall is set when
/// the callee receives a reference or pointer it could keep.
LeafAccess Analyzer::classifyArgument(const CallExpr *CE, const Expr *Arg,
                                      const CallExpr **RefCall) {
  auto Use = [](bool Read, bool Written) {
    LeafAccess A;
    A.Read = Read;
    A.Written = Written;
    return A;
  };
  const FunctionDecl *FD = CE->getDirectCallee();
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  unsigned I = 0;
  while (I < CE->getNumArgs() && CE->getArg(I) != Arg)
    ++I;
  bool MemberOperator = OC && FD && isa<CXXMethodDecl>(FD);
  if (MemberOperator && I == 0) {
    bool Const = cast<CXXMethodDecl>(FD)->isConst();
    bool Assign = OC->isAssignmentOp() && OC->getOperator() == OO_Equal;
    return Use(!Assign, !Const);
  }
  unsigned Param = I - (MemberOperator ? 1 : 0);
  if (!FD || I >= CE->getNumArgs() || Param >= FD->getNumParams())
    return Use(true, true);
  QualType ParamType = FD->getParamDecl(Param)->getType();
  if (ParamType->isReferenceType() &&
      ParamType.getNonReferenceType().isConstQualified())
    return Use(true, false);
  if (RefCall && (ParamType->isReferenceType() || ParamType->isPointerType()))
    *RefCall = CE;
  return Use(true, true);
}

namespace {

/// Whether a call of MD on an object only names part of it, so that what
/// the call's result is used for is what is done to the object: a
/// non-virtual member returning a non-const lvalue reference whose body is
/// a single `return E;` with no side effects (`T &operator[](int i) {
/// return v[i]; }`), or std::array's operator[], at, front and back. Any
/// other non-const member counts as writing its object.
bool isAccessor(const CXXMethodDecl *MD, const ASTContext &Ctx,
                const SourceManager &SM) {
  if (!MD || MD->isStatic() || MD->isVirtual() || MD->isConst())
    return false;
  QualType T = MD->getReturnType();
  if (!T->isLValueReferenceType() || T.getNonReferenceType().isConstQualified())
    return false;
  if (SM.isInSystemHeader(MD->getLocation())) {
    const CXXRecordDecl *RD = MD->getParent();
    if (!RD->isInStdNamespace() || !RD->getIdentifier() ||
        RD->getName() != "array")
      return false;
    if (MD->isOverloadedOperator())
      return MD->getOverloadedOperator() == OO_Subscript;
    return MD->getIdentifier() &&
           llvm::is_contained({"at", "front", "back"}, MD->getName());
  }
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def)
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return false;
  const auto *R = dyn_cast<ReturnStmt>(Body->body_front());
  const Expr *E = R ? R->getRetValue() : nullptr;
  return E && !E->HasSideEffects(Ctx);
}

/// The accessor call on the object Cur that its parent P starts:
/// `p->v.at(k)` (P the member expression) or `p->v[k]` (P the operator
/// call); null otherwise.
const Expr *accessorCall(const Stmt *P, const Expr *Cur, ParentMap &PM,
                         const ASTContext &Ctx, const SourceManager &SM) {
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(
        PM.getParent(const_cast<MemberExpr *>(ME)));
    return MC && MC->getCallee()->IgnoreParens() == ME &&
                   isAccessor(dyn_cast<CXXMethodDecl>(ME->getMemberDecl()), Ctx,
                              SM)
               ? MC
               : nullptr;
  }
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(P);
  return OC && OC->getNumArgs() > 0 && OC->getArg(0) == Cur &&
                 isAccessor(
                     dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee()),
                     Ctx, SM)
             ? OC
             : nullptr;
}

/// The parent of lvalue Cur when it is the same lvalue again (the walk goes
/// on from it), decided by value category: parentheses, casts that keep the
/// object, either arm of a conditional that is an lvalue, the right operand
/// of a comma, the element of an array field. Sets Cur to it; null when the
/// parent does something with the lvalue.
const Expr *sameLvalue(const Stmt *P, const Expr *Cur, ParentMap &PM) {
  const auto *E = dyn_cast<Expr>(P);
  if (!E || !E->isGLValue())
    return nullptr;
  if (isa<ParenExpr>(E))
    return E;
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return Cast->getCastKind() == CK_NoOp ? E : nullptr;
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return CO->getCond() != Cur ? E : nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->getOpcode() == BO_Comma && BO->getRHS() == Cur ? E : nullptr;
  return nullptr;
}

/// Whether the lvalue Use is passed on as an lvalue (to a call, a member
/// function, a reference, a constructor, a return) rather than only read or
/// assigned: through a const object, such a use could mean something else
/// when the view reaches the field through a (non-const) reference member.
bool passedOn(const Expr *Use, ParentMap &PM) {
  const Expr *Cur = Use;
  while (true) {
    const Stmt *P =
        parentThrough(PM, Cur, Through::Parens | Through::NoOpCasts);
    if (!P)
      return false;
    if (isa<DeclStmt>(P) || isa<ReturnStmt>(P))
      return true;
    if (!isa<Expr>(P))
      return false;
    if (const Expr *Same = sameLvalue(P, Cur, PM)) {
      Cur = Same;
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_LValueToRValue)
        return false;
      const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(
          PM.getParent(const_cast<ImplicitCastExpr *>(IC)));
      if (IC->getCastKind() != CK_ArrayToPointerDecay || !AS ||
          AS->getBase() != IC)
        return true;
      Cur = AS;
      continue;
    }
    if (const auto *EC = dyn_cast<ExplicitCastExpr>(P))
      return EC->getCastKind() != CK_ToVoid;
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (!isa<FieldDecl>(ME->getMemberDecl()))
        return true;
      Cur = ME;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return BO->getLHS() != Cur ||
             !(BO->isAssignmentOp() || BO->getOpcode() == BO_Comma);
    return true;
  }
}

/// The function a return statement in the analysed body returns from: a
/// lambda's call operator when it is inside one.
const FunctionDecl *returningFunction(const ReturnStmt *R, ParentMap &PM,
                                      const FunctionDecl *Body) {
  for (const Stmt *S = PM.getParent(const_cast<ReturnStmt *>(R)); S;
       S = PM.getParent(const_cast<Stmt *>(S)))
    if (const auto *L = dyn_cast<LambdaExpr>(S))
      return L->getCallOperator();
  return Body;
}

} // namespace

/// Whether the value of an lvalue is read, written, or both, decided by
/// what is done with it (its value category along the way): an lvalue
/// passed on unchanged (a conditional's arm, a comma's result, a cast that
/// keeps the object) is followed; a local reference bound to it is followed
/// through the reference's uses. Anything not recognised counts as both,
/// which is always safe (gathered and scattered).
LeafAccess Analyzer::classifyUse(const Expr *Use, ParentMap &PM,
                                 const CallExpr **RefCall, bool *Returned) {
  LeafAccess A;
  A.FirstUse = Use->getExprLoc();
  const Expr *Cur = Use;
  while (true) {
    const Stmt *P =
        parentThrough(PM, Cur, Through::Parens | Through::NoOpCasts);
    if (!P)
      return A; // discarded
    if (const Expr *Next = nextLvalue(P, Cur, PM)) {
      Cur = Next;
      continue;
    }
    return usedBy(P, Cur, PM, A, RefCall, Returned);
  }
}

/// What P makes of lvalue Cur when it passes the lvalue on: the same lvalue
/// again, an element of an array field, an accessor's result (used in place
/// of the object), a field of a sub-object. Null when P uses it.
const Expr *Analyzer::nextLvalue(const Stmt *P, const Expr *Cur,
                                 ParentMap &PM) {
  if (const Expr *Same = sameLvalue(P, Cur, PM))
    return Same;
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P);
      IC && IC->getCastKind() == CK_ArrayToPointerDecay) {
    const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(
        PM.getParent(const_cast<ImplicitCastExpr *>(IC)));
    if (AS && AS->getBase() == IC)
      return AS;
  }
  if (const Expr *Call = accessorCall(P, Cur, PM, Ctx, SM))
    return Call;
  if (const auto *ME = dyn_cast<MemberExpr>(P);
      ME && !isa<CXXMethodDecl>(ME->getMemberDecl())) {
    Handled.insert(ME);
    return ME;
  }
  return nullptr;
}

/// How P uses lvalue Cur: A (its first use set) with Read and Written.
LeafAccess Analyzer::usedBy(const Stmt *P, const Expr *Cur, ParentMap &PM,
                            LeafAccess A, const CallExpr **RefCall,
                            bool *Returned) {
  auto Both = [&] {
    A.Read = A.Written = true;
    return A;
  };
  // `(void)p->f` discards the lvalue: nothing is written (the field is
  // gathered so that the view has it).
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(P);
      EC && EC->getCastKind() == CK_ToVoid) {
    A.Read = true;
    return A;
  }
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
    if (IC->getCastKind() != CK_LValueToRValue)
      return Both();
    A.Read = true;
    return A;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(P)) { // a member function's
    A.Read = true;
    A.Written = !cast<CXXMethodDecl>(ME->getMemberDecl())->isConst();
    return A;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->isAssignmentOp() && BO->getLHS() == Cur) {
      A.Written = true;
      A.Read = BO->isCompoundAssignmentOp();
    } else if (!(BO->getOpcode() == BO_Comma && BO->getLHS() == Cur)) {
      return Both();
    }
    return A;
  }
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    LeafAccess ByCall = classifyArgument(CE, Cur, RefCall);
    A.Read = ByCall.Read;
    A.Written = ByCall.Written;
    return A;
  }
  if (isa<CXXConstructExpr>(P) || isa<InitListExpr>(P)) {
    A.Read = true;
    return A;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(P)) {
    const VarDecl *V = initialised(DS, Cur);
    if (V && V->getType()->isReferenceType())
      return referenceUses(V, DS, PM, A, RefCall, Returned);
    A.Read = true;
    return A;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(P))
    return returnedUse(R, PM, A, Returned);
  if (!isa<Expr>(P))
    return A; // discarded
  return Both();
}

/// Returned by reference: read only through a reference to const; through
/// a non-const one, written where a caller writes through the result
/// (resultUse), when the callers are followed.
LeafAccess Analyzer::returnedUse(const ReturnStmt *R, ParentMap &PM,
                                 LeafAccess A, bool *Returned) {
  const FunctionDecl *Fn = returningFunction(R, PM, CurrentFunction);
  QualType Type = Fn ? Fn->getReturnType() : QualType();
  A.Read = true;
  A.Written = Type.isNull() || !Type->isReferenceType() ||
              !Type.getNonReferenceType().isConstQualified();
  if (A.Written && Returned && CurrentKey && Fn == CurrentFunction &&
      Type->isLValueReferenceType()) {
    A.Written = false;
    *Returned = true;
  }
  return A;
}

/// A local reference V bound to the lvalue: it is used as the lvalue is,
/// in each of its uses (a reference to const only reads).
LeafAccess Analyzer::referenceUses(const VarDecl *V, const DeclStmt *DS,
                                   ParentMap &PM, LeafAccess A,
                                   const CallExpr **RefCall, bool *Returned) {
  A.Read = true;
  if (V->getType().getNonReferenceType().isConstQualified())
    return A;
  const Stmt *Scope = PM.getParent(const_cast<DeclStmt *>(DS));
  if (!V->isLocalVarDecl() || V->isStaticLocal() || !Scope ||
      ++ReferenceDepth > MaxReferenceDepth) {
    A.Written = true;
    return A;
  }
  for (const DeclRefExpr *Ref :
       findVarUses(Scope, [&](const VarDecl *W) { return W == V; })) {
    LeafAccess Through = classifyUse(Ref, PM, RefCall, Returned);
    A.Read |= Through.Read;
    A.Written |= Through.Written;
  }
  --ReferenceDepth;
  return A;
}

} // namespace analysis
} // namespace soaview
