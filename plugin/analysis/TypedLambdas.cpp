//===- TypedLambdas.cpp - lambdas taking the element by its own type ------===//
//
// A lambda written outside the loop whose parameters take the element by
// its own type (`[&](P &a, P &b) {...}` handed to a pair algorithm) cannot
// take a clone: a closure class has no other members. Those parameters
// become `auto` where the lambda is written (`auto &a`, `const auto *q`), so
// that it instantiates with the view like a generic lambda, and with the
// element itself wherever the program calls it with one. That is the lambda
// as written exactly when every call of it, anywhere in the translation
// unit and in any instantiation, passes each such parameter an object (or a
// pointer to one) of exactly the type it takes, and when nothing depends on
// the parameter's declared type. Refused, located, otherwise: a call that
// converts its argument (a derived class, a user conversion, a null
// pointer), a conversion of the closure to a function pointer or a name of
// its call operator outside a call, a default argument, a parameter that is
// not an lvalue reference or a pointer naming the element's class, a body
// that asks for the parameter's type (decltype(p), sizeof(p)).
// Tests: test/Sema/typed-lambdas.cpp, test/Rewrite/typed-lambdas.cpp,
// test/Exec/constructs/typed-lambdas.cpp.
//===----------------------------------------------------------------------===//
#include "analysis/Analyzer.h"

#include "support/AstHelpers.h"

using namespace clang;

namespace soaview {
namespace analysis {

namespace {
/// The call operator as written: the pattern that an instantiation (of a
/// generic lambda, or of a lambda in a template) comes from.
const FunctionDecl *writtenOperator(const FunctionDecl *FD) {
  return writtenFunction(FD);
}

/// Every call, in the whole translation unit and its instantiations, of a
/// call operator written as Op, and the first place where the closure
/// converts to a function pointer or the operator is named outside a call.
class LambdaUses : public RecursiveASTVisitor<LambdaUses> {
public:
  explicit LambdaUses(const FunctionDecl *Op) : Op(Op) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee(); FD && isOp(FD)) {
      Calls.push_back(C);
      Callees.insert(C->getCallee()->IgnoreParenImpCasts());
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    named(E, E->getDecl(), E->getLocation());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    // (a conversion function's implicit call has no member location)
    named(E, E->getMemberDecl(), E->getBeginLoc());
    return true;
  }

  std::vector<const CallExpr *> Calls;
  SourceLocation Escape;

private:
  bool isOp(const FunctionDecl *FD) const { return writtenOperator(FD) == Op; }
  void named(const Expr *E, const ValueDecl *D, SourceLocation L) {
    const auto *MD = dyn_cast<CXXMethodDecl>(D);
    if (!MD || Escape.isValid() || Callees.count(E))
      return;
    const CXXRecordDecl *Closure = MD->getParent();
    bool Conversion = isa<CXXConversionDecl>(MD) && Closure->isLambda() &&
                      Closure->getLambdaCallOperator() &&
                      isOp(Closure->getLambdaCallOperator());
    if (Conversion || isOp(MD))
      Escape = L;
  }

  const FunctionDecl *Op;
  llvm::DenseSet<const Expr *> Callees;
};

/// Whether Arg reaches a parameter of type Param as it is: the same class
/// (or a pointer to it), at most qualified, no conversion on the way.
bool passedAsItIs(const ASTContext &Ctx, const Expr *Arg, QualType Param) {
  const Expr *E = Arg;
  for (;;) {
    E = E->IgnoreParens();
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(E);
        IC && (IC->getCastKind() == CK_NoOp ||
               IC->getCastKind() == CK_LValueToRValue)) {
      E = IC->getSubExpr();
      continue;
    }
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr();
      continue;
    }
    break;
  }
  if (isa<ImplicitCastExpr>(E)) // to a base, through a user conversion, ...
    return false;
  QualType Got = E->getType(), Want = Param.getNonReferenceType();
  if (Param->isPointerType()) {
    if (!Got->isPointerType())
      return false;
    Got = Got->getPointeeType();
    Want = Param->getPointeeType();
  }
  return Ctx.hasSameUnqualifiedType(Got, Want);
}

/// Why a parameter cannot become `auto`: the note and where it points.
struct Why {
  SourceLocation Loc;
  Msg Note;
};

/// A parameter that may become `auto`, as written: an lvalue reference or a
/// pointer to the element's class, not volatile, named as written, without
/// a default argument.
std::optional<Why> writtenProblem(const ParmVarDecl *Written,
                                  const RecordDecl *Element,
                                  const ASTContext &Ctx) {
  QualType T = Written->getType();
  QualType Pointee =
      T->isPointerType() ? T->getPointeeType() : T.getNonReferenceType();
  TypeSourceInfo *TSI = Written->getTypeSourceInfo();
  bool Shape = (T->isLValueReferenceType() || T->isPointerType()) &&
               !Pointee.isVolatileQualified() && TSI &&
               elementTypeRange(TSI->getTypeLoc(), Element,
                                Ctx.getSourceManager(), Ctx.getLangOpts())
                   .isValid();
  if (!Shape)
    return Why{Written->getLocation(), Msg(diag::note_lambda_typed_param)};
  if (Written->hasDefaultArg())
    return Why{Written->getLocation(), Msg(diag::note_lambda_typed_default)};
  return std::nullopt;
}

/// The body of Op names its parameter PD only where it is evaluated or as
/// the object of a member access (`decltype(p.x)` is the field's type in
/// both builds), never for its type (`decltype(p)`, `sizeof(*q)`).
std::optional<Why> askedProblem(const FunctionDecl *Op, const ParmVarDecl *PD) {
  Collector Body;
  Body.TraverseStmt(Op->getBody());
  llvm::SmallPtrSet<const Expr *, 8> Objects;
  for (const MemberExpr *ME : Body.UnevaluatedMembers)
    Objects.insert(ME->getBase()->IgnoreParenImpCasts());
  for (const DeclRefExpr *R : Body.UnevaluatedNames)
    if (R->getDecl() == PD && !Objects.count(R))
      return Why{R->getLocation(), Msg(diag::note_lambda_typed_unevaluated)};
  return std::nullopt;
}

/// Every call of the lambda passes parameter Index as it is, and the
/// closure never becomes a function pointer.
std::optional<Why> callProblem(const ASTContext &Ctx, const LambdaUses &Uses,
                               unsigned Index) {
  if (Uses.Escape.isValid())
    return Why{Uses.Escape, Msg(diag::note_lambda_typed_escape)};
  for (const CallExpr *Call : Uses.Calls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
    if (Index + Shift >= Call->getNumArgs() || Index >= Callee->getNumParams())
      continue; // unreached: no default argument, no pack
    const Expr *Arg = Call->getArg(Index + Shift);
    QualType Param = Callee->getParamDecl(Index)->getType();
    if (!passedAsItIs(Ctx, Arg, Param))
      return Why{Arg->getExprLoc(),
                 Msg(diag::note_lambda_typed_call,
                     {qualifiedName(Ctx, Arg->IgnoreParenImpCasts()->getType()),
                      qualifiedName(Ctx, Param)})};
  }
  return std::nullopt;
}
} // namespace

/// The parameters Params of the lambda MD (called by C with views) take the
/// element by its own type: whether they can become `auto` where the lambda
/// is written; false after refusing.
bool CallFollower::typedLambda(const CallExpr *C, const CXXMethodDecl *MD,
                               const std::vector<int> &ParamViews,
                               const std::vector<unsigned> &Params) {
  const FunctionDecl *Written = writtenOperator(MD);
  LambdaUses Uses(Written);
  Uses.TraverseDecl(State.Ctx.getTranslationUnitDecl());
  for (unsigned I : Params) {
    std::optional<Why> Problem;
    if (Written->getNumParams() != MD->getNumParams()) // a pack
      Problem = Why{Written->getLocation(), Msg(diag::note_lambda_typed_param)};
    else
      Problem = writtenProblem(Written->getParamDecl(I),
                               State.Out.Loops[ParamViews[I]].View.Element,
                               State.Ctx);
    if (!Problem)
      Problem = askedProblem(MD, MD->getParamDecl(I));
    if (!Problem)
      Problem = callProblem(State.Ctx, Uses, I);
    if (Problem) {
      State.refuse(C->getExprLoc(),
                   {diag::err_use_lambda_elsewhere,
                    {qualifiedName(State.Ctx, MD->getParamDecl(I)->getType())}},
                   Problem->Loc, Problem->Note);
      return false;
    }
  }
  return true;
}

} // namespace analysis
} // namespace soaview
