//===- InstanceKey.cpp - the template arguments a loop's spec is chosen by
//-===//
#include "plan/InstanceKey.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace soaview {

namespace {

using Level =
    std::pair<const TemplateParameterList *, ArrayRef<TemplateArgument>>;

void addLevel(const Level &L, std::vector<KeyPart> &Parts) {
  for (unsigned I = 0; I < L.first->size() && I < L.second.size(); ++I)
    Parts.push_back({L.first->getParam(I), L.second[I]});
}

/// The parameters of the template a function instantiation comes from, as
/// its definition names them, with its arguments.
std::optional<Level> functionLevel(const FunctionDecl *FD) {
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Pattern || !Args || !Pattern->getDescribedFunctionTemplate())
    return std::nullopt;
  return Level{Pattern->getDescribedFunctionTemplate()->getTemplateParameters(),
               Args->asArray()};
}

/// The parameters of the class template (or partial specialization) an
/// instantiated class comes from, with its arguments.
std::optional<Level> classLevel(const ClassTemplateSpecializationDecl *S) {
  if (!isTemplateInstantiation(S->getSpecializationKind()))
    return std::nullopt;
  auto From = S->getSpecializedTemplateOrPartial();
  if (auto *P = From.dyn_cast<ClassTemplatePartialSpecializationDecl *>())
    return Level{P->getTemplateParameters(),
                 S->getTemplateInstantiationArgs().asArray()};
  return Level{cast<ClassTemplateDecl *>(From)->getTemplateParameters(),
               S->getTemplateArgs().asArray()};
}

/// A type an argument names that has no name at namespace scope.
struct HiddenType : RecursiveASTVisitor<HiddenType> {
  std::optional<UnspellableArgument> Found;
  const NamedDecl *Param = nullptr;

  bool VisitTagType(TagType *T) {
    const TagDecl *TD = T->getDecl();
    const auto *RD = dyn_cast<CXXRecordDecl>(TD);
    if (RD && RD->isLambda())
      Found = {Param, "the closure type of a lambda", TD->getLocation()};
    else if (TD->getParentFunctionOrMethod())
      Found = {Param, "the local class '" + TD->getNameAsString() + "'",
               TD->getLocation()};
    else if (!TD->getIdentifier() && !TD->getTypedefNameForAnonDecl())
      Found = {Param, "an unnamed class", TD->getLocation()};
    else if (TD->getAccess() == AS_private || TD->getAccess() == AS_protected)
      Found = {Param, "the private type '" + TD->getNameAsString() + "'",
               TD->getLocation()};
    if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(TD))
      for (const TemplateArgument &A : S->getTemplateArgs().asArray())
        if (!Found)
          TraverseTemplateArgument(A);
    return !Found;
  }
};

std::optional<UnspellableArgument> unspellable(const NamedDecl *Param,
                                               const TemplateArgument &A) {
  switch (A.getKind()) {
  case TemplateArgument::Pack:
    for (const TemplateArgument &E : A.pack_elements())
      if (auto U = unspellable(Param, E))
        return U;
    return std::nullopt;
  case TemplateArgument::Type: {
    HiddenType H;
    H.Param = Param;
    H.TraverseType(A.getAsType());
    return H.Found;
  }
  case TemplateArgument::Integral: {
    HiddenType H;
    H.Param = Param;
    H.TraverseType(A.getIntegralType());
    return H.Found;
  }
  default:
    return UnspellableArgument{
        Param, "a non-type argument other than an integer or enumerator",
        Param->getLocation()};
  }
}

} // namespace

std::vector<KeyPart> instanceKeyParts(const FunctionDecl *Fn) {
  std::vector<KeyPart> Parts;
  if (!Fn)
    return Parts;
  std::vector<Level> Classes; // innermost first
  for (const DeclContext *DC = Fn; DC; DC = DC->getParent()) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
      if (std::optional<Level> L = functionLevel(FD))
        addLevel(*L, Parts);
    } else if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(DC)) {
      if (std::optional<Level> L = classLevel(S))
        Classes.push_back(*L);
    }
  }
  // A member defined outside its class template names the class's
  // parameters in its own template heads, outermost first.
  const FunctionDecl *Pattern = Fn->getTemplateInstantiationPattern();
  unsigned Heads = Pattern ? Pattern->getNumTemplateParameterLists() : 0;
  if (Heads == Classes.size())
    for (unsigned I = 0; I < Heads; ++I)
      Classes[I].first = Pattern->getTemplateParameterList(Heads - 1 - I);
  for (const Level &L : Classes)
    addLevel(L, Parts);
  return Parts;
}

std::optional<UnspellableArgument>
unspellableKey(const std::vector<KeyPart> &Parts) {
  for (const KeyPart &P : Parts) {
    if (isa<TemplateTemplateParmDecl>(P.Param))
      return UnspellableArgument{P.Param, "a template template argument",
                                 P.Param->getLocation()};
    if (P.Param->isImplicit() || P.Param->getName().empty())
      return UnspellableArgument{P.Param,
                                 "the type of a generic lambda's 'auto' "
                                 "parameter or of an unnamed parameter",
                                 P.Param->getLocation()};
    if (auto U = unspellable(P.Param, P.Arg))
      return U;
  }
  return std::nullopt;
}

} // namespace soaview
