//===- Names.cpp - the names generated code declares ----------------------===//
#include "emit/Names.h"

#include "emit/Chunks.h"
#include "forms/Forms.h"
#include "frontend/Annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace clang;

namespace soaview {

std::string sanitize(StringRef S) {
  std::string R;
  for (char C : S)
    R += isAlphanumeric(C) ? C : '_';
  while (R.find("__") != std::string::npos)
    R.replace(R.find("__"), 2, "_");
  if (!R.empty() && R.back() == '_')
    R.pop_back();
  return R;
}

FreshNames::FreshNames(std::vector<std::string> Names)
    : Taken(std::move(Names)) {
  std::sort(Taken.begin(), Taken.end());
}

std::string FreshNames::fresh(std::string Base) const {
  auto IsTaken = [&](const std::string &Prefix) {
    auto It = std::lower_bound(Taken.begin(), Taken.end(), Prefix);
    return It != Taken.end() && StringRef(*It).starts_with(Prefix);
  };
  while (IsTaken(Base))
    Base += 'x';
  return Base;
}

std::string GeneratedNames::fresh(std::string Base) const {
  if (!Fresh) {
    std::vector<std::string> Taken;
    for (const auto &Entry : Ctx.Idents) // keys live as long as the context
      Taken.push_back(Entry.getKey().str());
    Fresh.emplace(std::move(Taken));
  }
  return Fresh->fresh(std::move(Base));
}

std::string GeneratedNames::openGen() {
  return "inline namespace " + std::string(GenNamespace) + " { ";
}

std::string GeneratedNames::siteTag(SourceLocation At) const {
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc PL = SM.getPresumedLoc(At);
  std::string Position =
      std::to_string(PL.getLine()) + "_" + std::to_string(PL.getColumn());
  if (SM.isInMainFile(SM.getExpansionLoc(At)))
    return Position;
  return sanitize(llvm::sys::path::filename(PL.getFilename())) + "_" + Position;
}

std::string GeneratedNames::prefix(SourceLocation At) const {
  PresumedLoc PL = Ctx.getSourceManager().getPresumedLoc(At);
  return fresh("sv" + std::to_string(PL.getLine()) + "_" +
               std::to_string(PL.getColumn())) +
         "_";
}

std::string GeneratedNames::prefix(const RecognisedLoop &L) const {
  return prefix(L.Annotation->ForLoc);
}

std::string GeneratedNames::elementTag(const RecognisedLoop &L) const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy Short = Policy;
  Short.FullyQualifiedName = false;
  Short.SuppressScope = true;
  L.Form.ElementType.print(OS, Short);
  std::string T = sanitize(OS.str());
  return T.substr(std::min(T.find_first_not_of('_'), T.size()));
}

std::string GeneratedNames::view(const RecognisedLoop &L) const {
  std::string Use = L.Use ? "_u" + std::to_string(L.Use) : "";
  return fresh(elementTag(L) + "_" + siteTag(L.Annotation->ForLoc) + Use);
}

std::string GeneratedNames::qualifiedView(const RecognisedLoop &L) const {
  std::string NS;
  for (const DeclContext *DC = namespaceOf(L.Form.Element);
       DC && !isa<TranslationUnitDecl>(DC); DC = DC->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(DC))
      if (!N->isAnonymousNamespace() && !N->isInline())
        NS = N->getName().str() + "::" + NS;
  return "::" + NS + GenNamespace + "::" + view(L);
}

std::string GeneratedNames::selector(const RecognisedLoop &L) const {
  return fresh("soaview_select_" + siteTag(L.Annotation->ForLoc));
}

std::string GeneratedNames::memberFunction() const {
  return fresh("soaview_member");
}

std::string GeneratedNames::cloneParameter(unsigned K) const {
  return fresh("soaview_E") + std::to_string(K);
}

std::string GeneratedNames::keep(SourceLocation At) const {
  return fresh("soaview_keep_" + siteTag(At));
}

std::string GeneratedNames::deviceTable(const VarDecl *V) const {
  return fresh("soaview_device_" + V->getNameAsString());
}

std::string GeneratedNames::qualifiedDeviceTable(const VarDecl *V) const {
  std::string Scope = "::";
  // Named namespaces from the outside in; an unnamed one's members are
  // found through the namespace around it.
  std::vector<std::string> Names;
  for (const DeclContext *DC = V->getDeclContext(); !DC->isTranslationUnit();
       DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && !NS->isAnonymousNamespace())
      Names.push_back(NS->getNameAsString());
  for (auto It = Names.rbegin(); It != Names.rend(); ++It)
    Scope += *It + "::";
  return Scope + deviceTable(V);
}

} // namespace soaview
