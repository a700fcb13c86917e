//===- AccessChecks.cpp - read/write classification and view limits ------===//
//
// How a field access is used (read, written, both), whether a field can live
// in a view, whether a callee is visible, and the checks run once all views
// of a nest are known: foreign accesses and aliasing between views.
// Tests: test/Sema/refusals*.cpp, test/Sema/nests.cpp.
//===----------------------------------------------------------------------===//
#include "analysis/AnalysisImpl.h"

namespace soaview {
namespace detail {

bool Analyzer::visible(const FunctionDecl *FD, SourceLocation Use,
                       StringRef What) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def) {
    refuse(Use, {diag::err_callee_invisible, {FD->getQualifiedNameAsString()}},
           FD->getLocation(), Msg(diag::note_callee_invisible));
    return false;
  }
  if (SM.isInSystemHeader(Def->getLocation())) {
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
  if (FD->getName().starts_with(ReservedPrefix))
    return Bad(diag::err_member_reserved, diag::note_member_reserved);
  if (FD->isBitField())
    return Bad(diag::err_field_bitfield, diag::note_field_bitfield);
  if (FD->getType()->isReferenceType())
    return Bad(diag::err_field_reference, diag::note_field_reference);
  if (FD->getType().isVolatileQualified() || FD->getType()->isAtomicType())
    return Bad(diag::err_field_volatile, diag::note_field_volatile);
  QualType T = FD->getType();
  if (!T.isTriviallyCopyableType(Ctx) && !T->isRecordType())
    return Bad(diag::err_field_not_copyable, diag::note_field_memcpy);
  return true;
}

void Analyzer::leaf(const Expr *LE, const Binding &B, bool Whole,
                    ParentMap &PM) {
  const CallExpr *RefCall = nullptr;
  auto [Read, Write] = classifyUse(LE, PM, &RefCall);
  if (RefCall) {
    // A field passed by non-const reference or pointer: the callee must be
    // visible (it may keep the address; it must at least be seen).
    const FunctionDecl *FD = RefCall->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (!FD || (!FD->hasBody(Def) && !SM.isInSystemHeader(FD->getLocation()))) {
      refuse(LE->getExprLoc(),
             {diag::err_field_ref_invisible,
              {dotted(B.Path), FD ? "'" + FD->getQualifiedNameAsString() + "'"
                                  : std::string("an indirect call")}},
             FD ? FD->getLocation() : LE->getExprLoc(),
             Msg(diag::note_field_ref_invisible));
      return;
    }
  }
  if (!addressStaysLocal(LE, PM)) {
    refuse(LE->getExprLoc(), {diag::err_field_address_escapes, {dotted(B.Path)}},
           {}, Msg(diag::note_field_address_escapes));
    return;
  }
  ViewModel &V = view(B);
  LeafAccess &A = Whole ? V.Wholes[B.Path] : V.Leaves[B.Path];
  if (A.FirstUse.isInvalid())
    A.FirstUse = LE->getExprLoc();
  A.Read |= Read;
  A.Written |= Write;
}

/// Parent of E, skipping parentheses and casts that keep its value.
static const Stmt *valueParent(const Expr *&E, ParentMap &PM) {
  while (true) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(E));
    if (P && (isa<ParenExpr>(P) ||
              (isa<CastExpr>(P) && cast<CastExpr>(P)->getCastKind() != CK_LValueToRValue &&
               cast<CastExpr>(P)->getCastKind() != CK_ArrayToPointerDecay))) {
      E = cast<Expr>(P);
      continue;
    }
    return P;
  }
}

/// Whether a pointer value E (an address of part of an element) is only
/// used within the statement: dereferenced, subscripted, compared, passed
/// to a call.
static bool pointerUseIsLocal(const Expr *E, ParentMap &PM) {
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
  if (isa<CallExpr>(P))
    return true; // the callee may not keep it (docs/semantics.md)
  return false;
}

/// Whether every use of local variable V (a pointer or reference to part
/// of an element) stays within the iteration.
static bool localUsesStayLocal(const VarDecl *V, const Stmt *Body,
                               ParentMap &PM) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *V;
    std::vector<const DeclRefExpr *> Found;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->getDecl() == V)
        Found.push_back(E);
      return true;
    }
  } U;
  U.V = V;
  U.TraverseStmt(const_cast<Stmt *>(Body));
  for (const DeclRefExpr *D : U.Found) {
    const Expr *E = D;
    const Stmt *P = valueParent(E, PM);
    if (V->getType()->isReferenceType()) {
      // A reference is used like the field itself, except its address.
      if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
        if (UO->getOpcode() == UO_AddrOf)
          return false;
      if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P))
        if (IC->getCastKind() == CK_ArrayToPointerDecay && !pointerUseIsLocal(IC, PM))
          return false;
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(P))
        for (const Decl *X : DS->decls())
          if (const auto *W = dyn_cast<VarDecl>(X))
            if (W->getInit() == E && W->getType()->isReferenceType())
              return false;
      continue;
    }
    if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P))
      if (IC->getCastKind() == CK_LValueToRValue) {
        if (!pointerUseIsLocal(IC, PM))
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

bool Analyzer::addressStaysLocal(const Expr *LE, ParentMap &PM) {
  // Find the address or reference taken of the field, if any.
  const Expr *Cur = LE;
  while (true) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(Cur));
    if (!P)
      return true;
    if (isa<ParenExpr>(P) || (isa<ImplicitCastExpr>(P) &&
                              cast<ImplicitCastExpr>(P)->getCastKind() == CK_NoOp)) {
      Cur = cast<Expr>(P);
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P)) {
      if (AS->getBase() != Cur)
        return true; // the field is the index: its value is read
      Cur = AS; // an element of an array field: follow it
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
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getInit() == Cur && V->getType()->isReferenceType())
            return V->isLocalVarDecl() && !V->isStaticLocal() &&
                   localUsesStayLocal(V, PM.getParent(DS) ? PM.getParent(DS) : DS, PM);
      return true;
    } else {
      return true;
    }
    if (pointerUseIsLocal(Addr, PM))
      return true;
    const Expr *E = Addr;
    const Stmt *Q = valueParent(E, PM);
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(Q))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getInit() == E)
            return V->isLocalVarDecl() && !V->isStaticLocal() &&
                   localUsesStayLocal(V, PM.getParent(DS) ? PM.getParent(DS) : DS, PM);
    return false;
  }
}

/// How a call uses the lvalue Arg: read through a const reference (or a
/// const member operator), written by `=`, else both; RefCall is set when
/// the callee receives a reference or pointer it could keep.
std::pair<bool, bool> Analyzer::classifyArgument(const CallExpr *CE,
                                                 const Expr *Arg,
                                                 const CallExpr **RefCall) {
  const FunctionDecl *FD = CE->getDirectCallee();
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  unsigned I = 0;
  while (I < CE->getNumArgs() && CE->getArg(I) != Arg)
    ++I;
  if (FD && OC && isa<CXXMethodDecl>(FD) && I == 0) {
    bool Const = cast<CXXMethodDecl>(FD)->isConst();
    bool Assign = OC->isAssignmentOp() && OC->getOperator() == OO_Equal;
    return {!Assign, !Const};
  }
  unsigned PI = I - (OC && FD && isa<CXXMethodDecl>(FD) ? 1 : 0);
  if (!FD || I >= CE->getNumArgs() || PI >= FD->getNumParams())
    return {true, true};
  QualType PT = FD->getParamDecl(PI)->getType();
  if (PT->isReferenceType() && PT.getNonReferenceType().isConstQualified())
    return {true, false};
  if (RefCall && (PT->isReferenceType() || PT->isPointerType()))
    *RefCall = CE;
  return {true, true};
}

/// Whether the value of an lvalue is read, written, or both. Anything not
/// recognised counts as both, which is always safe (gathered and scattered).
std::pair<bool, bool> Analyzer::classifyUse(const Expr *LE, ParentMap &PM,
                                            const CallExpr **RefCall) {
  bool Read = false, Write = false;
  const Expr *Cur = LE;
  while (true) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(Cur));
    if (!P) {
      break; // discarded
    }
    if (isa<ParenExpr>(P)) {
      Cur = cast<Expr>(P);
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_NoOp) {
        Cur = IC;
        continue;
      }
      if (IC->getCastKind() == CK_LValueToRValue) {
        Read = true;
        break;
      }
      if (IC->getCastKind() == CK_ArrayToPointerDecay) {
        const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(
            PM.getParent(const_cast<ImplicitCastExpr *>(IC)));
        if (AS && AS->getBase() == IC) {
          Cur = AS;
          continue;
        }
      }
      Read = Write = true;
      break;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl())) {
        if (MD->isConst())
          Read = true;
        else
          Read = Write = true;
        break;
      }
      Handled.insert(ME);
      Cur = ME;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAssignmentOp() && BO->getLHS() == Cur) {
        Write = true;
        Read |= BO->isCompoundAssignmentOp();
      } else if (BO->getOpcode() == BO_Comma && BO->getLHS() == Cur) {
      } else
        Read = Write = true;
      break;
    }
    if (const auto *CE = dyn_cast<CallExpr>(P)) {
      std::tie(Read, Write) = classifyArgument(CE, Cur, RefCall);
      break;
    }
    if (isa<CXXConstructExpr>(P) || isa<InitListExpr>(P)) {
      Read = true;
      break;
    }
    if (!isa<Expr>(P) && !isa<DeclStmt>(P) && !isa<ReturnStmt>(P))
      break; // discarded
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      Read = true;
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getInit() == Cur && V->getType()->isReferenceType() &&
              !V->getType().getNonReferenceType().isConstQualified())
            Write = true;
      break;
    }
    Read = Write = true;
    break;
  }
  return {Read, Write};
}

void Analyzer::checkForeign() {
  for (const Foreign &F : Foreigns) {
    for (size_t VI = 0; VI < Nest.Loops.size(); ++VI) {
      if (!isRecordOf(F.Record, (int)VI))
        continue;
      for (auto &[Path, A] : Nest.Loops[VI].View.orderedLeaves()) {
        if (F.FD && std::find(Path.begin(), Path.end(), F.FD) == Path.end())
          continue;
        if (!A.Written && !F.Write)
          continue;
        CurView = (int)VI;
        refuse(F.Loc,
               {diag::err_field_foreign,
                {dotted(Path), F.Write ? "written" : "read",
                 A.Written ? "writes" : "reads"}},
               A.FirstUse, Msg(diag::note_field_foreign));
        return;
      }
    }
  }
}

/// Two different members of one anonymous union below a common prefix
/// (`density.wcount` and `force.f` of SWIFT's particle): they share storage.
static bool unionSiblings(const FieldPath &A, const FieldPath &B) {
  size_t N = std::min(A.size(), B.size());
  for (size_t I = 0; I < N; ++I)
    if (A[I] != B[I])
      return I > 0 && A[I - 1]->isAnonymousStructOrUnion() &&
             A[I - 1]->getType()->isUnionType();
  return false;
}

/// The storage of the fields at A and B overlaps.
static bool overlaps(const FieldPath &A, const FieldPath &B) {
  size_t N = std::min(A.size(), B.size());
  return std::equal(A.begin(), A.begin() + N, B.begin()) || unionSiblings(A, B);
}

/// Members of one anonymous union share storage: a view keeping two of them
/// in separate buffers is exact only while neither is written.
void Analyzer::checkUnions() {
  for (size_t V = 0; V < Nest.Loops.size() && !Failed; ++V) {
    std::vector<std::pair<FieldPath, LeafAccess>> Fields =
        Nest.Loops[V].View.orderedLeaves();
    for (auto &F : inDeclarationOrder(Nest.Loops[V].View.Wholes))
      Fields.push_back(F);
    std::vector<std::pair<const FieldPath *, const LeafAccess *>> All;
    for (auto &[P, A] : Fields)
      All.push_back({&P, &A});
    for (auto &[PI, AI] : All)
      for (auto &[PJ, AJ] : All) {
        if (!(AI->Written || AJ->Written) || !unionSiblings(*PI, *PJ))
          continue;
        // Reported at the written one (the first when both are).
        const FieldPath *W = PI, *O = PJ;
        const LeafAccess *WA = AI, *OA = AJ;
        if (!AI->Written)
          std::swap(W, O), std::swap(WA, OA);
        CurView = (int)V;
        refuse(WA->FirstUse, {diag::err_field_union, {dotted(*W), dotted(*O)}},
               OA->FirstUse, Msg(diag::note_field_union));
        return;
      }
  }
}

/// Two views of the same element type in one nest may hold the same objects
/// (the active set contains the local one). That is safe only when no field
/// written through one view is held by the other (paper section 3.3).
void Analyzer::checkAliasing() {
  for (size_t I = 0; I < Nest.Loops.size(); ++I)
    for (size_t J = I + 1; J < Nest.Loops.size(); ++J) {
      const ViewModel &VI = Nest.Loops[I].View, &VJ = Nest.Loops[J].View;
      if (!isRecordOf(VJ.Element, (int)I) && !isRecordOf(VI.Element, (int)J))
        continue;
      auto LI = VI.orderedLeaves(), LJ = VJ.orderedLeaves();
      for (auto &[PI, AI] : LI)
        for (auto &[PJ, AJ] : LJ) {
          if (!overlaps(PI, PJ) || (!AI.Written && !AJ.Written))
            continue;
          const LoopPlan &W = AI.Written ? Nest.Loops[I] : Nest.Loops[J];
          const LoopPlan &O = AI.Written ? Nest.Loops[J] : Nest.Loops[I];
          StoredDiag &D = Diags.report(
              (AI.Written ? AI : AJ).FirstUse,
              {diag::err_views_alias, {dotted(AI.Written ? PI : PJ)}});
          Diags.note(D, W.Form.Loop->getBeginLoc(), diag::note_views_alias_writer);
          Diags.note(D, O.Form.Loop->getBeginLoc(), diag::note_views_alias_holder);
          Failed = true;
          return;
        }
    }
}

} // namespace detail
} // namespace soaview
