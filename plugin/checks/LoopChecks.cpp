//===- LoopChecks.cpp - what a loop needs to be converted or hoisted ------===//
#include "checks/Checks.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"
#include "support/Ancestors.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

bool checkHoistLevel(ASTContext &Ctx, const LoopAnnotation &A, const Stmt *Loop,
                     DiagStore &Diags) {
  const AttrUse *H = A.get(AttrKind::Hoist);
  if (!H)
    return true;
  size_t Outer = enclosingLoops(Ctx, Loop).size();
  if ((uint64_t)H->Hoist <= Outer)
    return true;
  StoredDiag &D = Diags.report(
      H->Range.getBegin(), {diag::err_hoist_too_far,
                            {std::to_string(H->Hoist), std::to_string(Outer)}});
  Diags.note(D, A.ForLoc, diag::note_hoist_too_far);
  return false;
}

static bool insideOpenMP(ASTContext &Ctx, const Stmt *S) {
  int Depth = 0; // three levels up at most
  for (const DynTypedNode &N : ancestors(Ctx, *S)) {
    if (Depth++ == 3)
      return false;
    if (N.get<CapturedDecl>())
      return true; // the body of an OpenMP construct
    const Stmt *P = N.get<Stmt>();
    if (!P)
      return false;
    if (isa<OMPExecutableDirective>(P) || isa<CapturedStmt>(P))
      return true;
    if (!isa<AttributedStmt>(P))
      return false;
  }
  return false;
}

bool checkNotOpenMPLoop(ASTContext &Ctx, const LoopAnnotation &A,
                        const Stmt *Loop, DiagStore &Diags) {
  if (!insideOpenMP(Ctx, Loop))
    return true;
  StoredDiag &D = Diags.report(A.ForLoc, diag::err_loop_openmp);
  Diags.note(D, A.ForLoc, diag::note_loop_openmp);
  return false;
}

bool checkNotConstexpr(const LoopAnnotation &A, const FunctionDecl *Fn,
                       DiagStore &Diags) {
  const FunctionDecl *Pattern = Fn->getTemplateInstantiationPattern();
  if (!Fn->isConstexpr() && !(Pattern && Pattern->isConstexpr()))
    return true;
  StoredDiag &D = Diags.report(A.ForLoc, diag::err_loop_constexpr);
  Diags.note(D, Fn->getLocation(), diag::note_loop_constexpr);
  return false;
}

bool checkElementNameable(const LoopForm &F, const LoopAnnotation &A,
                          DiagStore &Diags) {
  for (const DeclContext *DC = F.Element; DC && DC->isRecord();
       DC = DC->getParent()) {
    const auto *RD = cast<RecordDecl>(DC);
    if (RD->getAccess() != AS_private && RD->getAccess() != AS_protected)
      continue;
    StoredDiag &D = Diags.report(A.ForLoc, {diag::err_loop_private_element,
                                            {RD->getQualifiedNameAsString()}});
    Diags.note(D, RD->getLocation(), diag::note_loop_private_element);
    return false;
  }
  return true;
}

/// Hoisting builds the view before an enclosing loop: everything the view is
/// built from must exist there and stay unchanged while that loop runs.
bool checkHoist(ASTContext &Ctx, const RecognisedLoop &Loop, DiagStore &Diags) {
  SourceManager &SM = Ctx.getSourceManager();
  const LoopForm &F = Loop.Form;
  std::vector<const Expr *> Inputs;
  if (F.Kind == LoopFormKind::Range)
    Inputs.push_back(F.RangeInit);
  else if (F.Kind == LoopFormKind::Iterator)
    Inputs = {F.Begin, F.End};
  else
    Inputs = {F.Lo, F.Hi, F.Subscript, F.IndexList};
  llvm::SmallPtrSet<const ValueDecl *, 8> Vars;
  struct Refs : RecursiveASTVisitor<Refs> {
    llvm::SmallPtrSetImpl<const ValueDecl *> &S;
    std::vector<const DeclRefExpr *> All;
    explicit Refs(llvm::SmallPtrSetImpl<const ValueDecl *> &S) : S(S) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (isa<VarDecl>(E->getDecl())) {
        S.insert(E->getDecl());
        All.push_back(E);
      }
      return true;
    }
  } R(Vars);
  for (const Expr *E : Inputs)
    R.TraverseStmt(const_cast<Expr *>(E));
  if (F.Kind == LoopFormKind::Index && F.Target)
    if (const auto *VD = dyn_cast<VarDecl>(F.Target))
      Vars.insert(VD);
  Vars.erase(F.IndexVar); // of the subscript `buf[j - c]`: c is the input
  for (const ValueDecl *V : Vars) {
    const auto *VD = cast<VarDecl>(V);
    if (VD->isLocalVarDecl() &&
        !SM.isBeforeInTranslationUnit(VD->getLocation(),
                                      Loop.HoistTo->getBeginLoc())) {
      StoredDiag &D =
          Diags.report(Loop.Annotation->get(AttrKind::Hoist)->Range.getBegin(),
                       {diag::err_hoist_inner_decl, {VD->getName().str()}});
      Diags.note(D, VD->getLocation(), diag::note_declared_here);
      Diags.note(D, Loop.HoistTo->getBeginLoc(), diag::note_hoist_built_before);
      return false;
    }
  }
  if (const Expr *W = findWrite(Loop.HoistTo, Vars)) {
    StoredDiag &D = Diags.report(W->getExprLoc(), diag::err_hoist_changes);
    Diags.note(D, Loop.Annotation->get(AttrKind::Hoist)->Range.getBegin(),
               diag::note_hoist_requested);
    Diags.note(D, Loop.HoistTo->getBeginLoc(), diag::note_hoist_built_once);
    return false;
  }
  return true;
}

bool checkUsesFields(ASTContext &Ctx, const NestPlan &Nest, DiagStore &Diags) {
  bool OK = true;
  for (const LoopPlan &P : Nest.Loops)
    if (P.View.Leaves.empty() && !Ctx.getLangOpts().OpenMPIsTargetDevice) {
      StoredDiag &D = Diags.report(P.Annotation->ForLoc,
                                   {diag::warn_loop_no_fields,
                                    {qualifiedName(Ctx, P.View.ElementType)}});
      Diags.note(D, P.Annotation->ForLoc, diag::note_loop_no_fields);
      // The nest converts whole or not at all: say so at its other loops,
      // which would otherwise stay as written without a word.
      for (const LoopPlan &Other : Nest.Loops)
        if (&Other != &P)
          Diags.note(D, Other.Annotation->ForLoc,
                     diag::note_loop_no_fields_nest);
      OK = false;
    }
  return OK;
}

namespace {
/// The first class defined in the translation unit that derives from Base.
class DerivedClass : public RecursiveASTVisitor<DerivedClass> {
public:
  explicit DerivedClass(const CXXRecordDecl *Base) : Base(Base) {}
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->hasDefinition() && RD->isThisDeclarationADefinition() &&
        RD->isDerivedFrom(Base))
      Found = RD;
    return !Found;
  }
  const CXXRecordDecl *Found = nullptr;

private:
  const CXXRecordDecl *Base;
};
} // namespace

void warnGuardsDerived(ASTContext &Ctx, const NestPlan &Nest,
                       DiagStore &Diags) {
  for (const DispatchGuard &G : Nest.Guards) {
    DerivedClass Search(G.Class);
    Search.TraverseDecl(Ctx.getTranslationUnitDecl());
    if (!Search.Found)
      continue;
    std::string Derived = Search.Found->getQualifiedNameAsString();
    StoredDiag &D =
        Diags.report(G.Call, {diag::warn_guard_derived,
                              {G.Object->getName().str(),
                               G.Class->getQualifiedNameAsString(), Derived,
                               G.Method->getQualifiedNameAsString()}});
    Diags.note(D, Search.Found->getLocation(),
               {diag::note_guard_derived, {Derived}});
  }
}

namespace {
/// Whether every declaration of the callee that its clone copies names the
/// element in the type of each parameter that receives one.
bool cloneable(ASTContext &Ctx, const NestPlan &Nest, const CalleeUse &U,
               DiagStore &Diags) {
  const FunctionDecl *Text = U.FD->getTemplateInstantiationPattern();
  if (!Text)
    Text = U.FD;
  const FunctionDecl *First = firstOrdinaryDeclaration(Text);
  for (const FunctionDecl *Decl : {Text, First ? First : Text})
    for (unsigned I = 0; I < U.ParamViews.size(); ++I) {
      if (U.ParamViews[I] < 0 || I >= Decl->getNumParams())
        continue;
      const ParmVarDecl *PD = Decl->getParamDecl(I);
      TypeSourceInfo *TSI = PD->getTypeSourceInfo();
      if (TSI && elementTypeRange(TSI->getTypeLoc(),
                                  Nest.Loops[U.ParamViews[I]].View.Element,
                                  Ctx.getSourceManager(), Ctx.getLangOpts())
                     .isValid())
        continue;
      StoredDiag &D =
          Diags.report(PD->getLocation(), diag::err_place_param_type);
      Diags.note(D, PD->getLocation(), diag::note_place_param_type);
      return false;
    }
  if (!First) {
    StoredDiag &D =
        Diags.report(Text->getLocation(), diag::err_place_no_declaration);
    Diags.note(D, Text->getLocation(), diag::note_place_no_declaration);
    return false;
  }
  return true;
}
} // namespace

bool checkPlacement(ASTContext &Ctx, const NestPlan &Nest, DiagStore &Diags) {
  SourceManager &SM = Ctx.getSourceManager();
  const LoopPlan &P0 = Nest.Loops[0];
  SourceLocation AtLoc = Nest.Insert.Loc;
  if (SM.isInSystemHeader(AtLoc)) {
    Diags.report(P0.Annotation->ForLoc, diag::err_place_system_header);
    return false;
  }
  for (const LoopPlan &P : Nest.Loops) {
    const CXXRecordDecl *Elem = P.View.Element;
    if (!SM.isBeforeInTranslationUnit(Elem->getSourceRange().getEnd(), AtLoc)) {
      StoredDiag &D = Diags.report(P.Annotation->ForLoc,
                                   {diag::err_place_element_late,
                                    {qualifiedName(Ctx, P.View.ElementType)}});
      Diags.note(D, Elem->getLocation(), diag::note_defined_here);
      return false;
    }
  }
  // The clone of a callee takes a template parameter where the parameter's
  // type names the element, in its definition and in its first declaration.
  for (const CalleeUse &U : Nest.Callees)
    if (U.NeedsClone && !cloneable(Ctx, Nest, U, Diags))
      return false;
  return true;
}

/// A symmetric pair loop walks its outer loop's host frame: it runs on the
/// host (forms/PairForm.cpp).
bool checkPairPlacement(const NestPlan &Nest, DiagStore &Diags) {
  for (const LoopPlan &P : Nest.Loops) {
    if (!P.WalksViewOf)
      continue;
    const LoopPlan &Outer = Nest.Loops[*P.WalksViewOf];
    // (A sweep takes range loops only: checkSweep refuses pair loops.)
    if (!P.Offload && !Outer.Offload && !P.DeviceInner && !Outer.DeviceInner)
      continue;
    StoredDiag &D = Diags.report(
        P.Annotation->ForLoc,
        {diag::err_pair_form,
         {"it would run on the device; pair loops run on the host, so "
          "remove soa_conversion_offload_compute"}});
    Diags.note(D, P.Annotation->ForLoc, diag::note_pair_form);
    return false;
  }
  return true;
}

} // namespace soaview
