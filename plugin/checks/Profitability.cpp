//===- Profitability.cpp - which loops conversion cannot pay for ----------===//
#include "checks/Checks.h"

#include "diag/Diagnostics.h"
#include "frontend/Annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace soaview {

/// The profitability rule (docs/semantics.md): a single host loop, neither
/// nested with other converted loops nor hoisted nor offloaded, visits each
/// element once. Its gather and scatter touch the same cache lines the
/// original loop touches, so conversion cannot pay (measured 0.3-0.7x on
/// the SPH kicks and drift); such a loop stays as written, with a remark.
/// soa_conversion("always") or -fplugin-arg-soaview-convert=always convert it.
/// Decided from the attributes alone, before the loop is analysed: a loop
/// left as written never fails the build over what converting it needs.
bool conversionPays(const LoopAnnotation &A, size_t NestSize, bool CanOffload) {
  return NestSize != 1 || A.has(AttrKind::Hoist) ||
         (A.has(AttrKind::Offload) && CanOffload) || A.always();
}

void remarkUnconverted(ASTContext &Ctx, const LoopAnnotation &A,
                       DiagStore &Diags) {
  StoredDiag &D = Diags.report(A.ForLoc, diag::remark_unprofitable);
  const AttrUse *C = A.get(AttrKind::Convert);
  SourceLocation At = C ? C->Range.getBegin() : A.ForLoc;
  Diags.note(D, At, diag::note_unprofitable);
  if (C) {
    SourceLocation End = Lexer::getLocForEndOfToken(
        C->Range.getEnd(), 0, Ctx.getSourceManager(), Ctx.getLangOpts());
    Diags.fixIt(D, CharSourceRange::getCharRange(End, End), "(\"always\")");
  }
}

void warnNeverConverts(const LoopAnnotation &A, const DiagStore &Trial,
                       DiagStore &Diags) {
  const StoredDiag *Why = Trial.firstReason();
  StringRef Reason(Why->Message);
  Reason.consume_front("soaview: ");
  StoredDiag &D = Diags.report(A.ForLoc, diag::warn_never_converts);
  Diags.note(D, Why->Loc, {diag::note_never_converts_why, {Reason.str()}});
  Diags.note(D, A.ForLoc, diag::note_never_converts);
}

} // namespace soaview
