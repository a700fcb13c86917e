//===- Action.cpp - the two-pass frontend actions -------------------------===//
#include "driver/Action.h"

#include "frontend/Annotations.h"
#include "frontend/ImplicitAnnotations.h"
#include "support/Compat.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"

using namespace clang;

namespace soaview {

namespace {
class FirstPassConsumer : public ASTConsumer {
public:
  FirstPassConsumer(CompilerInstance &CI, const Options &Opts,
                    PassResult &Result)
      : CI(CI), Opts(Opts), Result(Result) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred()) {
      // The user's code does not compile: leave it to the real compile.
      Result.ParseFailed = true;
      Result.Diags = std::make_unique<DiagStore>(Ctx.getSourceManager());
      return;
    }
    inferIndexTargets(Ctx, Collector);
    if (Opts.AnnotateAll)
      annotateEveryLoop(Ctx, Collector);
    runFirstPass(Ctx, Collector, Opts, Result);
    if (Opts.ReportInFirstPass && Result.Diags)
      Result.Diags->replay(
          CI.getDiagnostics(),
          [&](const StoredLoc &L) {
            return resolve(L, CI.getSourceManager(), CI.getFileManager(),
                           [](StringRef, unsigned Offset) { return Offset; });
          },
          {}, Opts.SilencedWarnings);
  }

private:
  CompilerInstance &CI;
  AnnotationCollector Collector; // active from creation, i.e. before parsing
  const Options &Opts;
  PassResult &Result;
};
} // namespace

std::unique_ptr<ASTConsumer>
FirstPassAction::CreateASTConsumer(CompilerInstance &CI, StringRef) {
  return std::make_unique<FirstPassConsumer>(CI, Opts, Result);
}

void runNestedFirstPass(CompilerInstance &CI, const Options &Opts,
                        PassResult &Result) {
  auto Inv = std::make_shared<CompilerInvocation>(CI.getInvocation());
  FrontendOptions &FO = Inv->getFrontendOpts();
  FO.ProgramAction = frontend::ParseSyntaxOnly;
  FO.AddPluginActions.clear();
  FO.Plugins.clear();
  FO.ActionName.clear();
  FO.OutputFile.clear();
  FO.ShowStats = false;
  Inv->getDependencyOutputOpts() = DependencyOutputOptions();
  Inv->getDiagnosticOpts().VerifyDiagnostics = false;
  Inv->getDiagnosticOpts().Warnings.push_back("no-everything");

  auto Nested =
      compat::nestedInstance(std::move(Inv), CI.getPCHContainerOperations());
  Nested->createDiagnostics(new IgnoringDiagConsumer(), /*ShouldOwn=*/true);
  Nested->setFileManager(&CI.getFileManager());
  FirstPassAction Action(Opts, Result);
  if (!Nested->ExecuteAction(Action) && !Result.Diags)
    Result.ParseFailed = true;
}

std::string dumpText(const PassResult &Result) {
  std::string Out;
  auto Add = [&](const std::string &Name, EditBuffer &B) {
    Out += "// ===== soaview: rewritten " + Name + " =====\n";
    Out += B.result();
    if (!Out.empty() && Out.back() != '\n')
      Out += '\n';
  };
  auto It = Result.Buffers.find(Result.MainFile);
  if (It != Result.Buffers.end())
    Add(It->first, *It->second);
  for (auto &[Name, B] : Result.Buffers)
    if (Name != Result.MainFile)
      Add(Name, *B);
  if (Out.empty())
    Out = "// ===== soaview: nothing rewritten =====\n";
  return Out;
}

} // namespace soaview
