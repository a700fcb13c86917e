//===- Tables.cpp - constant tables declared for the device ---------------===//
//
// See Tables.h.
//===----------------------------------------------------------------------===//
#include "emit/Tables.h"

#include "emit/Backend.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace soaview {

/// The constant tables the nest's device code reads, declared for the
/// device right after their definitions (once each), and where the backend
/// names their copies, every reference in the user's code spelt so (once
/// each; copies of user code spell theirs, EmitContext::copyEdits).
bool TableEmitter::emit(const NestPlan &Nest) {
  for (const LoopPlan &P : Nest.Loops)
    for (const VarDecl *V : P.Reach.Tables)
      if (Declared.insert(V).second && !declare(V))
        return false;
  TextEdits Edits;
  Emit.tableEdits(Nest.tableRefs(), Edits);
  for (auto &[R, Text] : Edits) {
    unsigned Begin = Emit.Source.offset(R.getBegin());
    if (!Emit.SM.isInMainFile(R.getBegin()) ||
        !SpeltRefs.insert(R.getBegin().getRawEncoding()).second)
      continue; // a header's are in the copies made of its functions
    EditBuffer *Buffer = Emit.Files.bufferFor(R.getBegin());
    if (!Buffer)
      return false;
    Buffer->replace(Begin, Emit.Source.offset(R.getEnd()), Text);
  }
  return true;
}

/// V's initializer as written after its name: ` = {...}`, `{...}`, or the
/// arguments of a constructor (`(1.5f, 2.5f)`; "" when it has none).
std::string TableEmitter::initializerText(const VarDecl *V) const {
  const Expr *Init = V->getInit();
  if (!Init)
    return "";
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit())) {
    SourceRange Args = CE->getParenOrBraceRange();
    if (V->getInitStyle() != VarDecl::CInit)
      return Args.isValid()
                 ? Emit.Source.text(CharSourceRange::getTokenRange(Args))
                 : "";
  }
  return (V->getInitStyle() == VarDecl::CInit ? " = " : "") +
         Emit.Source.exprText(Init);
}

/// Device code's copy of table V, after its definition: in the device's
/// constant memory while ConstantBudget holds every table.
bool TableEmitter::declare(const VarDecl *V) {
  DeviceTableCopy T;
  T.Name = V->getNameAsString();
  T.DeviceName = Emit.Names.deviceTable(V);
  T.Init = initializerText(V);
  uint64_t Bytes = Emit.Ast.getTypeSizeInChars(V->getType()).getQuantity();
  T.Constant = ConstantBytes + Bytes <= ConstantBudget;
  if (T.Constant)
    ConstantBytes += Bytes;
  std::string Line = Emit.Target.declarations().deviceTable(T);
  if (Line.empty())
    return true;
  SourceLocation After =
      Emit.Source.afterSemi(Emit.Source.fileEnd(V->getSourceRange().getEnd()));
  EditBuffer *Buffer = Emit.Files.bufferFor(After);
  if (!Buffer)
    return false;
  Buffer->insert(Emit.Source.offset(After), "\n" + Line + "\n");
  return true;
}

} // namespace soaview
