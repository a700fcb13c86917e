//===- RegionChecks.cpp - the second pass: what a region refuses ----------===//
//
// See RegionChecks.h. Tests: test/Sema/regions.cpp.
//===----------------------------------------------------------------------===//
#include "regions/RegionChecks.h"

#include "frontend/Annotations.h"
#include "regions/LibraryCalls.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/OperatorKinds.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview::regions {

RegionChecker::RegionChecker(ASTContext &Context,
                             const AnnotationCollector &Annotated,
                             DiagStore &Diags, const RegionAnnotation &Region,
                             const ElementTypes &Elements)
    : RegionWalk(Context, Annotated), Diags(Diags), Region(Region),
      Elements(Elements), Changes(SM, Elements) {}

RegionVerdict RegionChecker::check() {
  walk(Region.S);
  return Verdict;
}

void RegionChecker::directive(const Stmt *S) {
  Diags.note(report(S->getBeginLoc(), {diag::err_region_parallel}),
             S->getBeginLoc(), Msg(diag::note_region_parallel));
}

/// Outside the annotated loops, E's refusals (their nests' analyses refuse
/// what they must inside); everywhere, the first list change unseen.
bool RegionChecker::visit(const Expr *E) {
  const std::size_t Before = Reported.size();
  if (!InLoop)
    checkExpr(E);
  if (!Verdict.ListsMayChange.isValid())
    if (const char *Why = Changes.in(E)) {
      Verdict.ListsMayChange = E->getExprLoc();
      Verdict.ListsWhy = Why;
    }
  return Reported.size() == Before;
}

/// A call soaview cannot follow: refused outside the annotated loops (their
/// nests' analyses refuse it inside, where it may change a list unseen).
void RegionChecker::unseen(SourceLocation L, const Msg &M, const Msg &Note) {
  if (!InLoop) {
    Diags.note(report(L, M), L, Note);
  } else if (!Verdict.ListsMayChange.isValid()) {
    Verdict.ListsMayChange = L;
    Verdict.ListsWhy = "call soaview does not follow";
  }
}

StoredDiag &RegionChecker::report(SourceLocation L, const Msg &M) {
  Verdict.Refused = true;
  Reported.insert(L.getRawEncoding());
  StoredDiag &Diag = Diags.report(L, M);
  if (L != Region.Loc)
    Diags.note(Diag, Region.Loc, Msg(diag::note_region_here));
  for (auto It = Through.rbegin(); It != Through.rend(); ++It)
    if (It == Through.rbegin() || *It != *std::prev(It))     // a member's
      Diags.note(Diag, *It, Msg(diag::note_region_through)); // destructor: once
  return Diag;
}

/// What, at L, changes a container of type Container (`=`, a member
/// function's or a library function's name).
void RegionChecker::reportContainer(SourceLocation L, StringRef What,
                                    QualType Container) {
  StoredDiag &Diag = report(L, {diag::err_region_container,
                                {What.str(), Elements.shownName(Container),
                                 Elements.nameIn(Container)}});
  Diags.note(Diag, L, Msg(diag::note_region_container));
}

void RegionChecker::checkExpr(const Expr *E) {
  // One diagnostic per location; an expression that reports nothing does
  // not hide the others there (`auto m = std::move(cells)`: the move
  // constructor and the call of std::move start at one location).
  SourceLocation L = E->getExprLoc();
  if (Reported.count(L.getRawEncoding()))
    return;
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (F && Elements.isElement(dyn_cast<CXXRecordDecl>(F->getParent()))) {
      StoredDiag &Diag = report(L, {diag::err_region_field,
                                    {"it uses", F->getNameAsString(),
                                     F->getParent()->getNameAsString()}});
      Diags.note(Diag, L, Msg(diag::note_region_field));
    }
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXRecordDecl *RD = CE->getConstructor()->getParent();
    if (CE->getNumArgs() && Elements.isElement(RD))
      Diags.note(report(L, {diag::err_region_element_call,
                            {RD->getNameAsString(), RD->getNameAsString()}}),
                 L, Msg(diag::note_region_field));
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return checkAssignment(BO);
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call)
    return;
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Object = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(Call) && M && !M->isStatic())
    Object = Call->getArg(0);
  if (M && Object)
    return checkContainerCall(Call, M, Object);
  // A library function that takes a container of elements by reference,
  // or a position in one that it may write through (an iterator, a pointer:
  // `std::sort(l.begin(), l.end())`, `std::memcpy(l.data(), ...)`).
  const FunctionDecl *FD = Call->getDirectCallee();
  if (FD && SM.isInSystemHeader(FD->getLocation()))
    checkLibraryCall(Call, FD, 0);
}

/// The arguments of a call of library function FD (its parameters from
/// argument First on): a container of elements by non-const reference, or a
/// position FD may write through, changes the region's lists.
void RegionChecker::checkLibraryCall(const CallExpr *Call,
                                     const FunctionDecl *FD, unsigned First) {
  const std::string Name = libraryName(FD);
  const bool Reads = searches(Name);
  // An iterator's comparisons and steps, a search, std::move: no writes
  // through the positions they are given.
  const bool Positions =
      !(FD->isOverloadedOperator() && FD->getOverloadedOperator() != OO_Call) &&
      !Reads && !passesOn(Name);
  for (unsigned I = 0; First + I < Call->getNumArgs() && I < FD->getNumParams();
       ++I) {
    QualType P = FD->getParamDecl(I)->getType();
    const Expr *Arg = Call->getArg(First + I);
    bool ByRef = P->isReferenceType() &&
                 !P.getNonReferenceType().isConstQualified() &&
                 Elements.holdsDeep(Arg->getType()) && !Reads;
    if (!ByRef && !(Positions && writesThrough(P, Arg)))
      continue;
    return reportContainer(Call->getExprLoc(), Name,
                           shownContainer(Arg)->getType());
  }
}

/// Whether a library function may write, through argument Arg of its
/// parameter type P, into a list of elements or into an element: P is a
/// pointer or an iterator, Arg a non-const pointer to element pointers or
/// to elements, or an iterator whose `*` is a non-const reference to one.
bool RegionChecker::writesThrough(QualType P, const Expr *Arg) const {
  P = P.getNonReferenceType();
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf && ownVariable(UO->getSubExpr()))
    return false; // `&q`
  QualType T = E->getType();
  if (P->isPointerType() && T->isPointerType()) {
    QualType To = T->getPointeeType();
    return !P->getPointeeType().isConstQualified() && !To.isConstQualified() &&
           Elements.holdsDeep(To);
  }
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || !P->getAsCXXRecordDecl())
    return false;
  for (const NamedDecl *ND :
       RD->lookup(Ctx.DeclarationNames.getCXXOperatorName(OO_Star)))
    if (const auto *M = dyn_cast<CXXMethodDecl>(ND)) {
      QualType Ref = M->getReturnType();
      if (Ref->isLValueReferenceType() &&
          !Ref.getNonReferenceType().isConstQualified() &&
          Elements.holdsDeep(Ref.getNonReferenceType()))
        return true;
    }
  return false;
}

/// What a message names for argument Arg: the container whose begin(),
/// end() or data() it is (`c.local`), or the argument itself.
const Expr *RegionChecker::shownContainer(const Expr *Arg) const {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (const Expr *Object = MC->getImplicitObjectArgument();
        Object && Elements.holdsDeep(Object->getType()))
      return Object;
  return E;
}

/// `list[k] = q`, `*it = q`: an assignment to a pointer to an element that
/// is not a variable of its own (it sits in a container).
void RegionChecker::checkAssignment(const BinaryOperator *BO) {
  const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
  QualType T = LHS->getType();
  if (!BO->isAssignmentOp() || !T->isPointerType() || !Elements.holds(T))
    return;
  if (!ownVariable(LHS))
    reportContainer(BO->getOperatorLoc(), "=", T);
}

/// A member function called on an element (it may read any field), or a
/// non-const one on a container of elements (it may change the container).
void RegionChecker::checkContainerCall(const CallExpr *Call,
                                       const CXXMethodDecl *M,
                                       const Expr *Object) {
  SourceLocation L = Call->getExprLoc();
  QualType T = Object->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const bool Library = SM.isInSystemHeader(M->getLocation());
  if (M->getOverloadedOperator() == OO_Call && Library &&
      !Elements.holdsDeep(T)) // std::ranges::sort(lists[0])
    return checkLibraryCall(Call, M, isa<CXXOperatorCallExpr>(Call) ? 1 : 0);
  if (Elements.isElement(T->getAsCXXRecordDecl())) {
    Diags.note(
        report(L, {diag::err_region_element_call,
                   {M->getNameAsString(), M->getParent()->getNameAsString()}}),
        L, Msg(diag::note_region_field));
    return;
  }
  if (M->isConst() || isAccessor(M) ||
      !(Library ? Elements.holdsDeep(T) : Elements.holds(T)))
    return;
  reportContainer(L, M->getNameAsString(), T);
}

} // namespace soaview::regions
