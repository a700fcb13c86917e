//===- Keys.cpp - how a loop and its selector spell an instance key ------===//
#include "emit/Keys.h"

#include "emit/CodeWriter.h"
#include "emit/RuntimeNames.h"
#include "emit/TypeNames.h"
#include "plan/InstanceKey.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace soaview {

namespace {

std::string valueKey(const std::string &Value) {
  return fill("${ValueKey}<${Value}>",
              {{"ValueKey", rt::ValueKey}, {"Value", Value}});
}

std::string keyOf(const std::vector<std::string> &Args) {
  return fill("${InstanceKey}<${Args}>", {{"InstanceKey", rt::InstanceKey},
                                          {"Args", llvm::join(Args, ", ")}});
}

/// One argument at namespace scope (a pack gives one per element).
void spell(const TypeSpeller &Types, const TemplateArgument &A,
           std::vector<std::string> &Out) {
  switch (A.getKind()) {
  case TemplateArgument::Pack:
    for (const TemplateArgument &E : A.pack_elements())
      spell(Types, E, Out);
    return;
  case TemplateArgument::Type:
    Out.push_back(Types.name(A.getAsType()));
    return;
  case TemplateArgument::Integral:
    Out.push_back(valueKey("(" + Types.name(A.getIntegralType()) + ")" +
                           llvm::toString(A.getAsIntegral(), 10)));
    return;
  default: // refused by the driver (unspellableKey)
    Out.push_back("void");
  }
}

} // namespace

std::string instanceKeyPattern(const FunctionDecl *Fn) {
  std::vector<std::string> Args;
  for (const KeyPart &P : instanceKeyParts(Fn)) {
    std::string Name = P.Param->getNameAsString();
    const auto *NT = dyn_cast<NonTypeTemplateParmDecl>(P.Param);
    std::string Arg = NT ? valueKey(Name) : Name;
    const auto *TD = dyn_cast<TemplateTypeParmDecl>(P.Param);
    if ((TD && TD->isParameterPack()) || (NT && NT->isParameterPack()))
      Arg += "...";
    Args.push_back(Arg);
  }
  return keyOf(Args);
}

std::string instanceKeyType(const TypeSpeller &Types, const FunctionDecl *Fn) {
  std::vector<std::string> Args;
  for (const KeyPart &P : instanceKeyParts(Fn))
    spell(Types, P.Arg, Args);
  return keyOf(Args);
}

} // namespace soaview
