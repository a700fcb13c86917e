//===- Clones.cpp - callees rewritten for the views -----------------------===//
#include "emit/Clones.h"

#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace clang;

namespace soaview {

/// The edits that turn a callee into its clone for the nest's views: the
/// element parameters' and aliases' types, identity wraps, routed
/// allocation, the device mark.
bool CloneEmitter::cloneEdits(const NestPlan &Nest, const CalleeUse &U,
                              CharSourceRange Range, bool Device,
                              TextEdits &Edits) {
  const SourceManager &SM = Emit.SM;
  const FunctionDecl *FD = U.FD;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    if (U.ParamViews[I] < 0)
      continue;
    const LoopPlan &Viewed = Nest.Loops[U.ParamViews[I]];
    TypeSourceInfo *TSI = FD->getParamDecl(I)->getTypeSourceInfo();
    CharSourceRange Type =
        TSI ? recordTypeRange(TSI->getTypeLoc(), Viewed.View.Element, SM,
                              Emit.Lang)
            : CharSourceRange();
    if (Type.isInvalid()) { // checkPlacement refuses this first
      Emit.Diags.report(FD->getParamDecl(I)->getLocation(),
                        {diag::err_internal_emit, {"no type to rewrite"}});
      return false;
    }
    Edits.push_back({Type, Emit.Names.qualifiedView(Viewed)});
  }
  for (const LoopPlan &Viewed : Nest.Loops)
    for (const VarDecl *V : Viewed.View.Aliases)
      if (Emit.Source.inside(V->getLocation(), Range))
        if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
          CharSourceRange Type = recordTypeRange(
              TSI->getTypeLoc(), Viewed.View.Element, SM, Emit.Lang);
          if (Type.isValid())
            Edits.push_back({Type, Emit.Names.qualifiedView(Viewed)});
        }
  Emit.copyEdits(Nest, Range, Edits);
  std::string Mark = Emit.Target.deviceMark(Device); // runs in the kernel
  if (!Mark.empty())
    Edits.push_back({CharSourceRange::getCharRange(FD->getInnerLocStart(),
                                                   FD->getInnerLocStart()),
                     Mark});
  return true;
}

/// The clone of a callee for the nest's views: its declaration goes into
/// Decls; its definition (with #line back to the original) goes with the
/// views when the callee is defined before them (Early), else after the
/// callee (Late).
bool CloneEmitter::clone(const NestPlan &Nest, const CalleeUse &U,
                         SourceLocation At, Chunks &Decls, Chunks &Early,
                         LateDefinitions &Late) {
  const SourceManager &SM = Emit.SM;
  const FunctionDecl *FD = U.FD;
  CharSourceRange Range = Emit.Source.declRange(FD);
  bool Device = Nest.offloads();
  TextEdits Edits;
  if (!cloneEdits(Nest, U, Range, Device, Edits))
    return false;
  // Inside the reopened namespace the declaration is unqualified
  // (`void phys::kick(...)` becomes `void kick(...)`).
  TextEdits Unqualified = Edits;
  Emit.Source.unqualify(FD, Unqualified);
  SourceLocation BodyBegin = FD->getBody()->getBeginLoc();
  CharSourceRange Signature =
      CharSourceRange::getCharRange(FD->getSourceRange().getBegin(), BodyBegin);
  TextEdits SignatureEdits;
  for (auto &E : Unqualified)
    if (SM.isBeforeInTranslationUnit(E.first.getBegin(), BodyBegin))
      SignatureEdits.push_back(E);
  std::string Declaration = Emit.Source.withEdits(Signature, SignatureEdits);
  while (!Declaration.empty() && isWhitespace(Declaration.back()))
    Declaration.pop_back();
  Decls.add(namespaceOf(FD), "// soaview: clone of '" +
                                 FD->getQualifiedNameAsString() +
                                 "' for the view\n" + Declaration + ";\n");
  lookup(Nest, U, Decls);
  std::string Open = Emit.Target.declareTargetBegin(Device) +
                     Emit.Source.lineDirective(FD->getSourceRange().getBegin());
  std::string Close = "\n" + Emit.Target.declareTargetEnd(Device);
  SourceLocation End = SM.getFileLoc(Range.getEnd());
  if (SM.isBeforeInTranslationUnit(End, At))
    Early.add(namespaceOf(FD),
              Open + Emit.Source.withEdits(Range, Unqualified) + Close);
  else
    Late.push_back(
        {End, "\n" + Open + Emit.Source.withEdits(Range, Edits) + Close});
  return true;
}

/// A call in a template is resolved at instantiation by argument-dependent
/// lookup on the view, which searches the element's namespace: make the
/// clone visible there when it lives elsewhere.
void CloneEmitter::lookup(const NestPlan &Nest, const CalleeUse &U,
                          Chunks &Decls) {
  const FunctionDecl *FD = U.FD;
  if (!Nest.InTemplate || !FD->getDeclName().isIdentifier() ||
      FD->isInAnonymousNamespace())
    return;
  std::string Using = "using ::" + FD->getQualifiedNameAsString() + ";";
  std::set<const DeclContext *> Done;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    if (U.ParamViews[I] < 0)
      continue;
    const DeclContext *ElementNS =
        namespaceOf(Nest.Loops[U.ParamViews[I]].View.Element);
    if (Emit.Target.plainViewsNamespace() && Done.insert(ElementNS).second)
      Decls.add(ElementNS, GeneratedNames::openGen() + "namespace { " + Using +
                               " } } // soaview: found by the view's lookup\n");
    else if (!Emit.Target.plainViewsNamespace() &&
             ElementNS != namespaceOf(FD) &&
             !isa<TranslationUnitDecl>(ElementNS) &&
             Done.insert(ElementNS).second)
      Decls.add(ElementNS, Using + " // soaview: found by the view's lookup\n");
  }
}

/// A template whose one type parameter receives two views gets a clone
/// with one more type parameter (declared once per text).
void CloneEmitter::splitClone(const NestPlan &Nest, const CalleeUse &U,
                              Chunks &Decls) {
  std::string Clone = splitTemplateClone(Nest, U);
  if (Clone.empty() || !DoneSplitClones.insert(Clone).second)
    return;
  Decls.add(namespaceOf(U.FD->getTemplateInstantiationPattern()),
            "// soaview: clone of '" + U.FD->getQualifiedNameAsString() +
                "' taking the views of two loops\n" + Clone + "\n");
}

namespace {
/// The spellings of template type parameters in a type as written.
struct TypeParmUses : RecursiveASTVisitor<TypeParmUses> {
  std::vector<TemplateTypeParmTypeLoc> Found;
  bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc TL) {
    Found.push_back(TL);
    return true;
  }
};
} // namespace

/// The text of the clone of a function template one of whose type
/// parameters receives the views of two loops: one more type parameter per
/// further view (empty when no parameter is shared).
std::string CloneEmitter::splitTemplateClone(const NestPlan &Nest,
                                             const CalleeUse &U) {
  const FunctionDecl *Pattern = U.FD->getTemplateInstantiationPattern();
  const FunctionTemplateDecl *Template =
      Pattern ? Pattern->getDescribedFunctionTemplate() : nullptr;
  if (!Template || Template->getLocation().isMacroID())
    return "";
  // Which views each type parameter receives, in parameter order.
  std::map<const TemplateTypeParmDecl *, std::vector<int>> Views;
  std::vector<std::pair<TemplateTypeParmTypeLoc, int>> Uses;
  for (unsigned I = 0; I < Pattern->getNumParams() && I < U.ParamViews.size();
       ++I) {
    TypeSourceInfo *TSI = Pattern->getParamDecl(I)->getTypeSourceInfo();
    if (U.ParamViews[I] < 0 || !TSI)
      continue;
    TypeParmUses Found;
    Found.TraverseTypeLoc(TSI->getTypeLoc());
    for (TemplateTypeParmTypeLoc TL : Found.Found) {
      std::vector<int> &Received = Views[TL.getDecl()];
      if (llvm::find(Received, U.ParamViews[I]) == Received.end())
        Received.push_back(U.ParamViews[I]);
      Uses.push_back({TL, U.ParamViews[I]});
    }
  }
  auto Renamed = [](const TemplateTypeParmDecl *Param, int View) {
    return Param->getName().str() + "_sv" + std::to_string(View);
  };
  std::string Added;
  for (auto &[Param, Received] : Views)
    for (size_t K = 1; K < Received.size(); ++K)
      Added += ", class " + Renamed(Param, Received[K]);
  if (Added.empty())
    return "";
  TextEdits Edits;
  for (auto &[TL, View] : Uses) {
    const TemplateTypeParmDecl *Param = TL.getDecl();
    if (Views[Param].front() == View)
      continue;
    SourceLocation L = Emit.SM.getFileLoc(TL.getNameLoc());
    Edits.push_back({CharSourceRange::getCharRange(
                         L, L.getLocWithOffset(Param->getName().size())),
                     Renamed(Param, View)});
  }
  SourceLocation RAngle = Template->getTemplateParameters()->getRAngleLoc();
  Edits.push_back({CharSourceRange::getCharRange(RAngle, RAngle), Added});
  // Placed in the template's own namespace: an out-of-line definition
  // (`void ns::kernel(...)`) becomes an unqualified new overload there.
  Emit.Source.unqualify(Pattern, Edits);
  CharSourceRange Range = Emit.Source.declRange(Template);
  Emit.copyEdits(Nest, Range, Edits);
  return Emit.Source.lineDirective(Range.getBegin()) +
         Emit.Source.withEdits(Range, Edits);
}

bool CloneEmitter::emit(const NestPlan &Nest, SourceLocation At, Chunks &Decls,
                        Chunks &Early, LateDefinitions &Late) {
  for (const CalleeUse &U : Nest.Callees) {
    if (!U.NeedsClone) {
      splitClone(Nest, U, Decls);
      continue;
    }
    if (!clone(Nest, U, At, Decls, Early, Late))
      return false;
  }
  return true;
}

bool CloneEmitter::markDeviceFunctions(const NestPlan &Nest) {
  for (const FunctionDecl *FD : Nest.deviceFunctions()) {
    if (!MarkedDevice.insert(FD->getCanonicalDecl()).second)
      continue;
    for (const FunctionDecl *Decl : FD->redecls()) {
      SourceLocation L = Emit.SM.getFileLoc(Decl->getInnerLocStart());
      EditBuffer *Buffer = Emit.Files.bufferFor(L);
      if (!Buffer)
        return false;
      Buffer->insert(Emit.SM.getFileOffset(L), Emit.Target.deviceMark(true));
    }
  }
  return true;
}

} // namespace soaview
