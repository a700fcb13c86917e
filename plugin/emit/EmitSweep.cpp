//===- EmitSweep.cpp - a nest swept over all cells at once ----------------===//
//
// The rewrite of a sweep (docs/offload.md, "Sweeps"; runtime in
// soaview/sweep.h). For
//
//   [[clang::soa_conversion_offload_compute]]
//   for (Cell &c : cells) {
//     auto &l = c.local;
//     [[clang::soa_conversion]]
//     for (P *p : l) {
//       [[clang::soa_conversion_hoist(1)]]
//       for (const P *q : c.active) BODY
//     }
//   }
//
// the generated code is, in order:
//   { the site and the sweep object;
//     the cell loop as written, its declarations, then the recording of the
//       cell's ranges (the inner first, as the unswept nest evaluates them);
//     start(): slots, index and gathers on the host, one copy to the device;
//     the device buffers and index;
//     the local loop over all local slots (a target region or a kernel),
//       whose body finds its cell, and whose inner loop walks the cell's runs
//       of inner slots (soaview::run_cursor) -- the loop bodies unchanged;
//   } the sweep's destructor copies the written fields back and scatters.
//
// The text from the cell loop's `for` to the local loop's `)` is replaced
// by the kernel's header; the cell loop's closing brace closes the kernel's
// loop (or lambda).
//===----------------------------------------------------------------------===//
#include "emit/EmitImpl.h"

namespace soaview {

/// The cell loop as written, recording each cell's ranges.
std::string Emitter::Impl::sweepRecording(const NestPlan &N) {
  const SweepPlan &S = *N.Sweep;
  const LoopPlan &L = N.Loops[0];
  const LoopPlan *In = N.Loops.size() > 1 ? &N.Loops[1] : nullptr;
  std::string SPx = prefixAt(S.Annotation->ForLoc);
  std::string Header = text(CharSourceRange::getCharRange(
      SM.getFileLoc(S.Loop->getBeginLoc()), SM.getFileLoc(S.Body->getBeginLoc())));
  std::string Decls;
  for (const DeclStmt *DS : S.Decls)
    Decls += " " + text(CharSourceRange::getTokenRange(SM.getFileLoc(DS->getBeginLoc()),
                                                       SM.getFileLoc(DS->getEndLoc())));
  std::string Local = exprText(cast<CXXForRangeStmt>(L.Form.Loop)->getRangeInit());
  std::string Record;
  if (In) {
    std::string IPx = prefix(*In);
    Record = " auto &&" + IPx + "range = " +
             exprText(cast<CXXForRangeStmt>(In->Form.Loop)->getRangeInit()) +
             "; " + SPx + "sweep.cell(std::forward<decltype(" + IPx + "range)>(" +
             IPx + "range), " + Local + ");";
  } else {
    Record = " " + SPx + "sweep.cell(" + Local + ");";
  }
  return "  " + Header + "{" + Decls + Record + " }\n";
}

/// Everything before the kernel's loop.
std::string Emitter::Impl::sweepPrologue(const NestPlan &N) {
  const SweepPlan &S = *N.Sweep;
  const LoopPlan &L = N.Loops[0];
  const LoopPlan *In = N.Loops.size() > 1 ? &N.Loops[1] : nullptr;
  std::string SPx = prefixAt(S.Annotation->ForLoc), Px = prefix(L);
  std::string Where = whereAt(S.Annotation->ForLoc);
  bool Scatter = !L.Form.VarIsCopy;
  std::string Pro = "{ // soaview: sweep over the cells of the loop at " + Where +
                    ": one gather, one transfer, one launch" +
                    B.offloadedComment() + "\n";
  Pro += "  static " + std::string(rt::Site) + " " + SPx + "site(\"" + Where + "\");\n";
  Pro += heapScope(L, SPx); // before the sweep: ends after it
  Pro += "  " + B.deviceNamespace() + rt::Sweep + "<" + specType(L) + ", " +
         (In ? specType(*In) : "void") + (Scatter ? "" : ", false") + "> " + SPx +
         "sweep(" + SPx + "site);\n";
  Pro += sweepRecording(N);
  Pro += "  " + SPx + "sweep.start();\n";
  Pro += "  using " + Px + "spec = " + specType(L) + ";\n";
  Pro += "  const auto " + Px + "buffers = " + SPx + "sweep.local_buffers();\n";
  std::string Captures = Px + "buffers";
  if (In) {
    std::string IPx = prefix(*In);
    Pro += "  using " + IPx + "spec = " + specType(*In) + ";\n";
    Pro += "  const auto " + IPx + "buffers = " + SPx + "sweep.inner_buffers();\n";
    Pro += "  const " + std::string(rt::SweepIndex) + " " + SPx + "index = " + SPx +
           "sweep.index();\n";
    Captures += ", " + IPx + "buffers, " + SPx + "index";
  }
  if (!B.bodyIsKernelLambda()) // a kernel's lambda runs over the sweep's size
    Pro += "  const std::size_t " + Px + "n = " + SPx + "sweep.size();\n";
  return Pro + B.sweepLaunchPrologue(SPx, Px, Captures);
}

bool Emitter::Impl::emitSweep(const NestPlan &N) {
  const SweepPlan &S = *N.Sweep;
  const LoopPlan &L = N.Loops[0];
  const LoopPlan *In = N.Loops.size() > 1 ? &N.Loops[1] : nullptr;
  EditBuffer *EB = E.bufferFor(S.Annotation->ForLoc);
  if (!EB)
    return false;
  std::string SPx = prefixAt(S.Annotation->ForLoc), Px = prefix(L);
  commentAttribute(*S.Annotation, *EB);
  // The cell loop up to the local loop's ')' becomes the kernel's header;
  // the cell loop's '{' stays open as the kernel loop's (or lambda's).
  std::string K = Px + "i";
  std::string Header = B.sweepLaunchHeader(SPx, Px, K) +
                       (isa<CompoundStmt>(S.Body) ? " {" : "");
  // Two edits, so that the local loop's `for` keeps its line and column
  // (its remark and diagnostics point there).
  SourceLocation LocalFor = L.Annotation->ForLoc;
  SourceLocation RParen = rparen(L.Form);
  EB->replace(SM.getFileOffset(SM.getFileLoc(S.Loop->getBeginLoc())),
              SM.getFileOffset(LocalFor), sweepPrologue(N) + "  " + Header + "\n");
  EB->replace(SM.getFileOffset(LocalFor), SM.getFileOffset(RParen) + 1, "");
  std::string Cell = In ? " const std::size_t " + SPx + "cell = " + SPx +
                              "index.cell_of[" + K + "];"
                        : "";
  openBody(L.Form, Cell + elementDecls(L, Px + "spec::at(" + Px + "buffers, " + K + ")"),
           *EB);
  if (B.bodyIsKernelLambda())
    continueEdits(L, *EB);
  bodyEdits(L, *EB);
  if (In) {
    std::string IPx = prefix(*In);
    commentAttribute(*In->Annotation, *EB);
    const auto *RF = cast<CXXForRangeStmt>(In->Form.Loop);
    SourceLocation LParen = Lexer::findNextToken(In->Annotation->ForLoc, SM, LO)->getLocation();
    EB->replace(SM.getFileOffset(LParen), SM.getFileOffset(RF->getRParenLoc()) + 1,
                "(" + std::string(rt::RunCursor) + " " + IPx + "k(" + SPx + "index, " +
                    SPx + "cell); " + IPx + "k.more(); " + IPx + "k.next())");
    openBody(In->Form,
             elementDecls(*In, IPx + "spec::at(" + IPx + "buffers, " + IPx + "k.index())"),
             *EB);
    bodyEdits(*In, *EB);
  }
  EB->insert(SM.getFileOffset(afterStmt(S.Loop, SM, LO)),
             std::string(B.bodyIsKernelLambda() ? ");" : "") + " }");
  return true;
}

} // namespace soaview
