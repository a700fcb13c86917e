//===- AnalysisImpl.h - the analyser shared by Analysis*.cpp ----*- C++ -*-===//
//
// Private to the analysis: Analysis.cpp follows element uses through the AST
// and the call graph; AccessChecks.cpp classifies field accesses and checks
// what a view cannot support.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_ANALYSISIMPL_H
#define SOAVIEW_ANALYSISIMPL_H

#include "diag/Diagnostics.h"
#include "plan/Model.h"
#include "support/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <deque>
#include <optional>
#include <map>
#include <set>

namespace soaview {
namespace detail {

using namespace clang;

/// Members of a view named so are soaview's (docs/generated-code.md,
/// "Names"): an element member named so cannot be in a view.
inline constexpr llvm::StringLiteral ReservedPrefix = "soaview_";

enum class Kind { Pointer, Lvalue };

struct Binding {
  int View = 0; ///< which loop of the nest the element belongs to
  FieldPath Path;
};

struct Env {
  llvm::DenseMap<const VarDecl *, std::pair<Binding, Kind>> Vars;
  bool HasThis = false;
  Binding This;
  const FunctionDecl *Fn = nullptr;
};

/// Pre-order list of the nodes the analysis looks at in one body.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  llvm::DenseMap<const Expr *, int> ExtraRoots; ///< `buf[i]` -> view
  std::vector<const Expr *> Roots; // DeclRefExpr, CXXThisExpr, extra roots
  std::vector<const MemberExpr *> Members;
  std::vector<const CallExpr *> Calls;
  std::vector<const LambdaExpr *> Lambdas;

  /// Field accesses in unevaluated operands (sizeof, alignof, decltype,
  /// __typeof__, noexcept, non-polymorphic typeid): they name a field's type,
  /// never its value, so they are neither uses of the element nor foreign
  /// accesses; the view only has to declare those fields.
  std::vector<const MemberExpr *> UnevaluatedMembers;

  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E,
                                        DataRecursionQueue * = nullptr) {
    return unevaluated([&] { return Base::TraverseUnaryExprOrTypeTraitExpr(E); });
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *E,
                               DataRecursionQueue * = nullptr) {
    return unevaluated([&] { return Base::TraverseCXXNoexceptExpr(E); });
  }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *E, DataRecursionQueue * = nullptr) {
    if (E->isPotentiallyEvaluated())
      return Base::TraverseCXXTypeidExpr(E);
    return unevaluated([&] { return Base::TraverseCXXTypeidExpr(E); });
  }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc TL SOAVIEW_TRAVERSE_TYPE_PARAM) {
    return unevaluated([&] {
      return Base::TraverseDecltypeTypeLoc(TL SOAVIEW_TRAVERSE_TYPE_ARG);
    });
  }
  bool TraverseTypeOfExprTypeLoc(TypeOfExprTypeLoc TL SOAVIEW_TRAVERSE_TYPE_PARAM) {
    return unevaluated([&] {
      return Base::TraverseTypeOfExprTypeLoc(TL SOAVIEW_TRAVERSE_TYPE_ARG);
    });
  }
  bool TraverseDecltypeType(DecltypeType *T SOAVIEW_TRAVERSE_TYPE_PARAM) {
    return unevaluated([&] {
      return Base::TraverseDecltypeType(T SOAVIEW_TRAVERSE_TYPE_ARG);
    });
  }
  bool TraverseTypeOfExprType(TypeOfExprType *T SOAVIEW_TRAVERSE_TYPE_PARAM) {
    return unevaluated([&] {
      return Base::TraverseTypeOfExprType(T SOAVIEW_TRAVERSE_TYPE_ARG);
    });
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (isa<VarDecl>(E->getDecl()) && !Unevaluated)
      Roots.push_back(E);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *E) {
    if (!Unevaluated)
      Roots.push_back(E);
    return true;
  }
  bool VisitExpr(Expr *E) {
    if (ExtraRoots.count(E) && !Unevaluated)
      Roots.push_back(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    (Unevaluated ? UnevaluatedMembers : Members).push_back(E);
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    if (Unevaluated)
      return true;
    Calls.push_back(E);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
      if (OC->getOperator() == OO_Equal)
        Wholes.push_back(E);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (Unevaluated)
      return true;
    if (E->getConstructor()->isCopyOrMoveConstructor())
      Wholes.push_back(E);
    Ctors.push_back(E);
    return true;
  }
  std::vector<const CXXConstructExpr *> Ctors;
  std::vector<const Expr *> Wholes; // element copies / assignments

private:
  using Base = RecursiveASTVisitor<Collector>;
  template <class F> bool unevaluated(F Fn) {
    ++Unevaluated;
    bool R = Fn();
    --Unevaluated;
    return R;
  }
  unsigned Unevaluated = 0;
};

class Analyzer {
public:
  Analyzer(ASTContext &Ctx, DiagStore &Diags, NestPlan &Nest)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Diags), Nest(Nest) {}

  bool run();

private:
  struct Work {
    const FunctionDecl *FD;
    Env E;
  };

  void analyse(const Stmt *Body, Env &E);
  /// The state of element()'s walk up from one use of the element.
  struct ElementWalk {
    const Expr *Cur; ///< the expression that is (a pointer to) the element
    Kind K;
    Binding B;
    bool RootIsThis;
  };
  void element(const Expr *Root, Kind K, Binding B, Env &E, ParentMap &PM);
  bool step(const Stmt *P, ElementWalk &W, Env &E, ParentMap &PM);
  bool stepCast(const ImplicitCastExpr *IC, ElementWalk &W);
  bool stepUnary(const UnaryOperator *U, ElementWalk &W);
  bool stepField(const MemberExpr *ME, const FieldDecl *FD, ElementWalk &W,
                 ParentMap &PM);
  bool stepMethod(const MemberExpr *ME, const CXXMethodDecl *MD,
                  ElementWalk &W, ParentMap &PM);
  bool stepDecl(const DeclStmt *DS, ElementWalk &W, Env &E);
  bool stepBinary(const BinaryOperator *BO, ElementWalk &W);
  bool stepOther(const Stmt *P, ElementWalk &W, const Env &E, ParentMap &PM);
  void leaf(const Expr *LE, const Binding &B, bool Whole, ParentMap &PM);
  bool evalElement(const Expr *E, const Env &En, Binding &B, Kind &K);
  void checkAliasing();
  void checkUnions();
  void unevaluatedField(const MemberExpr *ME, const Env &E);
  void bindLambdaParams(const class Collector &C, Env &E);
  std::pair<bool, bool> classifyUse(const Expr *LE, ParentMap &PM,
                                    const CallExpr **RefCall = nullptr);
  std::pair<bool, bool> classifyArgument(const CallExpr *CE, const Expr *Arg,
                                         const CallExpr **RefCall);
  bool call(const CallExpr *C, const Expr *Arg, Kind K, const Binding &B,
            Env &E, const Expr *&Result, Kind &ResultKind);
  bool specialCallee(const CallExpr *C, const Expr *Arg, unsigned ArgIdx,
                     Kind K, const Binding &B, const Expr *&Result,
                     Kind &ResultKind, bool &Done);
  bool elementParam(const CallExpr *C, const Expr *Arg, unsigned ParamIdx,
                    const Binding &B);
  void bindArguments(const CallExpr *C, const FunctionDecl *Def, unsigned Shift,
                     unsigned ParamIdx, const Binding &B, const Env &E, Env &CE,
                     std::vector<int> &ParamViews);
  bool cloneKind(const CallExpr *C, const FunctionDecl *Def,
                 const std::vector<int> &ParamViews, bool &NeedsClone);
  void method(const CXXMethodDecl *MD, const Binding &B, SourceLocation Use);
  bool checkField(const FieldDecl *FD, SourceLocation Use);
  bool visible(const FunctionDecl *FD, SourceLocation Use, StringRef What);
  void enqueue(const FunctionDecl *FD, Env E, const std::string &Key);
  bool isRecordOf(const RecordDecl *RD, int V) const;
  bool isElementRecord(const RecordDecl *RD) const;
  ViewModel &view(const Binding &B) { return Nest.Loops[B.View].View; }
  void checkForeign();

  /// False when the address of the field accessed by LE (or a reference
  /// to it) may be kept beyond the iteration.
  bool addressStaysLocal(const Expr *LE, ParentMap &PM);
  /// Reports why the nest cannot be converted (once), with the note saying
  /// what to write instead and the loop it concerns.
  void refuse(SourceLocation L, const Msg &Error, SourceLocation NoteL = {},
              std::optional<Msg> Note = std::nullopt) {
    if (Failed)
      return;
    Failed = true;
    StoredDiag &D = Diags.report(L, Error);
    if (Note)
      Diags.note(D, NoteL.isValid() ? NoteL : L, *Note);
    Diags.note(D, Nest.Loops[CurView].Form.Loop->getBeginLoc(),
               diag::note_in_annotated_loop);
  }

  ASTContext &Ctx;
  SourceManager &SM;
  DiagStore &Diags;
  NestPlan &Nest;
  int CurView = 0; ///< the view being followed, for "in the loop" notes
  bool Failed = false;

  llvm::DenseSet<const Expr *> Handled;      // member exprs of the view
  llvm::DenseSet<const CallExpr *> BoundCalls; // calls given an element
  struct Foreign {
    SourceLocation Loc;
    const FieldDecl *FD; ///< null: the whole object
    bool Write;
    const RecordDecl *Record;
  };
  llvm::DenseMap<const Expr *, int> ExtraRootViews;
  std::set<const ParmVarDecl *> LambdaParams;
  llvm::DenseSet<const Expr *> BoundWholes;
  std::vector<Foreign> Foreigns;
  std::set<std::string> Seen;
  std::deque<Work> Queue;
  std::map<std::pair<const FunctionDecl *, std::vector<int>>, size_t>
      CalleeIndex;
};

std::string keyOf(const FunctionDecl *FD, const Env &E);

} // namespace detail
} // namespace soaview

#endif
