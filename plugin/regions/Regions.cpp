//===- Regions.cpp - view regions: what they reach, what they refuse ------===//
//
// Two walks over the region's statements and the bodies of the functions
// they call: the first finds the annotated loops (not entering them) and
// their element types, the second refuses what else meets those elements,
// and finds where the region's code, its annotated loops' too, may change
// a list unseen (RegionPlan::ListsMayChange).
// Tests: test/Sema/regions.cpp.
//===----------------------------------------------------------------------===//
#include "regions/Regions.h"

#include "frontend/Annotations.h"
#include "regions/LibraryCalls.h"
#include "support/Ancestors.h"
#include "support/AstHelpers.h"
#include "support/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OperatorKinds.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

namespace {

/// The function whose body holds S (null at namespace scope).
const FunctionDecl *enclosingFunction(ASTContext &Ctx, const Stmt *S) {
  for (const DynTypedNode &N : ancestors(Ctx, *S))
    if (const auto *FD = N.get<FunctionDecl>())
      return FD;
  return nullptr;
}

/// The record an element type names: `T`, `T *`, `T &`, cv-qualified.
const CXXRecordDecl *recordOf(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->getAsCXXRecordDecl();
}

class Walker {
public:
  Walker(ASTContext &Ctx, const AnnotationCollector &Annotated,
         DiagStore &Diags, const RegionAnnotation &Region, RegionPlan &Plan)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Annotated(Annotated),
        Diags(Diags), Region(Region), Plan(Plan) {}

  /// First walk: the annotated loops and their element types.
  void collect() {
    Checking = false;
    Visited.clear();
    walk(Region.S);
  }
  /// Second walk: everything else that meets those elements.
  /// Returns whether nothing was refused.
  bool check() {
    Checking = true;
    Visited.clear();
    walk(Region.S);
    return !Failed;
  }

private:
  void walk(const Stmt *S);
  const LoopAnnotation *annotation(const Stmt *S) const;
  void addLoop(const Stmt *S, const LoopAnnotation &A);
  void addElements(const Stmt *Loop);
  bool holdsAnnotatedLoop(const Stmt *S) const;
  void follow(const CallExpr *Call);
  void followFunction(const FunctionDecl *FD, SourceLocation L);
  void followDestructor(QualType T, SourceLocation L);
  void followImplicit(const Stmt *S);
  void checkExpr(const Expr *E);
  void checkContainerCall(const CallExpr *Call, const CXXMethodDecl *M,
                          const Expr *Object);
  void checkAssignment(const BinaryOperator *BO);
  void noteListsChange(const Expr *E);
  const char *listsChangeIn(const Expr *E) const;
  const char *writeTo(const Expr *LHS) const;
  const char *libraryCallChange(const CallExpr *Call,
                                const FunctionDecl *FD) const;
  void unseen(SourceLocation L, const Msg &M, const Msg &Note);
  void checkLibraryCall(const clang::CallExpr *Call,
                        const clang::FunctionDecl *FD, unsigned First);
  bool writesThrough(clang::QualType P, const clang::Expr *Arg) const;
  const clang::Expr *shownContainer(const clang::Expr *Arg) const;
  bool isElement(const CXXRecordDecl *RD,
                 const CXXRecordDecl *Only = nullptr) const;
  bool holdsElements(QualType T, const CXXRecordDecl *Only = nullptr,
                     int Depth = 0, bool Deep = false) const;
  std::string elementName(QualType T) const;
  std::string shownName(QualType T) const;
  StoredDiag &report(SourceLocation L, const Msg &M);

  ASTContext &Ctx;
  SourceManager &SM;
  const AnnotationCollector &Annotated;
  DiagStore &Diags;
  const RegionAnnotation &Region;
  RegionPlan &Plan;
  bool Checking = false, Failed = false;
  /// Inside an annotated loop (second walk): its nest's analysis refuses
  /// what it must; this walk only looks for list changes unseen.
  int InLoop = 0;
  std::set<std::pair<const FunctionDecl *, bool>> Visited;
  std::vector<const CXXRecordDecl *> Elements;
  std::vector<SourceLocation> Through; ///< the calls that led here
  std::set<unsigned> Reported;         ///< locations with a diagnostic
};

const LoopAnnotation *Walker::annotation(const Stmt *S) const {
  SourceLocation For;
  if (const auto *F = dyn_cast<ForStmt>(S))
    For = F->getForLoc();
  else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S))
    For = RF->getForLoc();
  else
    return nullptr;
  auto It = Annotated.Loops.find(For);
  return It == Annotated.Loops.end() ? nullptr : &It->second;
}

/// Whether S holds an annotated loop (a sweep's cell loop does).
bool Walker::holdsAnnotatedLoop(const Stmt *S) const {
  for (const Stmt *Child : S->children())
    if (Child && (annotation(Child) || holdsAnnotatedLoop(Child)))
      return true;
  return false;
}

/// The element types of an annotated loop and the annotated loops in it (a
/// sweep's cell loop, offloaded and holding the nest, has none of its own).
void Walker::addElements(const Stmt *Loop) {
  const LoopAnnotation *A = annotation(Loop);
  bool CellLoop = A && A->has(AttrKind::Offload) &&
                  !A->has(AttrKind::Convert) && holdsAnnotatedLoop(Loop);
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(Loop); RF && A && !CellLoop) {
    if (const CXXRecordDecl *RD = recordOf(RF->getLoopVariable()->getType()))
      if (!llvm::is_contained(Elements, RD)) {
        Elements.push_back(RD);
        Plan.Elements.insert(qualifiedName(Ctx, compat::recordType(Ctx, RD)));
      }
  }
  for (const Stmt *Child : Loop->children())
    if (Child) {
      if (annotation(Child))
        addElements(Child);
      else if (!isa<Expr>(Child) || isa<LambdaExpr>(Child))
        addElements(Child);
    }
}

void Walker::addLoop(const Stmt *S, const LoopAnnotation &A) {
  Plan.Loops.insert(A.ForLoc.getRawEncoding());
  addElements(S);
}

void Walker::walk(const Stmt *S) {
  if (!S)
    return;
  if (const LoopAnnotation *A = annotation(S)) {
    if (!Checking)
      return addLoop(S, *A); // the nest's own analysis follows its body
    ++InLoop;
    for (const Stmt *Child : S->children())
      walk(Child);
    --InLoop;
    return;
  }
  if (isa<OMPExecutableDirective>(S) && !InLoop) {
    if (Checking)
      Diags.note(report(S->getBeginLoc(), {diag::err_region_parallel}),
                 S->getBeginLoc(), Msg(diag::note_region_parallel));
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && isSync(Call)) {
    // soaview::sync(lists, f): f runs as outside the region, after the
    // runtime wrote back the lists' elements (its body is the user's word,
    // docs/offload.md); the lists are the region's code.
    for (unsigned I = 0; I + 1 < Call->getNumArgs(); ++I)
      walk(Call->getArg(I));
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    std::size_t Before = Reported.size();
    if (Checking && !InLoop)
      checkExpr(E);
    if (Checking)
      noteListsChange(E);
    // A refused call is one diagnostic, not another for each use inside.
    if (const auto *Call = dyn_cast<CallExpr>(E);
        Call && Reported.size() == Before)
      follow(Call);
  }
  followImplicit(S);
  if (const auto *L = dyn_cast<LambdaExpr>(S)) // wherever it is called
    walk(L->getBody());
  for (const Stmt *Child : S->children())
    walk(Child);
}

/// Into the body of the function a call runs, once per function.
void Walker::follow(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(FD);
  bool Virtual = M && M->isVirtual() && !M->hasAttr<FinalAttr>() &&
                 !M->getParent()->hasAttr<FinalAttr>();
  if (!FD || Virtual) {
    if (Checking && !isa<CXXPseudoDestructorExpr>(Call->getCallee()))
      unseen(Call->getBeginLoc(),
             {diag::err_region_indirect_call,
              {FD ? "a virtual call" : "a pointer"}},
             Msg(diag::note_region_indirect_call));
    return;
  }
  followFunction(FD, Call->getBeginLoc());
}

/// Into the body of FD, which the code at L runs (a call, a construction or
/// a destruction), once per function: a constructor's member initialisers
/// too, and after a destructor's body those of its members and bases.
void Walker::followFunction(const FunctionDecl *FD, SourceLocation L) {
  if (FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation()) ||
      FD->isTrivial())
    return; // the library's: its uses of containers are checked at the call
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def)) {
    if (Checking)
      unseen(L, {diag::err_region_unseen_call, {FD->getNameAsString()}},
             Msg(diag::note_region_unseen_call));
    return;
  }
  if (!Visited.insert({Def, InLoop > 0}).second)
    return;
  Through.push_back(L);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *I : Ctor->inits())
      walk(I->getInit());
  walk(Def->getBody());
  if (const auto *Dt = dyn_cast<CXXDestructorDecl>(Def)) {
    const CXXRecordDecl *RD = Dt->getParent();
    for (const FieldDecl *F : RD->fields())
      followDestructor(F->getType(), L);
    for (const CXXBaseSpecifier &B : RD->bases())
      followDestructor(B.getType(), L);
  }
  Through.pop_back();
}

/// The destructor an object of type T runs at L: a class's own, or for a
/// class of the library (a container) those of the classes it holds.
void Walker::followDestructor(QualType T, SourceLocation L) {
  T = Ctx.getBaseElementType(T);
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->hasTrivialDestructor())
    return;
  if (SM.isInSystemHeader(RD->getLocation())) {
    if (const auto *TS = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      for (const TemplateArgument &A : TS->getTemplateArgs().asArray())
        if (A.getKind() == TemplateArgument::Type)
          followDestructor(A.getAsType(), L);
    return;
  }
  if (const CXXDestructorDecl *Dt = RD->getDestructor())
    followFunction(Dt, L);
}

/// The functions S runs that are no call in the code: a construction's
/// constructor, and the destructors of the region's local variables, its
/// temporaries and what it deletes.
void Walker::followImplicit(const Stmt *S) {
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    followFunction(CE->getConstructor(), CE->getBeginLoc());
  } else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(S)) {
    followDestructor(BT->getType(), BT->getBeginLoc());
  } else if (const auto *DE = dyn_cast<CXXDeleteExpr>(S)) {
    const CXXRecordDecl *RD = DE->getDestroyedType()->getAsCXXRecordDecl();
    const CXXDestructorDecl *Dt =
        RD && RD->hasDefinition() ? RD->getDestructor() : nullptr;
    if (Dt && Dt->isVirtual() && !Dt->hasAttr<FinalAttr>() &&
        !RD->hasAttr<FinalAttr>() && !SM.isInSystemHeader(RD->getLocation())) {
      if (Checking)
        unseen(DE->getBeginLoc(),
               {diag::err_region_indirect_call, {"a virtual call"}},
               Msg(diag::note_region_indirect_call));
      return;
    }
    followDestructor(DE->getDestroyedType(), DE->getBeginLoc());
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *Dl : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(Dl); V && V->hasLocalStorage())
        followDestructor(V->getType(), V->getLocation());
  }
}

bool Walker::isElement(const CXXRecordDecl *RD,
                       const CXXRecordDecl *Only) const {
  if (!RD)
    return false;
  for (const CXXRecordDecl *E : Elements)
    if ((!Only || E == Only) && isElementOrBase(RD, E))
      return true;
  return false;
}

/// T is an element, a pointer or reference to one, or a class (a
/// container) whose template arguments hold elements. Deep: also a class
/// whose fields hold them (`std::vector<Cell>` where a Cell holds a list),
/// for what the standard library may change; a class of the user's is
/// followed into instead.
bool Walker::holdsElements(QualType T, const CXXRecordDecl *Only, int Depth,
                           bool Deep) const {
  if (Depth > 8 || T.isNull())
    return false;
  T = T.getNonReferenceType();
  while (T->isPointerType() || T->isArrayType())
    T = T->isPointerType() ? T->getPointeeType()
                           : QualType(T->getArrayElementTypeNoTypeQual(), 0);
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  if (isElement(RD, Only))
    return true;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
      if (A.getKind() == TemplateArgument::Type &&
          holdsElements(A.getAsType(), Only, Depth + 1, Deep))
        return true;
  if (Deep && RD->hasDefinition() && !SM.isInSystemHeader(RD->getLocation()))
    for (const FieldDecl *F : RD->fields())
      if (holdsElements(F->getType(), Only, Depth + 1, Deep))
        return true;
  return false;
}

std::string Walker::elementName(QualType T) const {
  for (const CXXRecordDecl *E : Elements)
    if (holdsElements(T, E, 0, true))
      return E->getNameAsString();
  return Elements.empty() ? "" : Elements.front()->getNameAsString();
}

/// A container type as the user's code names it: without the standard
/// library's own names for it (`value_type`, `reference`: the type of
/// `cells[0]`), down to the type the user wrote as the template argument.
std::string Walker::shownName(QualType T) const {
  T = T.getNonReferenceType();
  for (;;) {
    const Type *Ty = T.getTypePtr();
    const auto *TD = dyn_cast<TypedefType>(Ty);
    if (TD && SM.isInSystemHeader(TD->getDecl()->getLocation())) {
      T = TD->desugar();
    } else if (const auto *S = dyn_cast<SubstTemplateTypeParmType>(Ty)) {
      T = S->getReplacementType();
    } else if (QualType Under = T.getSingleStepDesugaredType(Ctx);
               !TD && !isa<TemplateSpecializationType>(Ty) && Under != T) {
      // Other sugar (the elaboration `std::` of LLVM 19, parentheses): the
      // type under it; the user's typedefs and written templates stay.
      T = Under;
    } else {
      PrintingPolicy Policy = qualifiedPolicy(Ctx);
      Policy.SuppressDefaultTemplateArgs = true; // no std::allocator<P *>
      return T.getUnqualifiedType().getAsString(Policy);
    }
  }
}

StoredDiag &Walker::report(SourceLocation L, const Msg &M) {
  Failed = true;
  Reported.insert(L.getRawEncoding());
  StoredDiag &Diag = Diags.report(L, M);
  if (L != Region.Loc)
    Diags.note(Diag, Region.Loc, Msg(diag::note_region_here));
  for (auto It = Through.rbegin(); It != Through.rend(); ++It)
    if (It == Through.rbegin() || *It != *std::prev(It))     // a member's
      Diags.note(Diag, *It, Msg(diag::note_region_through)); // destructor: once
  return Diag;
}

void Walker::checkExpr(const Expr *E) {
  // One diagnostic per location; an expression that reports nothing does
  // not hide the others there (`auto m = std::move(cells)`: the move
  // constructor and the call of std::move start at one location).
  SourceLocation L = E->getExprLoc();
  if (Reported.count(L.getRawEncoding()))
    return;
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (F && isElement(dyn_cast<CXXRecordDecl>(F->getParent()))) {
      StoredDiag &Diag = report(L, {diag::err_region_field,
                                    {"it uses", F->getNameAsString(),
                                     F->getParent()->getNameAsString()}});
      Diags.note(Diag, L, Msg(diag::note_region_field));
    }
    return;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXRecordDecl *RD = CE->getConstructor()->getParent();
    if (CE->getNumArgs() && isElement(RD))
      Diags.note(report(L, {diag::err_region_element_call,
                            {RD->getNameAsString(), RD->getNameAsString()}}),
                 L, Msg(diag::note_region_field));
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    checkAssignment(BO);
    return;
  }
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
void Walker::checkLibraryCall(const CallExpr *Call, const FunctionDecl *FD,
                              unsigned First) {
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
                 holdsElements(Arg->getType(), nullptr, 0, true) && !Reads;
    if (!ByRef && !(Positions && writesThrough(P, Arg)))
      continue;
    const Expr *Shown = shownContainer(Arg);
    StoredDiag &Diag = report(
        Call->getExprLoc(),
        {diag::err_region_container,
         {Name, shownName(Shown->getType()), elementName(Shown->getType())}});
    Diags.note(Diag, Call->getExprLoc(), Msg(diag::note_region_container));
    return;
  }
}

/// Whether a library function may write, through argument Arg of its
/// parameter type P, into a list of elements or into an element: P is a
/// pointer or an iterator, Arg a non-const pointer to element pointers or
/// to elements, or an iterator whose `*` is a non-const reference to one.
bool Walker::writesThrough(QualType P, const Expr *Arg) const {
  P = P.getNonReferenceType();
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf && ownVariable(UO->getSubExpr()))
    return false; // `&q`
  QualType T = E->getType();
  if (P->isPointerType() && T->isPointerType()) {
    QualType To = T->getPointeeType();
    return !P->getPointeeType().isConstQualified() && !To.isConstQualified() &&
           holdsElements(To, nullptr, 0, true);
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
          holdsElements(Ref.getNonReferenceType(), nullptr, 0, true))
        return true;
    }
  return false;
}

/// What a message names for argument Arg: the container whose begin(),
/// end() or data() it is (`c.local`), or the argument itself.
const Expr *Walker::shownContainer(const Expr *Arg) const {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (const Expr *Object = MC->getImplicitObjectArgument();
        Object && holdsElements(Object->getType(), nullptr, 0, true))
      return Object;
  return E;
}

/// `list[k] = q`, `*it = q`: an assignment to a pointer to an element that
/// is not a variable of its own (it sits in a container).
void Walker::checkAssignment(const BinaryOperator *BO) {
  const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
  QualType T = LHS->getType();
  if (!BO->isAssignmentOp() || !T->isPointerType() || !holdsElements(T))
    return;
  if (ownVariable(LHS))
    return;
  SourceLocation L = BO->getOperatorLoc();
  StoredDiag &Diag = report(
      L, {diag::err_region_container, {"=", shownName(T), elementName(T)}});
  Diags.note(Diag, L, Msg(diag::note_region_container));
}

/// A member function called on an element (it may read any field), or a
/// non-const one on a container of elements (it may change the container).
void Walker::checkContainerCall(const CallExpr *Call, const CXXMethodDecl *M,
                                const Expr *Object) {
  SourceLocation L = Call->getExprLoc();
  QualType T = Object->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  if (M->getOverloadedOperator() == OO_Call &&
      SM.isInSystemHeader(M->getLocation()) &&
      !holdsElements(T, nullptr, 0, true)) // std::ranges::sort(lists[0])
    return checkLibraryCall(Call, M, isa<CXXOperatorCallExpr>(Call) ? 1 : 0);
  if (isElement(T->getAsCXXRecordDecl())) {
    Diags.note(
        report(L, {diag::err_region_element_call,
                   {M->getNameAsString(), M->getParent()->getNameAsString()}}),
        L, Msg(diag::note_region_field));
    return;
  }
  if (M->isConst() || isAccessor(M) ||
      !holdsElements(T, nullptr, 0, SM.isInSystemHeader(M->getLocation())))
    return;
  StoredDiag &Diag =
      report(L, {diag::err_region_container,
                 {M->getNameAsString(), shownName(T), elementName(T)}});
  Diags.note(Diag, L, Msg(diag::note_region_container));
}

/// A call soaview cannot follow: refused outside the annotated loops (their
/// nests' analyses refuse it inside, where it may change a list unseen).
void Walker::unseen(SourceLocation L, const Msg &M, const Msg &Note) {
  if (!InLoop) {
    Diags.note(report(L, M), L, Note);
  } else if (!Plan.ListsMayChange.isValid()) {
    Plan.ListsMayChange = L;
    Plan.ListsWhy = "call soaview does not follow";
  }
}

/// The first place where the region's code may change a list unseen.
void Walker::noteListsChange(const Expr *E) {
  if (Plan.ListsMayChange.isValid())
    return;
  if (const char *Why = listsChangeIn(E)) {
    Plan.ListsMayChange = E->getExprLoc();
    Plan.ListsWhy = Why;
  }
}

/// What E may do to a sweep's list that neither the refusals above nor the
/// run-time check of the lists' places would see (null: nothing): write
/// bytes through a pointer, write a value that holds elements (a list's
/// entry), make or free the storage of such a value (a list made in the
/// region may reuse another's storage), or have a library function or a
/// trivial member function do so.
const char *Walker::listsChangeIn(const Expr *E) const {
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAssignmentOp() ? writeTo(BO->getLHS()) : nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isIncrementDecrementOp() ? writeTo(UO->getSubExpr()) : nullptr;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return holdsElements(CE->getType(), nullptr, 0, true)
               ? "construction of an object that holds elements"
               : nullptr;
  if (const auto *NE = dyn_cast<CXXNewExpr>(E))
    return holdsElements(NE->getAllocatedType(), nullptr, 0, true)
               ? "new-expression of an object that holds elements"
               : nullptr;
  if (const auto *DE = dyn_cast<CXXDeleteExpr>(E))
    return holdsElements(DE->getDestroyedType(), nullptr, 0, true)
               ? "delete-expression of an object that holds elements"
               : nullptr;
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD ? libraryCallChange(Call, FD) : nullptr;
}

/// A write to LHS: of bytes, or of a value that holds elements, in
/// anything but a variable of the code's own.
const char *Walker::writeTo(const Expr *LHS) const {
  const Expr *L = LHS->IgnoreParenImpCasts();
  if (ownVariable(L))
    return nullptr;
  if (isByte(L->getType()))
    return "write of bytes through a pointer";
  return holdsElements(L->getType(), nullptr, 0, true)
             ? "write of a value that holds elements"
             : nullptr;
}

/// A call the walk does not follow into (the library's, a builtin, a
/// trivial member function) that may change a list: a non-const member
/// function of an object that holds elements (not an accessor), a pointer
/// argument it may write bytes through, or a value that holds elements
/// made (not a search or an iterator's step).
const char *Walker::libraryCallChange(const CallExpr *Call,
                                      const FunctionDecl *FD) const {
  const auto *M = dyn_cast<CXXMethodDecl>(FD);
  const bool Library =
      FD->getBuiltinID() || SM.isInSystemHeader(FD->getLocation());
  if (!Library && !(M && M->isTrivial()))
    return nullptr; // followed: its body is walked
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    Object = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(Call) && M && !M->isStatic())
    Object = Call->getArg(0);
  if (Object && M && !M->isConst() && (M->isTrivial() || !isAccessor(M)) &&
      holdsElements(Object->getType(), nullptr, 0, true))
    return "member function call on an object that holds elements";
  const unsigned First = isa<CXXOperatorCallExpr>(Call) && Object ? 1 : 0;
  for (unsigned I = 0; First + I < Call->getNumArgs() && I < FD->getNumParams();
       ++I) {
    QualType P = FD->getParamDecl(I)->getType();
    if (!P->isPointerType() || P->getPointeeType().isConstQualified())
      continue;
    QualType To = P->getPointeeType();
    const Expr *A = Call->getArg(First + I)->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(A);
    if ((To->isVoidType() || isByte(To)) &&
        !(UO && UO->getOpcode() == UO_AddrOf && ownVariable(UO->getSubExpr())))
      return "call that may write bytes through a pointer";
  }
  QualType Made = FD->getReturnType();
  if (!M && !Made->isReferenceType() && !Made->isPointerType() &&
      !searches(libraryName(FD)) && holdsElements(Made, nullptr, 0, true))
    return "call that makes an object that holds elements";
  return nullptr;
}

} // namespace

std::vector<RegionPlan> analyseRegions(ASTContext &Ctx,
                                       const AnnotationCollector &Annotated,
                                       DiagStore &Diags) {
  std::vector<RegionPlan> Plans;
  for (const RegionAnnotation &Region : Annotated.Regions) {
    const FunctionDecl *FD = enclosingFunction(Ctx, Region.S);
    if (FD && FD->isDependentContext()) {
      StoredDiag &Diag = Diags.report(Region.Loc, {diag::err_region_template});
      Diags.note(Diag, Region.Loc, Msg(diag::note_region_template));
      continue;
    }
    RegionPlan Plan{&Region, {}, {}};
    Walker W(Ctx, Annotated, Diags, Region, Plan);
    W.collect();
    if (Plan.Loops.empty()) {
      Diags.report(Region.Loc, {diag::warn_region_empty});
      continue;
    }
    if (W.check())
      Plans.push_back(std::move(Plan));
  }
  return Plans;
}

} // namespace soaview
