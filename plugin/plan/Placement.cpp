//===- Placement.cpp - where the generated code of a loop goes ------------===//
#include "plan/Placement.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

#include <functional>

using namespace clang;

namespace soaview {

const Decl *viewInsertionDecl(ASTContext &Ctx, const RecognisedLoop &P) {
  SourceManager &SM = Ctx.getSourceManager();
  const Decl *D = P.Form.Function;
  if (P.InTemplate) {
    // Views of instantiations go before the declaration that instantiates.
    SourceLocation POI =
        SM.getFileLoc(P.Form.Function->getPointOfInstantiation());
    const Decl *Best = nullptr;
    std::function<void(const DeclContext *)> Walk = [&](const DeclContext *DC) {
      for (const Decl *C : DC->decls()) {
        if (C->isImplicit())
          continue;
        SourceRange R = C->getSourceRange();
        if (R.isInvalid())
          continue;
        SourceLocation B = SM.getFileLoc(R.getBegin()),
                       End = SM.getFileLoc(R.getEnd());
        if (SM.isBeforeInTranslationUnit(POI, B) ||
            SM.isBeforeInTranslationUnit(End, POI))
          continue;
        if (isa<NamespaceDecl>(C) || isa<LinkageSpecDecl>(C)) {
          Walk(cast<DeclContext>(C));
          if (!Best)
            Best = C;
          return;
        }
        Best = C;
        return;
      }
    };
    Walk(Ctx.getTranslationUnitDecl());
    if (Best && !isa<NamespaceDecl>(Best) && !isa<LinkageSpecDecl>(Best))
      return Best;
    if (const FunctionDecl *Pat =
            P.Form.Function->getTemplateInstantiationPattern())
      D = Pat;
  }
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate())
      D = FTD;
  while (true) {
    const DeclContext *DC = D->getLexicalDeclContext();
    if (isa<TranslationUnitDecl>(DC) || isa<NamespaceDecl>(DC) ||
        isa<LinkageSpecDecl>(DC))
      return D;
    D = cast<Decl>(DC);
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
      if (const ClassTemplateDecl *CTD = RD->getDescribedClassTemplate())
        D = CTD;
  }
}

} // namespace soaview
