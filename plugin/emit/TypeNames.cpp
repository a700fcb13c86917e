//===- TypeNames.cpp - how generated code names a type --------------------===//
#include "emit/TypeNames.h"

#include "support/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace soaview {

TypeSpeller::TypeSpeller(ASTContext &Ctx)
    : Ctx(Ctx), Policy(Ctx.getPrintingPolicy()) {
  Policy.SuppressUnwrittenScope = true;
  Policy.AnonymousTagLocations = false;
  Policy.SuppressTagKeyword = true;
  Policy.FullyQualifiedName = true;
}

QualType TypeSpeller::spellable(QualType T) const {
  struct Hidden : RecursiveASTVisitor<Hidden> {
    bool Found = false;
    bool VisitTypedefType(TypedefType *TT) {
      AccessSpecifier A = TT->getDecl()->getAccess();
      Found |= A == AS_private || A == AS_protected;
      return !Found;
    }
    // A template argument as the instantiation wrote it (`Cluster<Part>`
    // inside a namespace that sees Part): its sugar names it from there.
    bool VisitSubstTemplateTypeParmType(SubstTemplateTypeParmType *) {
      Found = true;
      return false;
    }
  } H;
  H.TraverseType(T);
  // A library class template's specialization (`std::pair<const K, V>`
  // reached through a std::unordered_map) carries the sugar of the library's
  // own headers, which may name its arguments from inside them.
  if (const auto *CT = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl()))
    H.Found |= Ctx.getSourceManager().isInSystemHeader(CT->getLocation());
  return H.Found ? T.getCanonicalType() : T;
}

std::string TypeSpeller::name(QualType T) const {
  return compat::fullyQualifiedName(spellable(T), Ctx, Policy);
}

std::string TypeSpeller::declare(QualType T, StringRef Name) const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  TypeName::getFullyQualifiedType(spellable(T), Ctx, true)
      .print(OS, Policy, Name);
  return OS.str();
}

} // namespace soaview
