//===- Compat.h - the one place for LLVM-version differences ---*- C++ -*-===//
//
// soaview supports LLVM/Clang 19 (Debian's clang-19). Every API whose shape
// differs between Clang versions is reached through this header, so a port
// to another version edits this file only. Known differences:
//  * Clang 20 adds ParsedAttrInfo::handleStmtAttribute; 19 only offers
//    diagAppertainsToStmt, which Annotations.cpp uses (docs/design.md).
//  * Clang 21 changes ASTContext::getMemberPointerType to take a qualifier.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_COMPAT_H
#define SOAVIEW_COMPAT_H

#include "clang/AST/ASTContext.h"
#include "llvm/Config/llvm-config.h"

#if LLVM_VERSION_MAJOR != 19
#error "soaview supports LLVM/Clang 19 only (see plugin/Compat.h)"
#endif

namespace soaview::compat {


} // namespace soaview::compat

#endif
