//===- Driver.cpp - first pass: annotated loops to text edits -------------===//
//
// Runs after the first (syntax-only) parse: finds each annotated loop and its
// template instantiations, recognises, analyses and emits them. Any error
// cancels every rewrite of the translation unit: the real compile then parses
// the user's source unchanged and reports soaview's errors.
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "Analysis.h"
#include "Annotations.h"
#include "Emit.h"
#include "LoopForms.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

namespace {

struct FoundLoop {
  const Stmt *Loop;
  const FunctionDecl *Fn;
};

class LoopFinder : public RecursiveASTVisitor<LoopFinder> {
public:
  explicit LoopFinder(const AnnotationCollector &C) : C(C) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) { return within(FD, [&] {
      return RecursiveASTVisitor::TraverseFunctionDecl(FD); }); }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) { return within(FD, [&] {
      return RecursiveASTVisitor::TraverseCXXMethodDecl(FD); }); }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *FD) { return within(FD, [&] {
      return RecursiveASTVisitor::TraverseCXXConstructorDecl(FD); }); }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *FD) { return within(FD, [&] {
      return RecursiveASTVisitor::TraverseCXXDestructorDecl(FD); }); }

  bool VisitForStmt(ForStmt *S) { return found(S, S->getForLoc()); }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    return found(S, S->getForLoc());
  }
  bool VisitWhileStmt(WhileStmt *S) { return found(S, S->getBeginLoc()); }
  bool VisitDoStmt(DoStmt *S) { return found(S, S->getBeginLoc()); }

  std::map<unsigned, std::vector<FoundLoop>> Loops; // by ForLoc encoding

private:
  template <class F> bool within(FunctionDecl *FD, F Fn) {
    Stack.push_back(FD);
    bool R = Fn();
    Stack.pop_back();
    return R;
  }
  bool found(Stmt *S, SourceLocation L) {
    if (Stack.empty() || !C.Loops.count(L))
      return true;
    const FunctionDecl *FD = Stack.back();
    if (FD->isDependentContext())
      return true; // patterns: their instantiations are visited instead
    Loops[L.getRawEncoding()].push_back({S, FD});
    return true;
  }
  const AnnotationCollector &C;
  std::vector<const FunctionDecl *> Stack;
};

unsigned enclosingLoops(ASTContext &Ctx, const Stmt *S) {
  unsigned N = 0;
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      break;
    if (isa<ForStmt>(P) || isa<CXXForRangeStmt>(P) || isa<WhileStmt>(P) ||
        isa<DoStmt>(P))
      ++N;
    Parents = Ctx.getParents(*P);
  }
  return N;
}

bool insideOpenMP(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  for (int Depth = 0; !Parents.empty() && Depth < 3; ++Depth) {
    if (Parents[0].get<CapturedDecl>())
      return true; // the body of an OpenMP construct
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (isa<OMPExecutableDirective>(P) || isa<CapturedStmt>(P))
      return true;
    if (!isa<AttributedStmt>(P))
      return false;
    Parents = Ctx.getParents(*P);
  }
  return false;
}

/// The variable a range expression names, if any (`ps`, `cell.parts`).
const ValueDecl *rangeRoot(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return ME->getMemberDecl();
    E = ME->getBase()->IgnoreParenImpCasts();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl();
  return nullptr;
}

} // namespace

void runFirstPass(ASTContext &Ctx, const AnnotationCollector &C,
                  const Options &Opts, PassResult &R) {
  SourceManager &SM = Ctx.getSourceManager();
  R.Diags = std::make_unique<DiagStore>(SM);
  DiagStore &Diags = *R.Diags;
  for (const AttrProblem &P : C.Problems) {
    StoredDiag &D = Diags.error(P.Loc, P.Message);
    if (!P.Note.empty())
      Diags.note(D, P.Loc, P.Note);
  }

  LoopFinder LF(C);
  LF.TraverseDecl(Ctx.getTranslationUnitDecl());

  Emitter Em(Ctx, Diags);
  bool AnyRewrite = false;
  // Loops in source order for deterministic output.
  std::vector<const LoopAnnotation *> Order;
  for (auto &KV : C.Loops)
    Order.push_back(&KV.second);
  llvm::sort(Order, [&](const LoopAnnotation *A, const LoopAnnotation *B) {
    return SM.isBeforeInTranslationUnit(A->ForLoc, B->ForLoc);
  });

  for (const LoopAnnotation *A : Order) {
    auto It = LF.Loops.find(A->ForLoc.getRawEncoding());
    if (It == LF.Loops.end())
      continue; // uninstantiated template: nothing to convert
    std::vector<LoopPlan> Plans;
    bool OK = true;
    for (const FoundLoop &FL : It->second) {
      if (const AttrUse *H = A->get(AttrKind::Hoist)) {
        unsigned Depth = enclosingLoops(Ctx, FL.Loop);
        if ((uint64_t)H->Hoist > Depth) {
          StoredDiag &D = Diags.error(
              H->Range.getBegin(),
              "cannot hoist the conversion " + std::to_string(H->Hoist) +
                  " loop level(s) out: the loop has " + std::to_string(Depth) +
                  " enclosing loop(s)");
          Diags.note(D, A->ForLoc, "hoisting moves the gather and scatter "
                                   "out of enclosing loops");
          OK = false;
          break;
        }
      }
      if (insideOpenMP(Ctx, FL.Loop)) {
        StoredDiag &D = Diags.error(
            A->ForLoc, "cannot convert loop: it is associated with an OpenMP "
                       "directive");
        Diags.note(D, A->ForLoc,
                   "put the OpenMP directive on a loop around it, or use "
                   "soa_conversion_offload_compute");
        OK = false;
        break;
      }
      std::optional<LoopForm> F =
          recogniseLoop(Ctx, FL.Loop, FL.Fn, *A, Diags);
      if (!F) {
        OK = false;
        break;
      }
      if (F->Kind == LoopFormKind::Range)
        if (const ValueDecl *Root = rangeRoot(F->RangeInit)) {
          llvm::SmallPtrSet<const ValueDecl *, 2> Vars;
          Vars.insert(Root);
          if (const Expr *W = findWrite(F->Body, Vars)) {
            StoredDiag &D = Diags.error(
                W->getExprLoc(),
                "cannot convert loop: the iterated container '" +
                    Root->getName().str() + "' may be modified in the loop");
            Diags.note(D, A->ForLoc,
                       "the view is built from the container's elements "
                       "before the loop starts");
            OK = false;
            break;
          }
        }
      LoopPlan P;
      P.Annotation = A;
      P.Form = *F;
      P.InTemplate = FL.Fn->getTemplateInstantiationPattern() != nullptr ||
                     FL.Fn->isTemplateInstantiation();
      if (!analyseLoop(Ctx, Diags, P)) {
        OK = false;
        break;
      }
      Plans.push_back(std::move(P));
    }
    if (!OK || Plans.empty())
      continue;
    bool Empty = true;
    for (LoopPlan &P : Plans)
      Empty &= P.View.Leaves.empty();
    if (Empty) {
      StoredDiag &D = Diags.report(
          Severity::Warning, A->ForLoc,
          "loop uses no field of '" +
              Plans[0].View.Element->getNameAsString() +
              "'; it is left unconverted");
      Diags.note(D, A->ForLoc, "there is nothing to gather into a view");
      continue;
    }
    bool Emitted = true;
    for (LoopPlan &P : Plans)
      Emitted &= Em.emitView(P);
    Emitted = Emitted && Em.emitLoop(Plans[0]);
    if (!Emitted)
      continue;
    AnyRewrite = true;
    if (Opts.Remarks)
      for (LoopPlan &P : Plans) {
        std::string Msg = Em.remark(P);
        if (A->has(AttrKind::Hoist))
          Msg += "; hoisting is not applied yet, the view is built on every "
                 "entry";
        if (A->has(AttrKind::Offload))
          Msg += "; offload is not available in this build, the loop runs on "
                 "the host";
        Diags.report(Severity::Remark, A->ForLoc, Msg);
      }
  }

  if (Diags.hasErrors() || !AnyRewrite)
    return;
  // The runtime header goes first in the main file.
  FileID Main = SM.getMainFileID();
  EditBuffer *MB = Em.bufferFor(SM.getLocForStartOfFile(Main));
  if (MB)
    MB->insert(0, "#include <soaview/soaview.h> // added by soaview\n");
  R.Buffers = std::move(Em.buffers());
  R.MainFile = SM.getFileEntryRefForID(Main)->getName().str();
}

unsigned PassResult::mapOffset(StringRef File, unsigned Offset) const {
  auto It = Buffers.find(File.str());
  if (It == Buffers.end())
    return Offset;
  return It->second->mapOffset(Offset);
}

} // namespace soaview
