//===- Analyzer.h - the analyser behind analyseNest -------------*- C++ -*-===//
//
// Private to analysis/: Analysis.cpp analyses each body, Walk.cpp follows
// element uses up the AST, Calls.cpp through the call graph, Accesses.cpp
// records field accesses; NestState is what they share.
// The questions they ask are answered as values elsewhere: how an lvalue
// is used (Uses.h), what a view may hold (Rules.h), which returned
// references are written (ReturnedWrites.h); the values they pass around
// are in Bindings.h.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_ANALYZER_H
#define SOAVIEW_ANALYZER_H

#include "analysis/Bindings.h"
#include "analysis/ReturnedWrites.h"
#include "analysis/Rules.h"
#include "analysis/Uses.h"
#include "analysis/View.h"
#include "diag/Diagnostics.h"
#include "forms/Forms.h"
#include "support/Compat.h"
#include "support/Reach.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <optional>
#include <set>

namespace soaview {
namespace analysis {

/// Pre-order list of the nodes the analysis looks at in one body.
class Collector : public clang::RecursiveASTVisitor<Collector> {
  using Base = clang::RecursiveASTVisitor<Collector>;

public:
  /// `buf[i]`, `*it`, `it->` -> view and how they denote its element.
  llvm::DenseMap<const clang::Expr *, std::pair<int, Kind>> ExtraRoots;
  /// DeclRefExpr, CXXThisExpr, extra roots.
  std::vector<const clang::Expr *> Roots;
  std::vector<const clang::MemberExpr *> Members;
  std::vector<const clang::CallExpr *> Calls;
  std::vector<const clang::CXXConstructExpr *> Ctors;
  std::vector<const clang::Expr *> Wholes; ///< element copies, assignments
  /// Closure classes of the lambdas written in this body: only their
  /// parameters are bound where written; a lambda written elsewhere is a
  /// callee like any other.
  llvm::SmallPtrSet<const clang::CXXRecordDecl *, 4> Closures;

  /// Field accesses in unevaluated operands (sizeof, alignof, decltype,
  /// __typeof__, noexcept, non-polymorphic typeid): they name a field's type,
  /// never its value, so they are neither uses of the element nor foreign
  /// accesses; the view only has to declare those fields.
  std::vector<const clang::MemberExpr *> UnevaluatedMembers;
  /// `sizeof(e)`, `alignof(e)` of an expression (checked: an element's size
  /// there would be its view's).
  std::vector<const clang::UnaryExprOrTypeTraitExpr *> Sizes;
  /// `decltype(e)`, `__typeof__(e)`: the operand and the spelling (checked:
  /// an element's type there would be its view's).
  std::vector<std::pair<const clang::Expr *, const char *>> TypeOperands;
  /// Variables named in unevaluated operands (`decltype(p)`, the `p` of
  /// `decltype(p.x)`).
  std::vector<const clang::DeclRefExpr *> UnevaluatedNames;

  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *E,
                                        DataRecursionQueue * = nullptr) {
    if (!E->isArgumentType())
      Sizes.push_back(E);
    return unevaluated(
        [&] { return Base::TraverseUnaryExprOrTypeTraitExpr(E); });
  }
  bool TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr *E,
                               DataRecursionQueue * = nullptr) {
    return unevaluated([&] { return Base::TraverseCXXNoexceptExpr(E); });
  }
  bool TraverseCXXTypeidExpr(clang::CXXTypeidExpr *E,
                             DataRecursionQueue * = nullptr) {
    if (E->isPotentiallyEvaluated())
      return Base::TraverseCXXTypeidExpr(E);
    return unevaluated([&] { return Base::TraverseCXXTypeidExpr(E); });
  }
  bool TraverseDecltypeTypeLoc(
      clang::DecltypeTypeLoc TL SOAVIEW_TRAVERSE_TYPE_PARAM) {
    typeOperand(TL.getUnderlyingExpr(), "decltype");
    return unevaluated([&] {
      return Base::TraverseDecltypeTypeLoc(TL SOAVIEW_TRAVERSE_TYPE_ARG);
    });
  }
  bool TraverseTypeOfExprTypeLoc(
      clang::TypeOfExprTypeLoc TL SOAVIEW_TRAVERSE_TYPE_PARAM) {
    typeOperand(TL.getUnderlyingExpr(), "__typeof__");
    return unevaluated([&] {
      return Base::TraverseTypeOfExprTypeLoc(TL SOAVIEW_TRAVERSE_TYPE_ARG);
    });
  }
  bool
  TraverseDecltypeType(clang::DecltypeType *T SOAVIEW_TRAVERSE_TYPE_PARAM) {
    typeOperand(T->getUnderlyingExpr(), "decltype");
    return unevaluated([&] {
      return Base::TraverseDecltypeType(T SOAVIEW_TRAVERSE_TYPE_ARG);
    });
  }
  bool
  TraverseTypeOfExprType(clang::TypeOfExprType *T SOAVIEW_TRAVERSE_TYPE_PARAM) {
    typeOperand(T->getUnderlyingExpr(), "__typeof__");
    return unevaluated([&] {
      return Base::TraverseTypeOfExprType(T SOAVIEW_TRAVERSE_TYPE_ARG);
    });
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr *E);
  bool VisitCXXThisExpr(clang::CXXThisExpr *E);
  bool VisitExpr(clang::Expr *E);
  bool VisitMemberExpr(clang::MemberExpr *E);
  bool VisitCallExpr(clang::CallExpr *E);
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *E);
  bool VisitLambdaExpr(clang::LambdaExpr *E);

private:
  void typeOperand(const clang::Expr *E, const char *Spelling) {
    if (E && llvm::none_of(TypeOperands,
                           [&](const auto &O) { return O.first == E; }))
      TypeOperands.push_back({E, Spelling});
  }
  template <class F> bool unevaluated(F Fn) {
    ++Unevaluated;
    bool Result = Fn();
    --Unevaluated;
    return Result;
  }
  unsigned Unevaluated = 0;
};

/// What one analysis of a nest shares between its pieces: the nest it
/// reads, the AnalysedNest it writes, the bodies to analyse and the uses
/// already bound. Reports the nest's one refusal, which ends the analysis.
class NestState {
public:
  /// A body to analyse and what its code is bound to: the nest's own code
  /// (no key: its callers are not followed), or a function's body, once per
  /// AnalysisKey.
  struct Work {
    const clang::Stmt *Body; ///< null: the function has no body
    Env Scope;
    std::optional<AnalysisKey> Key;
  };
  using Reach = ReachedFunctions<AnalysisKey, Work>;

  /// Analyse reads each body of the walk.
  NestState(clang::ASTContext &Ctx, DiagStore &Diags, const RecognisedNest &In,
            AnalysedNest &Out, Reach::Reader Analyse)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Diags), In(In), Out(Out),
        Bodies(std::move(Analyse)) {}

  /// Reports why the nest cannot be converted (once), with the note saying
  /// what to write instead and the loop it concerns.
  void refuse(clang::SourceLocation L, const Msg &Error,
              clang::SourceLocation NoteL = {},
              std::optional<Msg> Note = std::nullopt);
  /// Reports R, if any (analysis/Rules.h); whether it did.
  bool refused(const std::optional<Refusal> &R);
  /// Queues FD's body for analysis with Scope, after every body queued
  /// before it (breadth first), once per AnalysisKey.
  void enqueue(const clang::FunctionDecl *FD, Env Scope);
  /// The binding of an expression that denotes a whole element (the loop
  /// variable, `*p`, `&e`, `this`), or nullopt.
  std::optional<std::pair<Binding, Kind>> evalElement(const clang::Expr *E,
                                                      const Env &Scope);
  bool isRecordOf(const clang::RecordDecl *RD, int View) const;
  bool isElementRecord(const clang::RecordDecl *RD) const;
  ViewModel &view(const Binding &B) { return Out.Loops[B.View].View; }
  const LoopForm &form(int View) const { return In.Loops[View].Form; }

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  DiagStore &Diags;
  const RecognisedNest &In;
  AnalysedNest &Out;
  int CurView = 0; ///< the view being followed, for "in the loop" notes
  /// The function whose body is being analysed, and its analysis (unset
  /// for the nest's own function, whose callers are not followed).
  const clang::FunctionDecl *CurrentFunction = nullptr;
  std::optional<AnalysisKey> CurrentKey;
  bool Failed = false;

  llvm::DenseSet<const clang::Expr *> Handled;        ///< view accesses
  llvm::DenseSet<const clang::CallExpr *> BoundCalls; ///< given an element
  /// Calls whose element arguments were bound, per analysis of the body
  /// holding them: a body analysed again with other bindings (a lambda
  /// called from two loops of the nest) binds its calls again.
  std::set<std::pair<std::optional<AnalysisKey>, const clang::CallExpr *>>
      BoundUnder;
  /// `buf[i]`, `*it`, `it->`: view and kind.
  llvm::DenseMap<const clang::Expr *, std::pair<int, Kind>> ExtraRootViews;
  std::set<const clang::ParmVarDecl *> LambdaParams;
  /// Closure classes of lambdas written in analysed code.
  std::set<const clang::CXXRecordDecl *> WrittenClosures;
  llvm::DenseSet<const clang::Expr *> BoundWholes;
  /// The nest's own code, then the bodies it reaches, breadth first; a
  /// refusal stops it.
  Reach Bodies;
  std::map<std::pair<const clang::FunctionDecl *, std::vector<int>>, size_t>
      CalleeIndex;

  /// Fields returned by non-const reference, written where their callers
  /// write through the result.
  ReturnedWrites Returns;
};

/// Field accesses through a view (analysis/Accesses.cpp): each becomes a
/// leaf of the view with how it is used.
class AccessRecorder {
public:
  explicit AccessRecorder(NestState &State) : State(State) {}

  /// A field access through a view: a leaf (or a whole record) of the view.
  void leaf(const clang::Expr *Use, const Binding &B, bool Whole,
            clang::ParentMap &PM);
  /// How the value of the lvalue Use is used (Uses.h), in the body being
  /// analysed; the sub-object fields on the way are handled.
  UseOf uses(const clang::Expr *Use, clang::ParentMap &PM);
  /// A call C of the analysis Callee, which may return a non-const
  /// reference to part of an element: records how C's result is used.
  void resultUse(const AnalysisKey &Callee, const clang::CallExpr *C,
                 clang::ParentMap &PM);

private:
  NestState &State;
};

/// Calls that receive an element (analysis/Calls.cpp): methods and
/// operators of the element, lambdas, functions and templates followed
/// into (queued with their parameters bound), virtual calls guarded or
/// refused.
class CallFollower {
public:
  CallFollower(NestState &State, AccessRecorder &Access)
      : State(State), Access(Access) {}

  /// The outcome of a call that receives the element: refused, handled
  /// (the walk ends there), or the element again (a member operator
  /// returning `*this`), where the walk goes on.
  struct CallOutcome {
    bool Accepted = false;
    std::optional<ElementExpr> Continues;
  };
  CallOutcome call(const clang::CallExpr *C, const clang::Expr *Arg, Kind K,
                   const Binding &B, Env &Scope, clang::ParentMap &PM);
  /// Call: the call of MD, whose result's use is recorded (resultUse).
  void method(const clang::CXXMethodDecl *MD, const Binding &B,
              clang::SourceLocation Use, const clang::CallExpr *Call,
              clang::ParentMap &PM);

private:
  std::optional<CallOutcome> specialCallee(const clang::CallExpr *C,
                                           const clang::Expr *Arg,
                                           unsigned ArgIdx, Kind K,
                                           const Binding &B,
                                           clang::ParentMap &PM);
  bool followCallee(const clang::CallExpr *C, const clang::Expr *Arg,
                    unsigned ArgIdx, const Binding &B, const Env &Scope,
                    clang::ParentMap &PM);
  bool elementParam(const clang::CallExpr *C, const clang::Expr *Arg,
                    unsigned ParamIdx, const Binding &B);
  void bindArguments(const clang::CallExpr *C, const clang::FunctionDecl *Def,
                     unsigned Shift, unsigned ParamIdx, const Binding &B,
                     const Env &Caller, Env &Callee,
                     std::vector<int> &ParamViews);
  bool devirtualized(const clang::CallExpr *C, const clang::CXXMethodDecl *MD);
  bool guardDispatch(const clang::CallExpr *C, const clang::CXXMethodDecl *MD);
  bool guardMember(const clang::CallExpr *C, const clang::CXXMethodDecl *MD,
                   const clang::MemberExpr *ME);
  bool addGuard(const DispatchGuard &G);
  /// Whether the callee gets a clone (true) or instantiates again with the
  /// proxy types (false); nullopt after refusing the templated shapes.
  std::optional<bool> needsClone(const clang::CallExpr *C,
                                 const clang::FunctionDecl *Def,
                                 const std::vector<int> &ParamViews,
                                 std::vector<unsigned> &AutoParams);
  /// A lambda written elsewhere whose parameters Params take the element by
  /// its own type: whether they can become `auto` where it is written
  /// (analysis/TypedLambdas.cpp); false after refusing.
  bool typedLambda(const clang::CallExpr *C, const clang::CXXMethodDecl *MD,
                   const std::vector<int> &ParamViews,
                   const std::vector<unsigned> &Params);

  NestState &State;
  AccessRecorder &Access;
};

/// Walks up the AST from one use of an element (analysis/Walk.cpp): each
/// step moves up while the expression is still the element, and ends at a
/// field access (a leaf), a call (followed), a local alias (bound) or a
/// refusal.
class ElementWalker {
public:
  ElementWalker(NestState &State, AccessRecorder &Access, CallFollower &Calls)
      : State(State), Access(Access), Calls(Calls) {}

  void element(const clang::Expr *Root, Kind K, Binding B, Env &Scope,
               clang::ParentMap &PM);
  /// `p->Base::x`: whether the qualifier can go (recorded), else refused.
  bool qualifiedMember(const clang::MemberExpr *ME, int View);

private:
  /// The state of one walk up from one use of the element.
  struct ElementWalk {
    const clang::Expr
        *Cur; ///< the expression that is (a pointer to) the element
    Kind K;
    Binding B;
    bool RootIsThis;
  };
  bool step(const clang::Stmt *P, ElementWalk &W, Env &Scope,
            clang::ParentMap &PM);
  bool stepCast(const clang::ImplicitCastExpr *IC, ElementWalk &W);
  bool stepUnary(const clang::UnaryOperator *U, ElementWalk &W);
  bool stepField(const clang::MemberExpr *ME, const clang::FieldDecl *FD,
                 ElementWalk &W, clang::ParentMap &PM);
  bool stepMethod(const clang::MemberExpr *ME, const clang::CXXMethodDecl *MD,
                  ElementWalk &W, clang::ParentMap &PM);
  bool stepDecl(const clang::DeclStmt *DS, ElementWalk &W, Env &Scope);
  bool stepBinary(const clang::BinaryOperator *BO, ElementWalk &W);
  bool stepOther(const clang::Stmt *P, ElementWalk &W, const Env &Scope,
                 clang::ParentMap &PM);

  NestState &State;
  AccessRecorder &Access;
  CallFollower &Calls;
};

/// Follows every use of the nest's elements (analysis/Analysis.cpp) and
/// writes the AnalysedNest: each body reached is collected, its element
/// uses walked, its other field accesses and callees recorded. Any use it
/// cannot follow refuses the nest.
class Analyzer {
public:
  Analyzer(clang::ASTContext &Ctx, DiagStore &Diags, const RecognisedNest &In,
           AnalysedNest &Out)
      : State(Ctx, Diags, In, Out,
              [this](const NestState::Work &W) { read(W); }),
        Access(State), Calls(State, Access), Walker(State, Access, Calls) {}

  /// False after reporting why the nest cannot be converted.
  bool run();

private:
  void read(const NestState::Work &W);
  void analyse(const clang::Stmt *Body, Env &Scope,
               std::optional<AnalysisKey> Key = std::nullopt);
  void analyseRoots(const Collector &Collected, Env &Scope,
                    clang::ParentMap &PM);
  void collectForeign(const Collector &Collected, clang::ParentMap &PM);
  void enqueueCallees(const Collector &Collected);
  void unevaluatedField(const clang::MemberExpr *ME, const Env &Scope);
  void typeOfElement(const clang::Expr *Operand, const char *Spelling,
                     const Env &Scope);
  void sizeOfElement(const clang::UnaryExprOrTypeTraitExpr *S,
                     const Env &Scope);
  void bindLambdaParams(const Collector &Collected, Env &Scope);

  NestState State;
  AccessRecorder Access;
  CallFollower Calls;
  ElementWalker Walker;
};

} // namespace analysis
} // namespace soaview

#endif
