//===- Rules.h - what a view can hold and hand on ---------------*- C++ -*-===//
//
// Private to analysis/. The analysis's rules for one field, callee or
// address, each answered as a value: nothing, or the located refusal the
// analyser reports (docs/semantics.md, docs/diagnostics.md).
// Tests: test/Sema/refusals*.cpp (refusals-atomics.cpp among them).
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_RULES_H
#define SOAVIEW_RULES_H

#include "analysis/Bindings.h"
#include "diag/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMap.h"

#include <optional>
#include <vector>

namespace soaview {
namespace analysis {

/// Members of a view named so are soaview's (docs/generated-code.md,
/// "Names"): an element member named so cannot be in a view.
inline constexpr llvm::StringLiteral ReservedPrefix = "soaview_";

/// Why a nest cannot be converted, located, with the note that says what
/// to write instead (and where, when elsewhere than Loc).
struct Refusal {
  clang::SourceLocation Loc;
  Msg Error;
  clang::SourceLocation NoteLoc = {};
  std::optional<Msg> Note = std::nullopt;
};

/// Field FD, used at Use, cannot be in a view at all: a reserved name, a
/// bit-field, a reference, volatile or atomic, not copyable.
std::optional<Refusal> fieldRefusal(const clang::ASTContext &Ctx,
                                    const clang::FieldDecl *FD,
                                    clang::SourceLocation Use);
/// Field FD, used at Use, cannot be carried as bytes (support/ValueClasses):
/// Error, with what makes its class's value more than its bytes.
std::optional<Refusal> bytesRefusal(const clang::ASTContext &Ctx,
                                    const clang::FieldDecl *FD,
                                    clang::SourceLocation Use, diag::Id Error);
/// The callee FD (What: the role it has) has no body soaview sees, or
/// lives in a system header.
std::optional<Refusal> calleeRefusal(const clang::SourceManager &SM,
                                     const clang::FunctionDecl *FD,
                                     clang::SourceLocation Use,
                                     llvm::StringRef What);
/// Whether the library member function FD keeps the element pointer Arg
/// (passed for Param): it takes it through a reference to a pointer, the
/// way containers store values.
bool keepsAddress(const clang::SourceManager &SM, const clang::FunctionDecl *FD,
                  const clang::ParmVarDecl *Param, const clang::Expr *Arg);

/// False when the address of the field accessed by Use (or a reference to
/// it) may be kept beyond the iteration. Passed collects the calls the
/// address is handed to, directly or through a local pointer.
bool addressStaysLocal(const clang::Expr *Use, clang::ParentMap &PM,
                       std::vector<PassedAddress> &Passed);
/// A call in Passed that cannot be seen into while the object it gets must
/// be the element's own (the field of B used at Use).
std::optional<Refusal>
passedAddressRefusal(const clang::ASTContext &Ctx, const clang::Expr *Use,
                     const Binding &B,
                     const std::vector<PassedAddress> &Passed);

} // namespace analysis
} // namespace soaview

#endif
