//===- Annotations.cpp - the soa_conversion attributes --------------------===//
//
// Tests: test/Sema/attributes.cpp, test/Rewrite/*.
//===----------------------------------------------------------------------===//
#include "frontend/Annotations.h"
#include "support/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

#include <iterator>

using namespace clang;

namespace soaview {

const char *attrSpelling(AttrKind K) {
  switch (K) {
  case AttrKind::Convert:
    return "soa_conversion";
  case AttrKind::Target:
    return "soa_conversion_target";
  case AttrKind::Hoist:
    return "soa_conversion_hoist";
  case AttrKind::Offload:
    return "soa_conversion_offload_compute";
  case AttrKind::Region:
    return "soa_conversion_region";
  }
  return "?";
}

bool LoopAnnotation::has(AttrKind K) const { return get(K) != nullptr; }

bool LoopAnnotation::always() const {
  const AttrUse *A = get(AttrKind::Convert);
  return A && A->Always;
}

const AttrUse *LoopAnnotation::get(AttrKind K) const {
  for (const AttrUse &A : Attrs)
    if (A.Kind == K)
      return &A;
  return nullptr;
}

static AnnotationCollector *ActiveCollector = nullptr;

AnnotationCollector::AnnotationCollector() : Previous(ActiveCollector) {
  ActiveCollector = this;
}
AnnotationCollector::~AnnotationCollector() { ActiveCollector = Previous; }
AnnotationCollector *AnnotationCollector::active() { return ActiveCollector; }

void AnnotationCollector::record(AttrUse Use, const Stmt *,
                                 SourceLocation ForLoc, SourceRange Brackets) {
  LoopAnnotation &L = Loops[ForLoc];
  L.ForLoc = ForLoc;
  if (L.Written.isInvalid() || Brackets.getBegin() < L.Written.getBegin())
    L.Written.setBegin(Brackets.getBegin());
  if (L.Written.getEnd().isInvalid() || L.Written.getEnd() < Brackets.getEnd())
    L.Written.setEnd(Brackets.getEnd());
  L.Attrs.push_back(std::move(Use));
}

void AnnotationCollector::recordRegion(const Stmt *S, SourceLocation Loc,
                                       SourceRange Brackets) {
  Regions.push_back({S, Loc, Brackets});
}

void AnnotationCollector::problem(SourceLocation Loc, Msg Message,
                                  std::optional<Msg> Note) {
  Problems.push_back({Loc, std::move(Message), std::move(Note)});
}

namespace {

/// Finds the "[[" before and the "]]" after an attribute, so that the whole
/// bracket group can be blanked out. Falls back to the attribute's own range.
SourceRange bracketRange(const SourceManager &SM, SourceRange R) {
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return R;
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(SM.getFileID(R.getBegin()), &Invalid);
  if (Invalid)
    return R;
  unsigned B = SM.getFileOffset(R.getBegin());
  unsigned E = SM.getFileOffset(R.getEnd());
  // Walk back over "clang::", names, commas and spaces to "[[".
  size_t Open = Buf.substr(0, B).rfind("[[");
  size_t Close = Buf.find("]]", E);
  if (Open == StringRef::npos || Close == StringRef::npos)
    return R;
  return SourceRange(R.getBegin().getLocWithOffset(-(int)(B - Open)),
                     R.getBegin().getLocWithOffset((int)(Close + 2 - B) - 1));
}

SourceLocation forLocOf(const Stmt *S) {
  if (const auto *F = dyn_cast_or_null<ForStmt>(S))
    return F->getForLoc();
  if (const auto *F = dyn_cast_or_null<CXXForRangeStmt>(S))
    return F->getForLoc();
  return {};
}

class SoaAttrInfo : public ParsedAttrInfo {
public:
  SoaAttrInfo(soaview::AttrKind K, ArrayRef<Spelling> Given, unsigned MaxArgs)
      : Kind(K), MaxArgs(MaxArgs) {
    OptArgs = 15; // arity is checked here, with a better message
    IsStmt = 1;
    Spellings = Given;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *) const override {
    AnnotationCollector *Collector = AnnotationCollector::active();
    if (Collector && Kind == AttrKind::Region)
      Collector->problem(A.getLoc(), {diag::err_attr_region_stmt, {}},
                         Msg(diag::note_attr_region_stmt));
    else if (Collector)
      Collector->problem(A.getLoc(),
                         {diag::err_attr_not_for, {attrSpelling(Kind)}},
                         Msg(diag::note_attr_not_for));
    return false;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A,
                            const Stmt *St) const override {
    AnnotationCollector *Collector = AnnotationCollector::active();
    if (!Collector)
      return false; // real compile: loops were handled in the first pass
    SourceLocation ForLoc = forLocOf(St);
    std::string Name = attrSpelling(Kind);
    if (Kind == AttrKind::Region)
      return region(S, A, St, *Collector);
    if (ForLoc.isInvalid()) {
      Collector->problem(A.getLoc(), {diag::err_attr_not_for, {Name}},
                         Msg(diag::note_attr_not_for));
      return false;
    }
    if (A.getNumArgs() > MaxArgs) {
      Collector->problem(A.getLoc(),
                         {diag::err_attr_arg_count,
                          {Name, MaxArgs ? "one argument" : "no arguments"}});
      return false;
    }
    AttrUse Use{Kind, A.getRange(), {}, 0};
    if (!arguments(S, A, *Collector, Use))
      return false;
    Collector->record(std::move(Use), St, ForLoc,
                      bracketRange(S.getSourceManager(), A.getRange()));
    return false; // dropped from the AST; the collector has it
  }

private:
  /// The attribute's argument into Use: convert's "always", target's
  /// array name, hoist's level. False after reporting a bad one.
  bool arguments(Sema &S, const ParsedAttr &A, AnnotationCollector &Collector,
                 AttrUse &Use) const {
    std::string Name = attrSpelling(Kind);
    if (Kind == AttrKind::Convert && A.getNumArgs() == 1)
      return convertArgument(A, Collector, Use);
    if (Kind != AttrKind::Target && Kind != AttrKind::Hoist)
      return true;
    if (A.getNumArgs() != 1) {
      Collector.problem(
          A.getLoc(), {diag::err_attr_arg_count, {Name, "one argument"}},
          Msg(Kind == AttrKind::Target ? diag::note_attr_target_arg
                                       : diag::note_attr_hoist_arg));
      return false;
    }
    Expr *E = A.isArgExpr(0) ? A.getArgAsExpr(0) : nullptr;
    if (Kind == AttrKind::Target) {
      const auto *SL =
          E ? dyn_cast<StringLiteral>(E->IgnoreParenImpCasts()) : nullptr;
      if (!SL || !SL->isOrdinary()) {
        Collector.problem(E ? E->getExprLoc() : A.getLoc(),
                          {diag::err_attr_string_arg, {Name}},
                          Msg(diag::note_attr_string_arg));
        return false;
      }
      Use.Target = SL->getString().str();
      return true;
    }
    std::optional<llvm::APSInt> V;
    if (E && !E->isValueDependent())
      V = E->getIntegerConstantExpr(S.getASTContext());
    if (!V) {
      Collector.problem(E ? E->getExprLoc() : A.getLoc(),
                        {diag::err_attr_integer_arg, {Name}});
      return false;
    }
    Use.Hoist = V->getExtValue();
    if (Use.Hoist < 1) {
      Collector.problem(E->getExprLoc(), {diag::err_attr_hoist_level, {Name}},
                        Msg(diag::note_attr_hoist_level));
      return false;
    }
    return true;
  }
  /// soa_conversion("always"): the one argument convert takes.
  bool convertArgument(const ParsedAttr &A, AnnotationCollector &Collector,
                       AttrUse &Use) const {
    Expr *E = A.isArgExpr(0) ? A.getArgAsExpr(0) : nullptr;
    const auto *SL =
        E ? dyn_cast<StringLiteral>(E->IgnoreParenImpCasts()) : nullptr;
    if (!SL || !SL->isOrdinary() || SL->getString() != "always") {
      Collector.problem(E ? E->getExprLoc() : A.getLoc(),
                        {diag::err_attr_convert_arg, {attrSpelling(Kind)}},
                        Msg(diag::note_attr_convert_arg));
      return false;
    }
    Use.Always = true;
    return true;
  }
  /// soa_conversion_region: on a compound statement or a loop, no arguments.
  bool region(Sema &S, const ParsedAttr &A, const Stmt *St,
              AnnotationCollector &Collector) const {
    if (!isa_and_nonnull<CompoundStmt, ForStmt, CXXForRangeStmt, WhileStmt,
                         DoStmt>(St)) {
      Collector.problem(A.getLoc(), {diag::err_attr_region_stmt, {}},
                        Msg(diag::note_attr_region_stmt));
      return false;
    }
    if (A.getNumArgs() > 0) {
      Collector.problem(A.getLoc(), {diag::err_attr_arg_count,
                                     {attrSpelling(Kind), "no arguments"}});
      return false;
    }
    Collector.recordRegion(St, St->getBeginLoc(),
                           bracketRange(S.getSourceManager(), A.getRange()));
    return false;
  }

  soaview::AttrKind Kind;
  unsigned MaxArgs;
};

/// One attribute: the name it is registered under, what it is, how many
/// arguments it takes at most, and its spellings. Scoped spellings lose
/// their arguments in Clang 19 unless the unscoped spelling is registered
/// too (docs/design.md).
struct AttrRow {
  const char *Name;
  soaview::AttrKind Kind;
  unsigned MaxArgs;
  ParsedAttrInfo::Spelling Spellings[3];
};

// clang-format off
#define SOAVIEW_ATTR(Name, Kind, MaxArgs)                                      \
  {Name, AttrKind::Kind, MaxArgs,                                              \
   {{ParsedAttr::AS_CXX11, "clang::" Name},                                    \
    {ParsedAttr::AS_CXX11, Name},                                              \
    {ParsedAttr::AS_GNU, Name}}}
// clang-format on

constexpr AttrRow Attributes[] = {
    SOAVIEW_ATTR("soa_conversion", Convert, 1),
    SOAVIEW_ATTR("soa_conversion_target", Target, 1),
    SOAVIEW_ATTR("soa_conversion_hoist", Hoist, 1),
    SOAVIEW_ATTR("soa_conversion_offload_compute", Offload, 0),
    SOAVIEW_ATTR("soa_conversion_compute_offload", Offload, 0),
    SOAVIEW_ATTR("soa_conversion_region", Region, 0),
};

#undef SOAVIEW_ATTR
static_assert(std::size(Attributes) == 6,
              "one registration below per row of Attributes");

/// The registry builds each attribute's info from its type alone: one type
/// per row of Attributes.
template <unsigned Row> struct RowInfo : SoaAttrInfo {
  RowInfo()
      : SoaAttrInfo(Attributes[Row].Kind, Attributes[Row].Spellings,
                    Attributes[Row].MaxArgs) {}
};

// The registrations every Clang plugin makes: nothing to catch an exception.
// NOLINTBEGIN(bugprone-throwing-static-initialization)
ParsedAttrInfoRegistry::Add<RowInfo<0>> R0(Attributes[0].Name, "");
ParsedAttrInfoRegistry::Add<RowInfo<1>> R1(Attributes[1].Name, "");
ParsedAttrInfoRegistry::Add<RowInfo<2>> R2(Attributes[2].Name, "");
ParsedAttrInfoRegistry::Add<RowInfo<3>> R3(Attributes[3].Name, "");
ParsedAttrInfoRegistry::Add<RowInfo<4>> R4(Attributes[4].Name, "");
ParsedAttrInfoRegistry::Add<RowInfo<5>> R5(Attributes[5].Name, "");
// NOLINTEND(bugprone-throwing-static-initialization)

} // namespace

void registerAttributes() {}

} // namespace soaview
