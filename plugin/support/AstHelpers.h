//===- AstHelpers.h - AST questions every stage asks ------------*- C++ -*-===//
//
// Parent walks, paren/cast skipping, and the write and jump finders that
// forms, checks, analysis and emission share.
//
// Parents: inside one body the analysis walks a ParentMap built once per
// body (parentThrough); walks that leave the body (the loops around a
// statement, the operands of types) go up the ASTContext's map through
// ancestors() (Ancestors.h: enclosingLoops, typeOperandParent).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_ASTHELPERS_H
#define SOAVIEW_ASTHELPERS_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class ParentMap;
class SourceManager;
} // namespace clang

namespace soaview {

/// A type as messages name it: fully qualified, no tag keyword
/// ('ns::Particle', 'const ns::Particle *').
std::string qualifiedName(const clang::ASTContext &Ctx, clang::QualType T);
/// The printing policy of qualifiedName, for callers that print a type
/// their own way (a type as the user's code spells it, regions/).
clang::PrintingPolicy qualifiedPolicy(const clang::ASTContext &Ctx);

/// The function as written: the pattern an instantiation comes from (of a
/// function template, a member of a class template, a generic lambda's
/// call operator), or FD itself.
inline const clang::FunctionDecl *
writtenFunction(const clang::FunctionDecl *FD) {
  if (const clang::FunctionDecl *Pattern =
          FD->getTemplateInstantiationPattern())
    return Pattern;
  return FD;
}

/// Where the qualifier of a member written `Q::name` can be taken out: from
/// Q's first character to the name, in the file as written, or where one
/// argument of a macro is written when both come from it
/// (`SV_MAX(a, p->Base::x)`). None when either comes from a macro's
/// definition. The analysis refuses such members (analysis/Analysis.cpp);
/// every rewrite that drops element qualifiers removes this range.
std::optional<clang::CharSourceRange>
writtenQualifier(const clang::SourceManager &SM,
                 clang::SourceLocation QualifierBegin,
                 clang::SourceLocation Name);

/// True when RD is Element or one of its bases, or the pattern of a class
/// template that Element or a base specializes (its name in its own text).
bool isElementOrBase(const clang::RecordDecl *RD,
                     const clang::CXXRecordDecl *Element);

/// The nodes a parent walk looks through (parentThrough), as a bit set.
namespace Through {
enum : unsigned {
  Parens = 1u << 0,        ///< `(e)`
  NoOpCasts = 1u << 1,     ///< implicit casts that only adjust qualifiers
  ImplicitCasts = 1u << 2, ///< every implicit cast
  /// Casts, implicit or explicit, that keep the object: all but the
  /// lvalue-to-rvalue read and the array-to-pointer decay.
  ValueCasts = 1u << 3,
  Temporaries = 1u << 4, ///< materialised and bound temporaries
};
} // namespace Through

/// The first parent of E in PM that is not a node Skip looks through; E
/// becomes that parent's child (the last node looked through). Null when E
/// has no such parent in PM.
const clang::Stmt *parentThrough(clang::ParentMap &PM, const clang::Expr *&E,
                                 unsigned Skip);

/// The text of R as written, on one line, shortened past 60 characters:
/// diagnostics quote the form they found with it (`i += 2`).
std::string writtenText(const clang::ASTContext &Ctx, clang::SourceRange R);

/// E without parentheses and implicit casts (null stays null).
const clang::Expr *strip(const clang::Expr *E);
/// True when E names D (through parentheses and implicit casts).
bool refersTo(const clang::Expr *E, const clang::ValueDecl *D);
/// The variable a `for` loop's init declares or assigns (`int i = 0`,
/// `it = v.begin()`); null when there is none or it is not one variable.
const clang::VarDecl *steppedVar(const clang::ForStmt *FS);
/// True when FD is a library function: declared in a system header, or a
/// builtin without a body (std::move, std::addressof, ...).
bool isLibraryFunction(const clang::SourceManager &SM,
                       const clang::FunctionDecl *FD);
/// True when Inner lies inside Outer's source range (and is not Outer).
bool contains(const clang::SourceManager &SM, const clang::Stmt *Outer,
              const clang::Stmt *Inner);
/// The loop statements around S in its function, innermost first.
std::vector<const clang::Stmt *> enclosingLoops(clang::ASTContext &Ctx,
                                                const clang::Stmt *S);
/// The parent of E, skipping parentheses and implicit casts, for expressions
/// that ParentMap does not reach (operands of decltype and __typeof__ in a
/// declaration's type).
const clang::Stmt *typeOperandParent(clang::ASTContext &Ctx,
                                     const clang::Expr *E);

/// Canonical, unqualified types of objects (containers), each as aliasKey
/// gives it.
using AliasTypes = llvm::SmallPtrSet<const clang::Type *, 2>;
/// The key of an object's type in AliasTypes: T without reference,
/// qualifiers or sugar.
const clang::Type *aliasKey(clang::QualType T);
/// The first expression in S that may modify one of Vars (assignment,
/// increment, address taken, non-const reference or member call), or null.
/// Vars holds variables (written by name) and fields (written in any
/// object). With Aliases, also a write to an object of one of those types
/// reached through a pointer or a reference (`(*p)[k] = q`,
/// `r.push_back(q)` with `r` a reference), which may be any such object.
/// With Selected (variables and fields among Vars whose elements are
/// containers themselves: the loop runs over `hs[0]`), a write to an element
/// of one (`hs[0] = h`, `hs[0].slot(1) = q`, `hs[0].clear()`) counts too.
const clang::Expr *findWrite(
    const clang::Stmt *S,
    const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Vars,
    const AliasTypes *Aliases = nullptr,
    const llvm::SmallPtrSetImpl<const clang::ValueDecl *> *Selected = nullptr);

/// The first reference in S to a variable that Which accepts, outside the
/// subtrees Skip, or null.
const clang::DeclRefExpr *
findVarUse(const clang::Stmt *S,
           llvm::function_ref<bool(const clang::VarDecl *)> Which,
           llvm::ArrayRef<const clang::Stmt *> Skip = {});
/// Every reference in S to a variable that Which accepts, in source order.
std::vector<const clang::DeclRefExpr *>
findVarUses(const clang::Stmt *S,
            llvm::function_ref<bool(const clang::VarDecl *)> Which);

/// The jumps of a loop body that act on the loop itself, in source order:
/// `break` and `continue` not owned by a nested loop (nor, for `break`, by a
/// switch), and every `return` and `goto`. Lambda bodies are not searched.
struct LoopJumps {
  std::vector<const clang::Stmt *> Exits; ///< break, return, goto
  std::vector<const clang::ContinueStmt *> Continues;
};
LoopJumps findLoopJumps(const clang::Stmt *Body);

/// True when the loop body means the same as the body of a lambda capturing
/// by reference whose `return` replaces the loop's `continue`: no break,
/// return or goto acting on the loop, no coroutine operators, no __func__
/// or __builtin_FUNCTION, no structured bindings or variable-length arrays
/// from outside the body (a C++17 lambda cannot capture them).
bool bodyFitsLambda(const clang::Stmt *Body);

/// Whether structured binding B can stand for a loop's element: a struct
/// (not a union, defined) or a pointer to one, seen through references,
/// declared outside system headers (not the `std::vector` of a neighbour
/// list bound beside the particle). Recognition picks the element by it,
/// and annotate=all finds loops over structs by it.
bool elementBinding(const clang::BindingDecl *B,
                    const clang::SourceManager &SM);

/// True when a second copy of the statement in the same function means
/// what the first one does: it declares no label (two would clash) and no
/// static or thread_local variable (each copy would have its own).
bool copiesAsWritten(const clang::Stmt *S);

/// True when the body holds a loop whose trip count is not a constant: a
/// while or do loop, a range-for over anything but an array of known size,
/// or a for loop whose condition compares with no integer constant. The
/// compiler does not vectorise a loop around such a loop (it may unroll
/// the constant ones and vectorise the outer loop).
bool hasRuntimeLoop(const clang::Stmt *Body, const clang::ASTContext &Ctx);

/// The character range of the TypeLoc naming Record inside a declarator's
/// type (through references, pointers and qualifiers), or an invalid range
/// (deduced types, macros).
clang::CharSourceRange recordTypeRange(clang::TypeLoc TL,
                                       const clang::RecordDecl *Record,
                                       const clang::SourceManager &SM,
                                       const clang::LangOptions &LO);

/// The character range of the type a parameter names the element with
/// (through references, pointers and qualifiers): the element's record, or
/// in a template pattern a template type parameter that stands for it.
/// Invalid for deduced types and macros.
clang::CharSourceRange elementTypeRange(clang::TypeLoc TL,
                                        const clang::RecordDecl *Element,
                                        const clang::SourceManager &SM,
                                        const clang::LangOptions &LO);

/// The declaration of FD that its clone is declared after: the first one at
/// namespace scope or in its class (not a friend declaration), or null.
const clang::FunctionDecl *
firstOrdinaryDeclaration(const clang::FunctionDecl *FD);

/// The class whose non-trivial destructor an object of type T (or each
/// element of an array of T) runs; null when T is not such a class.
const clang::CXXRecordDecl *classWithDestructor(const clang::ASTContext &Ctx,
                                                clang::QualType T);

/// A small one-dimensional array of arithmetic values (`double x[3]`) is
/// stored one buffer per component (`double *x[3]` in the soa), so that loops
/// reading `p->x[0]` load consecutive slots, as hand-written SoA does. Returns
/// the component count and sets Elem, or 0 for fields stored whole.
unsigned splitComponents(const clang::ASTContext &Ctx, clang::QualType T,
                         clang::QualType &Elem);

} // namespace soaview

#endif
