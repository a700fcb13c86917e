//===- Placement.cpp - where the generated code of a loop goes ------------===//
#include "plan/Placement.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

#include <functional>

using namespace clang;

namespace soaview {

/// The point of instantiation that places the views of a loop in Fn:
/// Fn's, or where Fn has none (a member function with a deduced return
/// type, instantiated when its type was needed; a lambda's call operator)
/// that of the outermost function or class template specialization Fn is
/// nested in.
static SourceLocation placingPoint(const FunctionDecl *Fn) {
  SourceLocation Point = Fn->getPointOfInstantiation();
  if (Point.isValid())
    return Point;
  for (const DeclContext *DC = Fn->getParent(); DC; DC = DC->getParent()) {
    SourceLocation Outer;
    if (const auto *FD = dyn_cast<FunctionDecl>(DC))
      Outer = FD->getPointOfInstantiation();
    else if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(DC))
      Outer = CTS->getPointOfInstantiation();
    if (Outer.isValid())
      Point = Outer;
  }
  return Point;
}

const Decl *viewInsertionDecl(ASTContext &Ctx, const RecognisedLoop &P) {
  SourceManager &SM = Ctx.getSourceManager();
  const Decl *D = P.Form.Function;
  if (P.InTemplate) {
    // Views of instantiations go before the declaration that instantiates.
    SourceLocation POI = SM.getFileLoc(placingPoint(P.Form.Function));
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
