//===- ImplicitAnnotations.cpp - every loop over structs, annotated -------===//
#include "frontend/ImplicitAnnotations.h"

#include "frontend/Annotations.h"
#include "support/AstHelpers.h"
#include "support/TargetArrays.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"

using namespace clang;

namespace soaview {

namespace {

/// A struct (class, not a union) or a pointer to one, seen through
/// references.
bool overStructs(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && !RD->isUnion() && RD->hasDefinition();
}

/// A loop variable over structs: one, or structured bindings of which one
/// at least can stand for the element (elementBinding: recognition picks
/// the element among them, or says why it cannot; `[key, value]` of a
/// std::map<int, std::string> is no loop over structs).
bool overStructs(const VarDecl *Var, const SourceManager &SM) {
  const auto *DD = dyn_cast<DecompositionDecl>(Var);
  if (!DD)
    return overStructs(Var->getType());
  return llvm::any_of(DD->bindings(), [&](const BindingDecl *B) {
    return elementBinding(B, SM);
  });
}

/// Whether T is an array of structs an index loop may target
/// (targetArrayElement).
bool targetsStructs(const ASTContext &Ctx, QualType T) {
  QualType Elem = targetArrayElement(Ctx, T);
  const auto *RD = Elem.isNull() ? nullptr : Elem->getAsCXXRecordDecl();
  return RD && !RD->isUnion() && RD->hasDefinition();
}

/// What an index or iterator loop's body reaches through its stepped
/// variable V: the arrays of structs it subscripts with an index that
/// names V (`ps[i]`, `ps[i - 1]`, `ps[list[k]]`), and whether it
/// dereferences V to a struct or a pointer to one (`*it`, `it->x`).
class SteppedUses : public RecursiveASTVisitor<SteppedUses> {
public:
  SteppedUses(const ASTContext &Ctx, const VarDecl *V) : Ctx(Ctx), V(V) {}
  llvm::SetVector<const ValueDecl *> Targets;
  bool DerefsToStructs = false;

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    subscript(E->getBase(), E->getIdx());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    OverloadedOperatorKind Op = E->getOperator();
    if (Op == OO_Subscript && E->getNumArgs() == 2)
      subscript(E->getArg(0), E->getArg(1));
    else if ((Op == OO_Star || Op == OO_Arrow) && refersTo(E->getArg(0), V))
      DerefsToStructs |= overStructs(E->getType()); // `P &` or `P *`
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *E) {
    if (E->getOpcode() == UO_Deref && refersTo(E->getSubExpr(), V))
      DerefsToStructs |= overStructs(E->getType());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (E->isArrow() && refersTo(E->getBase(), V))
      DerefsToStructs |= overStructs(E->getBase()->getType());
    return true;
  }

private:
  /// `name[index]` with an index that names V: name is a target.
  void subscript(const Expr *Base, const Expr *Index) {
    if (!mentions(Index))
      return;
    const ValueDecl *D = nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(Base)))
      D = DRE->getDecl();
    else if (const auto *ME = dyn_cast<MemberExpr>(strip(Base)))
      D = ME->isImplicitAccess() ? ME->getMemberDecl() : nullptr;
    if (D && !D->getType()->isDependentType() &&
        targetsStructs(Ctx, D->getType()))
      Targets.insert(D);
  }
  bool mentions(const Expr *E) const {
    if (refersTo(E, V))
      return true;
    return llvm::any_of(E->children(), [&](const Stmt *C) {
      return C && isa<Expr>(C) && mentions(cast<Expr>(C));
    });
  }
  const ASTContext &Ctx;
  const VarDecl *V;
};

/// soa_conversion_target(Target) on the loop at For, not written.
AttrUse inferredTarget(SourceLocation For, const ValueDecl *Target) {
  AttrUse Use{AttrKind::Target, SourceRange(For, For),
              Target->getNameAsString(), 0};
  Use.Inferred = true;
  return Use;
}

/// The one array of structs the body of an index loop subscripts with its
/// index (SteppedUses), if the loop steps an integer and there is one.
const ValueDecl *inferredTarget(const ASTContext &Ctx, const ForStmt *S) {
  const VarDecl *Var = steppedVar(S);
  if (!Var || !S->getBody() || !Var->getType()->isIntegerType())
    return nullptr;
  SteppedUses Uses(Ctx, Var);
  Uses.TraverseStmt(const_cast<Stmt *>(S->getBody()));
  return Uses.Targets.size() == 1 ? Uses.Targets.front() : nullptr;
}

/// Index loops annotated soa_conversion without soa_conversion_target.
class UntargetedIndexLoops : public RecursiveASTVisitor<UntargetedIndexLoops> {
public:
  UntargetedIndexLoops(const ASTContext &Ctx, AnnotationCollector &C)
      : Ctx(Ctx), Collector(C) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitForStmt(ForStmt *S) {
    auto It = Collector.Loops.find(S->getForLoc());
    if (It == Collector.Loops.end() || It->second.Implicit ||
        !It->second.has(AttrKind::Convert) || It->second.has(AttrKind::Target))
      return true;
    if (const ValueDecl *Target = inferredTarget(Ctx, S))
      It->second.Attrs.push_back(inferredTarget(S->getForLoc(), Target));
    return true;
  }

private:
  const ASTContext &Ctx;
  AnnotationCollector &Collector;
};

class LoopsOverStructs : public RecursiveASTVisitor<LoopsOverStructs> {
public:
  LoopsOverStructs(const ASTContext &Ctx, AnnotationCollector &C)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Collector(C) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    const VarDecl *Var = S->getLoopVariable();
    if (Var && !Var->getType()->isDependentType() && overStructs(Var, SM))
      annotate(S->getForLoc(), nullptr);
    return true;
  }

  /// An iterator loop whose body dereferences its iterator to a struct or
  /// a pointer to one; an index loop whose body subscripts exactly one
  /// array of structs with its index, which becomes its target.
  bool VisitForStmt(ForStmt *S) {
    const VarDecl *Var = steppedVar(S);
    if (!Var || !S->getBody() || Var->getType()->isDependentType())
      return true;
    if (Var->getType()->isIntegerType()) {
      if (const ValueDecl *Target = inferredTarget(Ctx, S))
        annotate(S->getForLoc(), Target);
      return true;
    }
    SteppedUses Uses(Ctx, Var);
    Uses.TraverseStmt(S->getBody());
    if (Uses.DerefsToStructs)
      annotate(S->getForLoc(), nullptr);
    return true;
  }

private:
  /// Records the loop at For as annotated soa_conversion("always"), with
  /// soa_conversion_target(Target) when Target is given; a loop in a macro
  /// or a system header, or one already annotated, is left alone.
  void annotate(SourceLocation For, const ValueDecl *Target) {
    if (For.isMacroID() || SM.isInSystemHeader(For) ||
        Collector.Loops.count(For))
      return;
    LoopAnnotation &A = Collector.Loops[For];
    A.ForLoc = For;
    A.Implicit = true;
    AttrUse Use{AttrKind::Convert, SourceRange(For, For), {}, 0};
    Use.Always = true;
    A.Attrs.push_back(std::move(Use));
    if (Target)
      A.Attrs.push_back(inferredTarget(For, Target));
  }

  const ASTContext &Ctx;
  const SourceManager &SM;
  AnnotationCollector &Collector;
};

} // namespace

void annotateEveryLoop(ASTContext &Ctx, AnnotationCollector &C) {
  LoopsOverStructs Finder(Ctx, C);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
}

void inferIndexTargets(ASTContext &Ctx, AnnotationCollector &C) {
  UntargetedIndexLoops Finder(Ctx, C);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
}

} // namespace soaview
