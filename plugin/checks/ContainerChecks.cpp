//===- ContainerChecks.cpp - the loop leaves its container as it found it -===//
//
// The view is gathered before the loop starts and scattered back to the
// same elements after it ends, so nothing the loop runs may change which
// elements it visits: the range's container, an iterator loop's bounds, an
// index loop's target, a neighbour list. The loop's own code may not write
// them. Neither may any function it reaches with a body in this translation
// unit (calls, constructions and destructions, lambdas, overrides of the
// virtual functions it calls): there a write of the variable itself counts
// (a global, the member in any object, a local a lambda captures), and for
// a container that code outside its function can reach (a global, a member,
// a reference, a local whose address is taken), so does a write to an
// object of its type through a pointer or a reference.
// Tests: test/Sema/container-callees.cpp,
// test/Exec/constructs/container-callees.cpp.
//===----------------------------------------------------------------------===//
#include "checks/Checks.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"
#include "support/Reach.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {
namespace {

/// What the view is built from: the variables and members that name it, and
/// the types of the containers among them.
struct Container {
  std::vector<const ValueDecl *> Roots;
  llvm::SmallPtrSet<const ValueDecl *, 4> Names; ///< Roots and their members
  /// Roots whose elements are the container (`hs[0]`, `cells[c].parts`):
  /// writing such an element writes the container.
  llvm::SmallPtrSet<const ValueDecl *, 4> Selected;
  /// The containers' types, each with the root naming it.
  std::vector<std::pair<const ValueDecl *, const Type *>> Types;
  void add(const ValueDecl *Root, QualType T) {
    Roots.push_back(Root);
    Names.insert(Root);
    QualType Object = T.getNonReferenceType(); // a target `std::vector<P> &A`
    if (Object->isRecordType() || Object->isArrayType())
      Types.push_back({Root, aliasKey(T)});
  }
};

/// The variable an expression names (`ps`, `cell.parts`, `hs[0].items`),
/// with the members it selects on the way to it.
void addNamed(const Expr *E, Container &Watched) {
  if (!E)
    return;
  E = E->IgnoreParenImpCasts();
  QualType T = E->getType();
  bool Subscripted = false;
  auto Add = [&](const ValueDecl *Root) {
    Watched.add(Root, T);
    if (Subscripted)
      Watched.Selected.insert(Root);
  };
  while (true) {
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return Add(ME->getMemberDecl());
      Watched.Names.insert(ME->getMemberDecl());
      E = ME->getBase()->IgnoreParenImpCasts();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase()->IgnoreParenImpCasts(); // `hs[0].items`: in hs
      Subscripted = true;
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
               OC && OC->getOperator() == OO_Subscript) {
      E = OC->getArg(0)->IgnoreParenImpCasts();
      Subscripted = true;
    } else {
      break;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    Add(DRE->getDecl());
}

/// The variables an iterator loop's begin and end read (`c` of `c.begin()`,
/// `n` of `parts + n`): evaluated once before the converted loop.
void addBoundVars(const LoopForm &F, Container &Watched) {
  struct Refs : RecursiveASTVisitor<Refs> {
    Container &Watched;
    explicit Refs(Container &Watched) : Watched(Watched) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (isa<VarDecl>(E->getDecl()) && !Watched.Names.count(E->getDecl()))
        Watched.add(E->getDecl(), E->getType());
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      if (isa<CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()) &&
          !Watched.Names.count(E->getMemberDecl()))
        Watched.add(E->getMemberDecl(), E->getType());
      return true;
    }
  } R(Watched);
  R.TraverseStmt(const_cast<Expr *>(F.Begin));
  R.TraverseStmt(const_cast<Expr *>(F.End));
}

Container containerOf(const LoopForm &F) {
  Container Watched;
  if (F.Kind == LoopFormKind::Iterator)
    addBoundVars(F, Watched);
  else if (F.Kind == LoopFormKind::Range)
    addNamed(F.RangeInit, Watched);
  else {
    addNamed(F.IndexList, Watched); // a neighbour list, read before the loop
    if (const auto *V = dyn_cast_or_null<ValueDecl>(F.Target))
      Watched.add(V,
                  V->getType()); // the target: a vector may move its elements
  }
  return Watched;
}

/// A local variable of F's function that no code outside the function can
/// reach: an object (not a reference) whose address is never taken nor
/// bound to a non-const reference (a lambda capturing it names it).
bool unreachableFromOutside(const LoopForm &F, const ValueDecl *Root) {
  const auto *V = dyn_cast<VarDecl>(Root);
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
      V->getType()->isPointerType())
    return false;
  struct Escapes : RecursiveASTVisitor<Escapes> {
    const VarDecl *V;
    bool Found = false;
    bool escapes(const Expr *E) {
      const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E ? strip(E) : nullptr);
      return DRE && DRE->getDecl() == V;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      Found |= U->getOpcode() == UO_AddrOf && escapes(U->getSubExpr());
      return true;
    }
    bool VisitVarDecl(VarDecl *D) {
      QualType T = D->getType();
      Found |= T->isReferenceType() &&
               !T.getNonReferenceType().isConstQualified() &&
               escapes(D->getInit());
      return true;
    }
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *FD = C->getDirectCallee();
      for (unsigned I = 0; FD && I < C->getNumArgs(); ++I) {
        const ParmVarDecl *P =
            I < FD->getNumParams() ? FD->getParamDecl(I) : nullptr;
        QualType T = P ? P->getType() : QualType();
        Found |= P && T->isReferenceType() &&
                 !T.getNonReferenceType().isConstQualified() &&
                 escapes(C->getArg(I));
      }
      return true;
    }
  } E;
  E.V = V;
  E.TraverseStmt(F.Function->getBody());
  return !E.Found;
}

/// A function the loop reaches, and the call in the loop's own code that
/// leads to it.
struct Reached {
  const FunctionDecl *FD;
  const Expr *Via;
};

/// Every user function a loop body reaches whose body this translation unit
/// holds, outside system headers, in the order a breadth-first walk meets
/// them (ReachedFunctions::later): the functions each statement runs
/// (runsAt: callees, constructors, the destructors of what is built or
/// deleted, the call operators of lambdas handed on by name) and every
/// override of a virtual function among them.
class ReachWalk : public RecursiveASTVisitor<ReachWalk> {
public:
  explicit ReachWalk(ASTContext &Ctx)
      : Ctx(Ctx), Reach([this](const Reached &R) { read(R); }) {}
  std::vector<Reached> run(const Stmt *LoopBody) {
    Body = LoopBody;
    Reach.run({nullptr, nullptr});
    return Out;
  }
  /// The functions S itself runs.
  bool VisitStmt(Stmt *S) {
    runsAt(Ctx, S, Runs, [&](const Run &R) { add(R.FD, cast<Expr>(R.Site)); });
    return true;
  }

private:
  /// Reads the loop body (the root, FD null) or a reached function.
  void read(const Reached &R) {
    Via = R.Via;
    if (R.FD)
      TraverseDecl(const_cast<FunctionDecl *>(R.FD));
    else
      TraverseStmt(const_cast<Stmt *>(Body));
  }
  void add(const FunctionDecl *FD, const Expr *At) {
    if (!FD)
      return;
    // A virtual call may run any override, pure or not in the base.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && MD->isVirtual() && Virtuals.insert(MD->getCanonicalDecl()).second)
      for (const CXXMethodDecl *O : overriders(MD))
        add(O, At);
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def ||
        Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
      return;
    Reached R{Def, Via ? Via : At};
    if (Reach.later(Def, R))
      Out.push_back(R);
  }
  /// The methods of this translation unit that override MD.
  std::vector<const CXXMethodDecl *> overriders(const CXXMethodDecl *MD) {
    if (!Overrides) {
      struct All : RecursiveASTVisitor<All> {
        std::multimap<const CXXMethodDecl *, const CXXMethodDecl *> M;
        bool shouldVisitTemplateInstantiations() const { return true; }
        bool VisitCXXMethodDecl(CXXMethodDecl *D) {
          for (const CXXMethodDecl *O : D->overridden_methods())
            M.emplace(O->getCanonicalDecl(), D);
          return true;
        }
      } A;
      A.TraverseDecl(Ctx.getTranslationUnitDecl());
      Overrides = std::move(A.M);
    }
    std::vector<const CXXMethodDecl *> R;
    auto [B, E] = Overrides->equal_range(MD->getCanonicalDecl());
    for (auto It = B; It != E; ++It)
      R.push_back(It->second);
    return R;
  }

  ASTContext &Ctx;
  const Stmt *Body = nullptr; ///< the loop body, the walk's root
  const Expr *Via = nullptr;  ///< the loop's call that reached the walked code
  /// A construction runs the destructor of what it builds (its class's
  /// own); a lambda named may be called where it is handed.
  const RunRule Runs{DestructorRule::Own, /*ConstructedDestroyed=*/true,
                     /*TemporariesDestroyed=*/false,
                     /*LocalsDestroyed=*/false, /*NamedLambdas=*/true};
  /// Breadth first: Out is in the order the walk meets the functions.
  ReachedFunctions<const FunctionDecl *, Reached> Reach;
  llvm::SmallPtrSet<const CXXMethodDecl *, 4> Virtuals; ///< overrides added
  std::vector<Reached> Out;
  std::optional<std::multimap<const CXXMethodDecl *, const CXXMethodDecl *>>
      Overrides;
};

/// A reached function as the notes name it.
std::string nameOf(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (MD && MD->getParent()->isLambda())
    return "a lambda";
  return "'" + FD->getQualifiedNameAsString() + "'";
}

/// The name the message gives the container: the variable written, or the
/// first root.
std::string shownRoot(const Container &Watched, const Expr *W) {
  const ValueDecl *Root = Watched.Roots.front();
  if (const DeclRefExpr *Written = findVarUse(W, [&](const VarDecl *V) {
        return llvm::is_contained(Watched.Roots, V);
      }))
    Root = Written->getDecl();
  return Root->getName().str();
}

/// Whether the write W names the container (not an alias of it).
bool namesContainer(const Expr *W, const Container &Watched) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(W))
    return Watched.Names.count(DRE->getDecl());
  const auto *ME = dyn_cast<MemberExpr>(W);
  return ME && Watched.Names.count(ME->getMemberDecl());
}

/// The container as a message names a write of it in a reached function:
/// the variable or member written, else (an alias) the loop's first root.
std::string writtenName(const Expr *W, const Container &Watched) {
  const NamedDecl *D = Watched.Roots.front();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(W);
      DRE && namesContainer(W, Watched))
    D = DRE->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(W);
      ME && namesContainer(W, Watched))
    D = ME->getMemberDecl();
  return D->getName().str();
}

/// The object an aliasing write changes: W itself, or what W points to.
QualType objectType(const Expr *W) {
  QualType T = W->getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T.getUnqualifiedType();
}

} // namespace

bool checkContainerUnchanged(ASTContext &Ctx, const LoopForm &F,
                             const LoopAnnotation &Annotation,
                             DiagStore &Diags) {
  Container Watched = containerOf(F);
  if (Watched.Roots.empty())
    return true;
  if (const Expr *W =
          findWrite(F.Body, Watched.Names, nullptr, &Watched.Selected)) {
    StoredDiag &D =
        Diags.report(W->getExprLoc(), {diag::err_loop_container_modified,
                                       {shownRoot(Watched, W)}});
    Diags.note(D, Annotation.ForLoc, diag::note_loop_container_modified);
    return false;
  }
  AliasTypes Reachable; // types of the containers code elsewhere can reach
  for (auto [Root, T] : Watched.Types)
    if (!unreachableFromOutside(F, Root))
      Reachable.insert(T);
  const AliasTypes *Aliases = Reachable.empty() ? nullptr : &Reachable;
  for (const Reached &Function : ReachWalk(Ctx).run(F.Body)) {
    const Expr *W = findWrite(Function.FD->getBody(), Watched.Names, Aliases,
                              &Watched.Selected);
    if (!W)
      continue;
    StoredDiag &D = Diags.report(
        Function.Via->getExprLoc(),
        {diag::err_loop_container_modified, {writtenName(W, Watched)}});
    if (namesContainer(W, Watched))
      Diags.note(D, W->getExprLoc(),
                 {diag::note_loop_container_callee, {nameOf(Function.FD)}});
    else
      Diags.note(D, W->getExprLoc(),
                 {diag::note_loop_container_alias,
                  {nameOf(Function.FD), qualifiedName(Ctx, objectType(W))}});
    Diags.note(D, Annotation.ForLoc, diag::note_loop_container_modified);
    return false;
  }
  return true;
}

} // namespace soaview
