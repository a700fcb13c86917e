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
#include "CudaChecks.h"
#include "Emit.h"
#include "LoopForms.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <set>

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

/// The loop statements around S in its function, innermost first.
std::vector<const Stmt *> enclosingLoops(ASTContext &Ctx, const Stmt *S) {
  std::vector<const Stmt *> R;
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P || isa<LambdaExpr>(P))
      break;
    if (isa<ForStmt>(P) || isa<CXXForRangeStmt>(P) || isa<WhileStmt>(P) ||
        isa<DoStmt>(P))
      R.push_back(P);
    Parents = Ctx.getParents(*P);
  }
  return R;
}

/// Hoisting builds the view before an enclosing loop: everything the view is
/// built from must exist there and stay unchanged while that loop runs.
bool checkHoist(ASTContext &Ctx, const LoopPlan &P, DiagStore &Diags) {
  SourceManager &SM = Ctx.getSourceManager();
  const LoopForm &F = P.Form;
  std::vector<const Expr *> Inputs;
  if (F.Kind == LoopFormKind::Range)
    Inputs.push_back(F.RangeInit);
  else
    Inputs = {F.Lo, F.Hi};
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
  for (const ValueDecl *V : Vars) {
    const auto *VD = cast<VarDecl>(V);
    if (VD->isLocalVarDecl() &&
        !SM.isBeforeInTranslationUnit(VD->getLocation(),
                                      P.HoistTo->getBeginLoc())) {
      StoredDiag &D = Diags.error(
          P.Annotation->get(AttrKind::Hoist)->Range.getBegin(),
          "cannot hoist the conversion: the loop's elements depend on '" +
              VD->getName().str() + "', declared inside the loop it would "
              "move out of");
      Diags.note(D, VD->getLocation(), "declared here");
      Diags.note(D, P.HoistTo->getBeginLoc(),
                 "the view would be built before this loop");
      return false;
    }
  }
  if (const Expr *W = findWrite(P.HoistTo, Vars)) {
    StoredDiag &D = Diags.error(
        W->getExprLoc(),
        "cannot hoist the conversion: what the hoisted view is built from "
        "may change inside the loop it moves out of");
    Diags.note(D, P.Annotation->get(AttrKind::Hoist)->Range.getBegin(),
               "hoisting requested here");
    Diags.note(D, P.HoistTo->getBeginLoc(),
               "the view would be built once, before this loop");
    return false;
  }
  return true;
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

/// What an offloaded loop may not do: its iterations run in parallel on a
/// device, so they must not leave the loop early, write variables outside
/// it, or compare element addresses; nests and hoisting stay on the host.
bool checkOffload(ASTContext &Ctx, const NestPlan &Nest, const LoopPlan &P,
                  DiagStore &Diags) {
  SourceManager &SM = Ctx.getSourceManager();
  const AttrUse *A = P.Annotation->get(AttrKind::Offload);
  auto Refuse = [&](SourceLocation L, const std::string &Msg,
                    const std::string &Note) {
    StoredDiag &D = Diags.error(L, "cannot offload loop: " + Msg);
    Diags.note(D, A->Range.getBegin(), Note);
    return false;
  };
  // What any loop running on the device (offloaded, or inner in an
  // offloaded nest) may not be: comparing addresses, or an index loop whose
  // index outlives it.
  auto DeviceForm = [&](const LoopPlan &L) {
    if (!L.Identities.empty())
      return Refuse(L.Identities.front()->getExprLoc(),
                    "it compares element addresses",
                    "the device copies do not keep the elements' addresses");
    if (L.Form.Kind == LoopFormKind::Index &&
        !isa<DeclStmt>(cast<ForStmt>(L.Form.Loop)->getInit()))
      return Refuse(L.Annotation->ForLoc,
                    "its index is declared outside the loop",
                    "declare the index in the loop: 'for (int i = lo; ...)'");
    return true;
  };
  // A nest offloads as a whole from its outer loop: the inner loop's view
  // must be built outside the offloaded loop (hoisted), so that it can be
  // copied to the device before the target region starts.
  if (Nest.Loops.size() > 2 || (Nest.Loops.size() == 2 && &P != &Nest.Loops[0]))
    return Refuse(P.Annotation->ForLoc,
                  "it is nested with other converted loops",
                  "a nest is offloaded from its outer loop, with one inner "
                  "converted loop hoisted out of it");
  if (Nest.Loops.size() == 2) {
    const LoopPlan &In = Nest.Loops[1];
    if (!In.HoistTo || !(In.HoistTo == P.Form.Loop ||
                         !SM.isBeforeInTranslationUnit(P.Form.Loop->getBeginLoc(),
                                                       In.HoistTo->getBeginLoc())))
      return Refuse(In.Annotation->ForLoc,
                    "its view would be built inside the offloaded loop",
                    "hoist the inner view out of the offloaded loop: "
                    "soa_conversion_hoist(1)");
    for (auto &[Path, Acc] : In.View.Leaves)
      if (Acc.Written)
        return Refuse(Acc.FirstUse.isValid() ? Acc.FirstUse : In.Annotation->ForLoc,
                      "the inner loop writes field '" + dotted(Path) + "'",
                      "the inner loop's elements are shared by all offloaded "
                      "iterations, which run in parallel; write through the "
                      "outer loop's element (local-active order)");
    if (!DeviceForm(In))
      return false;
  }
  if (P.HoistTo)
    return Refuse(P.Annotation->ForLoc, "it is also hoisted",
                  "offloaded views are built where the loop is");
  if (!DeviceForm(P))
    return false;
  // Early exits and writes to variables declared outside the loop.
  LoopJumps J = findLoopJumps(P.Form.Body);
  if (!J.Exits.empty())
    return Refuse(J.Exits.front()->getBeginLoc(), "it can leave the loop early",
                  "offloaded iterations run in parallel; 'break', 'return' "
                  "and 'goto' out of the loop have no meaning there");
  llvm::SmallPtrSet<const ValueDecl *, 8> Outer;
  struct Refs : RecursiveASTVisitor<Refs> {
    llvm::SmallPtrSetImpl<const ValueDecl *> &S;
    const Stmt *Loop;
    const SourceManager &SM;
    Refs(llvm::SmallPtrSetImpl<const ValueDecl *> &S, const Stmt *L,
         const SourceManager &SM)
        : S(S), Loop(L), SM(SM) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *V = dyn_cast<VarDecl>(E->getDecl());
      if (V && SM.isBeforeInTranslationUnit(V->getLocation(),
                                            Loop->getBeginLoc()))
        S.insert(V);
      return true;
    }
  } R(Outer, P.Form.Loop, SM);
  R.TraverseStmt(const_cast<Stmt *>(P.Form.Body));
  if (P.Form.Kind == LoopFormKind::Index && P.Form.Target)
    Outer.erase(cast<ValueDecl>(P.Form.Target));
  if (const Expr *W = findWrite(P.Form.Body, Outer))
    return Refuse(W->getExprLoc(),
                  "it writes a variable declared outside the loop",
                  "on the device each iteration has its own copy; write "
                  "results into fields of the elements instead");
  return true;
}

/// The profitability rule (docs/semantics.md): a single host loop, neither
/// nested with other converted loops nor hoisted nor offloaded, visits each
/// element once. Its gather and scatter touch the same cache lines the
/// original loop touches, so conversion cannot pay (measured 0.3-0.7x on
/// the SPH kicks and drift); such a loop stays as written, with a remark.
/// soa_conversion("always") or -fplugin-arg-soaview-convert=always convert it.
/// Decided from the attributes alone, before the loop is analysed: a loop
/// left as written never fails the build over what converting it needs.
bool conversionPays(const LoopAnnotation &A, size_t NestSize, bool CanOffload) {
  return NestSize != 1 || A.has(AttrKind::Hoist) ||
         (A.has(AttrKind::Offload) && CanOffload) || A.always();
}

void remarkUnconverted(ASTContext &Ctx, const LoopAnnotation &A,
                       DiagStore &Diags) {
  StoredDiag &D = Diags.report(
      Severity::Remark, A.ForLoc,
      "loop left unconverted: it visits each element once, so gathering "
      "and scattering its fields would cost more than the view saves");
  const AttrUse *C = A.get(AttrKind::Convert);
  SourceLocation At = C ? C->Range.getBegin() : A.ForLoc;
  Diags.note(D, At, "write soa_conversion(\"always\") to convert it anyway");
  if (C) {
    SourceLocation End = Lexer::getLocForEndOfToken(
        C->Range.getEnd(), 0, Ctx.getSourceManager(), Ctx.getLangOpts());
    Diags.fixIt(D, CharSourceRange::getCharRange(End, End), "(\"always\")");
  }
}

/// Remembers where the nest's loops are, so that errors in their generated
/// code can be blamed on them (GeneratedCodeGuard); with the test hook,
/// breaks that code.
void recordConverted(ASTContext &Ctx, const NestPlan &Nest, const Options &Opts,
                     Emitter &Em, PassResult &R) {
  SourceManager &SM = Ctx.getSourceManager();
  for (const LoopPlan &P : Nest.Loops) {
    SourceLocation Begin = P.Form.Loop->getBeginLoc();
    if (Opts.BreakGeneratedCode)
      if (EditBuffer *B = Em.bufferFor(Begin))
        B->insert(SM.getFileOffset(SM.getFileLoc(Begin)),
                  "soaview_broken_generated_code();");
    R.Converted.push_back(
        {R.Diags->locate(Begin), R.Diags->locate(P.Form.Loop->getEndLoc()),
         "loop over '" + qualifiedName(Ctx, P.View.ElementType) + "'"});
  }
}

} // namespace

bool profitabilityFromEnvironment() {
  const char *E = std::getenv("SOAVIEW_CONVERT");
  return !(E && StringRef(E) == "always");
}

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

  Emitter Em(Ctx, Diags, Opts.Offload == Backend::Cuda);
  // Offloaded loops become OpenMP target regions when the compile has
  // -fopenmp, CUDA kernels with the CUDA backend; otherwise they stay on
  // the host.
  const bool CanOffload =
      Ctx.getLangOpts().OpenMP || Opts.Offload == Backend::Cuda;
  bool AnyRewrite = false, AnyOffload = false;
  // Loops in source order for deterministic output.
  std::vector<const LoopAnnotation *> Order;
  for (auto &KV : C.Loops)
    Order.push_back(&KV.second);
  llvm::sort(Order, [&](const LoopAnnotation *A, const LoopAnnotation *B) {
    return SM.isBeforeInTranslationUnit(A->ForLoc, B->ForLoc);
  });

  // Group annotated loop instances into nests: per function (instantiation),
  // every annotated loop belongs to the outermost annotated loop around it.
  struct Instance {
    const LoopAnnotation *A;
    FoundLoop L;
  };
  std::vector<Instance> All;
  for (const LoopAnnotation *A : Order) {
    auto It = LF.Loops.find(A->ForLoc.getRawEncoding());
    if (It == LF.Loops.end())
      continue; // uninstantiated template: nothing to convert
    for (const FoundLoop &FL : It->second)
      All.push_back({A, FL});
  }
  auto Contains = [&](const Stmt *Outer, const Stmt *Inner) {
    return Outer != Inner &&
           !SM.isBeforeInTranslationUnit(Inner->getBeginLoc(),
                                         Outer->getBeginLoc()) &&
           !SM.isBeforeInTranslationUnit(Outer->getEndLoc(),
                                         Inner->getEndLoc());
  };
  std::vector<std::vector<const Instance *>> Nests;
  for (const Instance &I : All) {
    bool Nested = false;
    for (const Instance &O : All)
      if (O.L.Fn == I.L.Fn && Contains(O.L.Loop, I.L.Loop))
        Nested = true;
    if (Nested)
      continue;
    std::vector<const Instance *> N{&I};
    for (const Instance &J : All)
      if (J.L.Fn == I.L.Fn && Contains(I.L.Loop, J.L.Loop))
        N.push_back(&J);
    Nests.push_back(std::move(N));
  }

  std::set<unsigned> LoopsEmitted; // loop text is shared by instantiations
  DiagStore &Reported = Diags;
  for (auto &N : Nests) {
    NestPlan Nest;
    bool OK = true;
    // A loop the profitability rule leaves as written is still analysed,
    // for the report, but what the analysis finds is not reported.
    const bool Pays = !Opts.Profitability ||
                      conversionPays(*N.front()->A, N.size(), CanOffload);
    DiagStore Unreported(SM);
    DiagStore &Diags = Pays ? Reported : Unreported;
    if (!Pays && Opts.Remarks && !Ctx.getLangOpts().OpenMPIsTargetDevice)
      remarkUnconverted(Ctx, *N.front()->A, Reported);
    for (const Instance *I : N) {
      const LoopAnnotation *A = I->A;
      const FoundLoop &FL = I->L;
      LoopPlan P;
      P.Annotation = A;
      if (const AttrUse *H = A->get(AttrKind::Hoist)) {
        std::vector<const Stmt *> Outer = enclosingLoops(Ctx, FL.Loop);
        if ((uint64_t)H->Hoist > Outer.size()) {
          StoredDiag &D = Diags.error(
              H->Range.getBegin(),
              "cannot hoist the conversion " + std::to_string(H->Hoist) +
                  " loop level(s) out: the loop has " +
                  std::to_string(Outer.size()) + " enclosing loop(s)");
          Diags.note(D, A->ForLoc, "hoisting moves the gather and scatter "
                                   "out of enclosing loops");
          OK = false;
          break;
        }
        P.HoistTo = Outer[H->Hoist - 1];
        P.HoistLevels = (unsigned)H->Hoist;
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
          recogniseLoop(Ctx, FL.Loop, FL.Fn, *A, C, Diags);
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
      P.Form = *F;
      if (P.HoistTo && !checkHoist(Ctx, P, Diags)) {
        OK = false;
        break;
      }
      P.InTemplate = FL.Fn->getTemplateInstantiationPattern() != nullptr ||
                     FL.Fn->isTemplateInstantiation();
      Nest.InTemplate = P.InTemplate;
      Nest.Loops.push_back(std::move(P));
    }
    if (!OK)
      continue;
    for (const LoopPlan &P : Nest.Loops)
      if (P.HoistTo && (!Nest.Root || Contains(P.HoistTo, Nest.Root)) &&
          Contains(P.HoistTo, Nest.Loops[0].Form.Loop))
        Nest.Root = P.HoistTo;
    if (!analyseNest(Ctx, Diags, Nest))
      continue;
    bool OffloadOK = true;
    for (LoopPlan &P : Nest.Loops)
      if (P.Annotation->has(AttrKind::Offload) && CanOffload) {
        P.Offload = true;
        OffloadOK &= checkOffload(Ctx, Nest, P, Diags);
      }
    if (!OffloadOK)
      continue;
    if (Nest.Loops.size() == 2 && Nest.Loops[0].Offload) {
      Nest.Loops[1].DeviceInner = true;
      Nest.Loops[0].DeviceInners.push_back(&Nest.Loops[1]);
    }
    if (Opts.Offload == Backend::Cuda)
      for (const LoopPlan &P : Nest.Loops)
        if (P.Offload)
          OffloadOK &= checkCudaOffload(Ctx, Nest, P, Diags);
    if (!OffloadOK)
      continue;
    bool Empty = false;
    for (LoopPlan &P : Nest.Loops)
      if (P.View.Leaves.empty() && !Ctx.getLangOpts().OpenMPIsTargetDevice) {
        StoredDiag &D = Diags.report(
            Severity::Warning, P.Annotation->ForLoc,
            "loop uses no field of '" + qualifiedName(Ctx, P.View.ElementType) +
                "'; it is left unconverted");
        Diags.note(D, P.Annotation->ForLoc,
                   "there is nothing to gather into a view");
        Empty = true;
      }
    if (Empty)
      continue; // a nest converts whole or not at all
    auto AddRows = [&](bool Converted) {
      for (LoopPlan &P : Nest.Loops) {
        ReportRow Row;
        PresumedLoc PL = SM.getPresumedLoc(P.Annotation->ForLoc);
        Row.Where = llvm::sys::path::filename(PL.getFilename()).str() + ":" +
                    std::to_string(PL.getLine()) + ":" +
                    std::to_string(PL.getColumn());
        Row.Element = qualifiedName(Ctx, P.View.ElementType);
        for (auto &[Path, A] : P.View.Leaves) {
          uint64_t B =
              Ctx.getTypeSizeInChars(Path.back()->getType()).getQuantity();
          if (A.Read)
            Row.InFields++, Row.InBytes += B;
          if (A.Written)
            Row.OutFields++, Row.OutBytes += B;
        }
        Row.Hoist = P.HoistLevels;
        Row.Offload = P.Annotation->has(AttrKind::Offload);
        Row.Converted = Converted;
        R.Report.push_back(Row);
      }
    };
    if (!Pays) {
      AddRows(false);
      continue;
    }
    if (!Em.emitNest(Nest))
      continue;
    for (LoopPlan &P : Nest.Loops)
      if (LoopsEmitted.insert(P.Annotation->ForLoc.getRawEncoding()).second)
        Em.emitLoop(P);
    AnyRewrite = true;
    for (LoopPlan &P : Nest.Loops)
      AnyOffload |= P.Offload;
    recordConverted(Ctx, Nest, Opts, Em, R);
    AddRows(true);
    // With offloading the driver runs this plugin in the host and in the
    // device compile: remarks come from the host compile only.
    if (Opts.Remarks && !Ctx.getLangOpts().OpenMPIsTargetDevice)
      for (LoopPlan &P : Nest.Loops) {
        std::string Msg = Em.remark(P);
        if (P.HoistLevels)
          Msg += "; built " + std::to_string(P.HoistLevels) +
                 " loop level(s) out";
        if (P.Offload)
          Msg += Opts.Offload == Backend::Cuda ? "; offloaded (CUDA kernel)"
                                               : "; offloaded (OpenMP target)";
        else if (P.Annotation->has(AttrKind::Offload))
          Msg += "; not offloaded: compile with -fopenmp to offload, the loop "
                 "runs on the host";
        Diags.report(Severity::Remark, P.Annotation->ForLoc, Msg);
      }
  }

  for (auto &[Name, B] : Em.buffers())
    if (B->conflicts())
      Diags.error(SM.getLocForStartOfFile(SM.getMainFileID()),
                  "internal error: overlapping edits in " + Name +
                      "; please report this with the source file");
  if (Diags.hasErrors() || !AnyRewrite)
    return;
  // The runtime header goes first in the main file.
  FileID Main = SM.getMainFileID();
  EditBuffer *MB = Em.bufferFor(SM.getLocForStartOfFile(Main));
  if (MB)
    MB->insert(0, std::string("#include <soaview/soaview.h> // added by soaview\n") +
                      (!AnyOffload ? ""
                       : Opts.Offload == Backend::Cuda
                           ? "#include <soaview/cuda.h> // added by soaview\n"
                           : "#include <soaview/omp.h> // added by soaview\n"));
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
