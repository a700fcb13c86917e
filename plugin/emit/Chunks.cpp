//===- Chunks.cpp - generated declarations at namespace scope -------------===//
#include "emit/Chunks.h"

#include "emit/CodeWriter.h"

#include "clang/AST/DeclBase.h"
#include "clang/AST/DeclCXX.h"

#include <algorithm>

using namespace clang;

namespace soaview {

const DeclContext *namespaceOf(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  while (DC && !DC->isFileContext())
    DC = DC->getParent();
  return DC;
}

std::vector<std::string> openers(const DeclContext *DC) {
  std::vector<std::string> Found;
  for (; DC && !isa<TranslationUnitDecl>(DC); DC = DC->getLexicalParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      std::string S = NS->isInline() ? "inline namespace " : "namespace ";
      if (!NS->isAnonymousNamespace())
        S += NS->getName().str() + " ";
      Found.push_back(S + "{");
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC)) {
      if (LS->hasBraces())
        Found.push_back(LS->getLanguage() == LinkageSpecLanguageIDs::C
                            ? "extern \"C\" {"
                            : "extern \"C++\" {");
    }
  }
  std::reverse(Found.begin(), Found.end());
  return Found;
}

Scope scopeOf(const DeclContext *DC) { return {DC, openers(DC)}; }

void Chunks::add(const Scope &Where, std::string Text) {
  if (!Items.empty() && Items.back().first.Key == Where.Key) {
    Items.back().second += Text;
    return;
  }
  Items.push_back({Where, std::move(Text)});
}

void Chunks::append(const Chunks &Other) {
  for (auto &[Where, Text] : Other.Items)
    add(Where, Text);
}

/// `ns1 { ns2 { ` and `} } `: a scope opened or closed on one line.
static std::string opening(const std::vector<std::string> &Openers) {
  std::string S;
  for (const std::string &O : Openers)
    S += O + " ";
  return S;
}
static std::string closing(size_t Levels) {
  std::string S;
  for (size_t I = 0; I < Levels; ++I)
    S += "} ";
  return S;
}

std::string Chunks::render(const std::vector<std::string> &Here) const {
  if (Items.empty())
    return "";
  CodeWriter W;
  W.raw(closing(Here.size()));
  if (!Here.empty())
    W.raw("// soaview: leave the namespace to emit views\n");
  for (auto &[Where, Text] : Items) {
    W.raw(opening(Where.Openers));
    if (!Where.Openers.empty())
      W.raw("\n");
    W.raw(Text);
    W.raw(closing(Where.Openers.size()));
    if (!Where.Openers.empty())
      W.raw("\n");
  }
  W.raw(opening(Here));
  return W.take();
}

} // namespace soaview
