//===- Compat.h - the one place for LLVM-version differences ---*- C++ -*-===//
//
// soaview supports LLVM/Clang 19 and 22 (Debian's clang-19 and clang-22).
// Every API whose shape differs between the two is reached through this
// header, so the rest of the plugin is written once. Differences handled:
//  * 22 drops ASTContext::getRecordType (a record's type is its canonical
//    tag type) and TypedefTypeLoc::getTypedefNameDecl (now getDecl).
//  * 22's RecursiveASTVisitor passes `bool TraverseQualifier` to every
//    Traverse*Type and Traverse*TypeLoc (SOAVIEW_TRAVERSE_TYPE_PARAM).
//  * 22's CompilerInstance takes its invocation in the constructor.
//  * 22's DiagnosticIDs::isBuiltinWarningOrExtension is a member.
//  * 22's TypeName::getFullyQualifiedName drops the global `::` before a
//    record type; fullyQualifiedName puts it back so that both versions
//    generate the same code.
// Known and not needed here: Clang 20 adds
// ParsedAttrInfo::handleStmtAttribute; soaview keeps diagAppertainsToStmt,
// which both versions offer (docs/design.md).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_COMPAT_H
#define SOAVIEW_COMPAT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Config/llvm-config.h"

#if LLVM_VERSION_MAJOR != 19 && LLVM_VERSION_MAJOR != 22
#error "soaview supports LLVM/Clang 19 and 22 (see plugin/support/Compat.h)"
#endif

#if LLVM_VERSION_MAJOR >= 22
// Overrides of RecursiveASTVisitor::Traverse*Type(Loc) declare this extra
// parameter and pass SOAVIEW_TRAVERSE_TYPE_ARG on to the base.
#define SOAVIEW_TRAVERSE_TYPE_PARAM , bool TraverseQualifier = true
#define SOAVIEW_TRAVERSE_TYPE_ARG , TraverseQualifier
#else
#define SOAVIEW_TRAVERSE_TYPE_PARAM
#define SOAVIEW_TRAVERSE_TYPE_ARG
#endif

namespace soaview::compat {

/// The type of a record declaration, as the language spells it.
inline clang::QualType recordType(const clang::ASTContext &Ctx,
                                  const clang::RecordDecl *RD) {
#if LLVM_VERSION_MAJOR >= 22
  return Ctx.getCanonicalTagType(RD);
#else
  return Ctx.getRecordType(RD);
#endif
}

/// The type a typedef or alias declares, as its name spells it.
inline clang::QualType typedefType(const clang::ASTContext &Ctx,
                                   const clang::TypedefNameDecl *TD) {
#if LLVM_VERSION_MAJOR >= 22
  return Ctx.getTypedefType(clang::ElaboratedTypeKeyword::None,
                            clang::NestedNameSpecifier(), TD);
#else
  return Ctx.getTypedefType(TD);
#endif
}

/// The type a nested-name-specifier names (`Base::` in `Base::r`), or null.
inline const clang::Type *qualifierType(clang::NestedNameSpecifierLoc Q) {
#if LLVM_VERSION_MAJOR >= 22
  clang::NestedNameSpecifier N = Q.getNestedNameSpecifier();
  return N.getKind() == clang::NestedNameSpecifier::Kind::Type ? N.getAsType()
                                                               : nullptr;
#else
  return Q.getNestedNameSpecifier()->getAsType();
#endif
}

/// The typedef or alias a TypedefTypeLoc names.
inline const clang::TypedefNameDecl *typedefDecl(clang::TypedefTypeLoc TL) {
#if LLVM_VERSION_MAJOR >= 22
  return TL.getDecl();
#else
  return TL.getTypedefNameDecl();
#endif
}

/// Whether a built-in diagnostic is a warning or extension (not an error).
inline bool isBuiltinWarning(const clang::DiagnosticsEngine &DE, unsigned ID) {
#if LLVM_VERSION_MAJOR >= 22
  return DE.getDiagnosticIDs()->isWarningOrExtension(ID);
#else
  (void)DE;
  return clang::DiagnosticIDs::isBuiltinWarningOrExtension(ID);
#endif
}

/// A compiler instance for a nested parse of the same input.
inline std::unique_ptr<clang::CompilerInstance>
nestedInstance(std::shared_ptr<clang::CompilerInvocation> Inv,
               std::shared_ptr<clang::PCHContainerOperations> PCH) {
#if LLVM_VERSION_MAJOR >= 22
  return std::make_unique<clang::CompilerInstance>(std::move(Inv),
                                                   std::move(PCH));
#else
  auto CI = std::make_unique<clang::CompilerInstance>(std::move(PCH));
  CI->setInvocation(std::move(Inv));
  return CI;
#endif
}

/// T spelt from the global namespace (`::ns::P`), as Clang 19 spells it.
inline std::string fullyQualifiedName(clang::QualType T,
                                      const clang::ASTContext &Ctx,
                                      const clang::PrintingPolicy &Policy) {
  std::string S =
      clang::TypeName::getFullyQualifiedName(T, Ctx, Policy,
                                             /*WithGlobalNsPrefix=*/true);
#if LLVM_VERSION_MAJOR >= 22
  const auto *TT = T->getAs<clang::TagType>();
  if (!TT || T.hasLocalQualifiers() || llvm::StringRef(S).starts_with("::"))
    return S;
  // Only a record reachable by name from the global namespace.
  for (const clang::DeclContext *DC = TT->getDecl()->getDeclContext();
       !DC->isTranslationUnit(); DC = DC->getParent()) {
    const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC);
    if (DC->isTransparentContext() && !NS)
      continue;
    if (!(NS && !NS->isAnonymousNamespace()) &&
        !llvm::isa<clang::RecordDecl>(DC))
      return S;
  }
  return "::" + S;
#else
  return S;
#endif
}

} // namespace soaview::compat

#endif
