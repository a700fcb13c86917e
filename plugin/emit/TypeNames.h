//===- TypeNames.h - how generated code names a type -------------*- C++
//-*-===//
//
// Generated code sits outside the user's classes and namespaces, so it names
// types fully qualified, and never through sugar it may not name: a private
// or protected member alias (`using Scalar = double;` in a private section)
// is spelt as what it stands for.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_TYPENAMES_H
#define SOAVIEW_TYPENAMES_H

#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace clang {
class ASTContext;
}

namespace soaview {

class TypeSpeller {
public:
  explicit TypeSpeller(clang::ASTContext &Ctx);

  /// T as generated code writes it.
  std::string name(clang::QualType T) const;
  /// A declaration of Name with type T (`double *x[2]`, `int (*f)(int)`).
  std::string declare(clang::QualType T, llvm::StringRef Name) const;
  const clang::PrintingPolicy &policy() const { return Policy; }

private:
  /// T without sugar generated code may not name (private typedefs,
  /// template arguments as an instantiation wrote them, a library class
  /// template's specialization as its headers wrote it).
  clang::QualType spellable(clang::QualType T) const;

  clang::ASTContext &Ctx;
  clang::PrintingPolicy Policy;
};

} // namespace soaview

#endif
