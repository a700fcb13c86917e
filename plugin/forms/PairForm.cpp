//===- PairForm.cpp - symmetric pair loops: an inner loop on the outer's view
//-===//
//
// The inner loop's range must be the outer loop's range from the element
// after the outer one: the same target (index loops) or the same end
// (iterator loops), the same bound, a start `i + c` (c >= 1; `!=` and
// iterators: c = 1). Both loops then index one frame: slot `j - lo` (index
// loops) or the outer slot plus c (iterator loops). Over pointers (iterator
// loops only: an index target holds structs) an object the range holds
// twice would have two live views: such a nest runs as written when the
// frame finds a repeat (RecognisedLoop::RepeatsRunAsWritten). The copy
// evaluates the outer loop's begin and end again, which the iterator form
// requires to be free of side effects.
//===----------------------------------------------------------------------===//
#include "forms/PairForm.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <optional>

using namespace clang;

namespace soaview {

namespace {

/// The variable that steps a loop: its index or its iterator.
const VarDecl *steppedVar(const LoopForm &F) {
  if (F.Kind == LoopFormKind::Index)
    return F.IndexVar;
  return F.Kind == LoopFormKind::Iterator ? F.Iterator : nullptr;
}

/// Where a loop starts: `lo` of `i = lo`, or the iterator's initializer.
const Expr *startOf(const LoopForm &F) {
  return F.Kind == LoopFormKind::Index ? F.Lo : F.Begin;
}

/// E without implicit nodes and the copy of an iterator (`auto jt = ...`).
const Expr *unwrapped(const Expr *E) {
  E = E->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs())
    E = CE->getArg(0)->IgnoreImplicit();
  return strip(E);
}

std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// c of a start `v + c`, `c + v`, `std::next(v)`, `std::next(v, c)` (c an
/// integer constant), 0 of `v` itself; nullopt for any other start.
std::optional<int64_t> stepFrom(const Expr *Start, const VarDecl *V,
                                const ASTContext &Ctx) {
  const Expr *E = unwrapped(Start);
  if (refersTo(E, V))
    return 0;
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_Add)
    L = B->getLHS(), R = B->getRHS();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
      OC && OC->getOperator() == OO_Plus && OC->getNumArgs() == 2)
    L = OC->getArg(0), R = OC->getArg(1);
  if (const auto *C = dyn_cast<CallExpr>(E); C && !isa<CXXOperatorCallExpr>(C))
    if (const FunctionDecl *FD = C->getDirectCallee();
        FD && FD->isInStdNamespace() && FD->getIdentifier() &&
        FD->getName() == "next" && C->getNumArgs() >= 1) {
      if (!refersTo(unwrapped(C->getArg(0)), V))
        return std::nullopt;
      if (C->getNumArgs() == 1 || C->getArg(1)->isDefaultArgument())
        return 1;
      return constantOf(C->getArg(1), Ctx);
    }
  if (!L)
    return std::nullopt;
  if (!refersTo(unwrapped(L), V))
    std::swap(L, R);
  if (!refersTo(unwrapped(L), V))
    return std::nullopt;
  return constantOf(R, Ctx);
}

bool sameExpr(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID IA, IB;
  unwrapped(A)->Profile(IA, Ctx, /*Canonical=*/true);
  unwrapped(B)->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// The offset c of a subscript `v + c` or `v - c` (null for `v`), or
/// false when it is not one.
bool subscriptOffset(const Expr *Subscript, const VarDecl *V,
                     const BinaryOperator *&Offset) {
  const Expr *E = strip(Subscript);
  Offset = nullptr;
  if (refersTo(E, V))
    return true;
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub) ||
      !refersTo(B->getLHS(), V))
    return false;
  Offset = B;
  return true;
}

/// Both loops subscript the target with one offset: `ps[i]` and `ps[j]`,
/// `ps[i - 1]` and `ps[j - 1]`.
bool sameOffset(const LoopForm &Outer, const LoopForm &Inner,
                const ASTContext &Ctx) {
  const BinaryOperator *A, *B;
  if (!subscriptOffset(Outer.Subscript, Outer.IndexVar, A) ||
      !subscriptOffset(Inner.Subscript, Inner.IndexVar, B))
    return false;
  if (!A || !B)
    return !A && !B;
  return A->getOpcode() == B->getOpcode() &&
         sameExpr(A->getRHS(), B->getRHS(), Ctx);
}

/// Loops with these bounds against one end stop at one element: `<` and
/// `!=` (the outer range counts from lo <= hi, index_trips) or `<=` in both.
bool sameLast(IndexBound A, IndexBound B) {
  return (A == IndexBound::UpTo) == (B == IndexBound::UpTo);
}

class PairRecogniser {
public:
  PairRecogniser(ASTContext &Ctx, RecognisedNest &Nest, DiagStore &Diags)
      : Ctx(Ctx), Nest(Nest), Diags(Diags) {}

  bool run() {
    for (size_t K = 1; K < Nest.Loops.size(); ++K)
      for (size_t O = K; O-- > 0;) // the nearest loop around it first
        if (!pair(O, K))
          return false;
    return true;
  }

private:
  bool pair(size_t O, size_t K);
  bool sameTargetHoisted(const RecognisedLoop &Outer,
                         const RecognisedLoop &Inner);
  std::optional<std::string> whyNot(const RecognisedLoop &Outer,
                                    const RecognisedLoop &Inner,
                                    int64_t Step) const;
  std::string text(const Expr *E) const {
    return writtenText(Ctx, E->getSourceRange());
  }
  /// The condition of a loop's header, as written.
  std::string condition(const LoopForm &F) const {
    const auto *FS = dyn_cast<ForStmt>(F.Loop);
    return FS && FS->getCond() ? text(FS->getCond()) : "";
  }
  bool fail(const RecognisedLoop &Inner, SourceLocation At,
            const std::string &Why) {
    StoredDiag &D = Diags.report(At, {diag::err_pair_form, {Why}});
    Diags.note(D, Inner.Annotation->ForLoc, diag::note_pair_form);
    return false;
  }

  ASTContext &Ctx;
  RecognisedNest &Nest;
  DiagStore &Diags;
};

/// Loop K of the nest starts from loop O's element: a pair loop, checked.
bool PairRecogniser::pair(size_t O, size_t K) {
  RecognisedLoop &Inner = Nest.Loops[K];
  const RecognisedLoop &Outer = Nest.Loops[O];
  const VarDecl *V = steppedVar(Outer.Form);
  const Expr *Start = startOf(Inner.Form);
  if (!V || !Start || Inner.Form.Kind == LoopFormKind::Range ||
      !contains(Ctx.getSourceManager(), Outer.Form.Loop, Inner.Form.Loop))
    return true;
  if (!findVarUse(Start, [&](const VarDecl *D) { return D == V; }))
    return sameTargetHoisted(Outer, Inner);
  std::optional<int64_t> Step = stepFrom(Start, V, Ctx);
  if (Inner.Form.Kind == LoopFormKind::Index &&
      Outer.Form.Kind == LoopFormKind::Index &&
      Inner.Form.Target != Outer.Form.Target)
    return true; // another array, its own view
  if (!Step)
    return fail(Inner, Start->getBeginLoc(),
                "its start '" + text(Start) + "' is not '" +
                    V->getName().str() + " + c' with c a constant");
  if (std::optional<std::string> Why = whyNot(Outer, Inner, *Step))
    return fail(Inner, Start->getBeginLoc(), *Why);
  Inner.WalksViewOf = O;
  Inner.PairStart = (unsigned)*Step;
  Nest.Loops[O].RepeatsRunAsWritten |=
      Inner.Form.VarIsPointer || Outer.Form.VarIsPointer;
  return true;
}

/// What keeps Inner, which starts Step elements after Outer's element,
/// from walking Outer's view; nullopt when nothing does.
std::optional<std::string> PairRecogniser::whyNot(const RecognisedLoop &Outer,
                                                  const RecognisedLoop &Inner,
                                                  int64_t Step) const {
  const LoopForm &OF = Outer.Form, &IF = Inner.Form;
  std::string Name = steppedVar(OF)->getName().str();
  if (OF.Kind != IF.Kind)
    return std::string("it steps ") +
           (IF.Kind == LoopFormKind::Index ? "an index" : "an iterator") +
           " and the loop around it does not";
  if (Step < 1)
    return "it starts at '" + Name +
           (Step ? " - " + std::to_string(-Step) : "") +
           "', not after the element of the loop around it";
  bool Index = IF.Kind == LoopFormKind::Index;
  if (Step != 1 && (!Index || IF.Bound == IndexBound::Until))
    return "it starts " + std::to_string(Step) +
           " elements on: only the next element ('" + Name +
           (Index ? " + 1" : "' + 1 or 'std::next(" + Name + ")") +
           "') cannot pass the end";
  const Expr *OEnd = Index ? OF.Hi : OF.End, *IEnd = Index ? IF.Hi : IF.End;
  if (!OEnd || !IEnd || !sameExpr(OEnd, IEnd, Ctx) ||
      (Index && !sameLast(OF.Bound, IF.Bound)))
    return "it tests '" + condition(IF) + "', the loop around it '" +
           condition(OF) + "': both must stop at one element" +
           (Index ? " ('<' or '!=' against one end, or '<=' in both)"
                  : " (one end)");
  if (Index && !sameOffset(OF, IF, Ctx))
    return "it indexes '" + IF.TargetName +
           "' with another offset than the "
           "loop around it";
  if (IF.IndexList || OF.IndexList)
    return "its elements come through the list '" +
           (IF.IndexList ? IF.IndexList : OF.IndexList)
               ->getNameInfo()
               .getAsString() +
           "', and an element listed twice would have two views";
  if ((IF.VarIsPointer || OF.VarIsPointer) && Outer.HoistTo)
    return "its elements are pointers and the loop around it is hoisted: a "
           "range holding an object twice runs the nest as written, which "
           "a view built before the loops around it cannot (remove "
           "soa_conversion_hoist)";
  if (Outer.WalksViewOf)
    return "the loop around it walks the view of another loop";
  if (OF.BeginHasEffects && (IF.VarIsPointer || OF.VarIsPointer))
    return "the loop around it starts at '" +
           writtenText(Ctx, OF.Begin->getSourceRange()) +
           "', which may have side effects, and a range holding an object "
           "twice runs the nest as written, which would evaluate it again";
  return std::nullopt;
}

/// An inner index loop over the outer loop's target must gather its view
/// where the target is not the outer loop's view: before the outer loop.
bool PairRecogniser::sameTargetHoisted(const RecognisedLoop &Outer,
                                       const RecognisedLoop &Inner) {
  if (Inner.Form.Kind != LoopFormKind::Index ||
      Outer.Form.Kind != LoopFormKind::Index ||
      Inner.Form.Target != Outer.Form.Target)
    return true;
  const Stmt *At = Inner.HoistTo;
  if (At && (At == Outer.Form.Loop ||
             contains(Ctx.getSourceManager(), At, Outer.Form.Loop)))
    return true;
  std::string Instead =
      Inner.Form.IndexList // a pair through a list is refused
          ? "or leave it unannotated (it then reads the neighbours as written)"
          : "or start it after that loop's element ('" +
                Outer.Form.IndexVar->getName().str() + " + 1')";
  return fail(
      Inner, Inner.Form.Lo->getBeginLoc(),
      "it loops over '" + Inner.Form.TargetName +
          "', the target of the loop around it, from '" + text(Inner.Form.Lo) +
          "': hoist it out of that loop (soa_conversion_hoist) " + Instead);
}

} // namespace

bool recognisePairs(ASTContext &Ctx, RecognisedNest &Nest, DiagStore &Diags) {
  return PairRecogniser(Ctx, Nest, Diags).run();
}

} // namespace soaview
