//===- Emit.cpp - generate the view code for analysed loops ---------------===//
//
// Generated names depend only on the loop's line and column (and file, for
// loops outside the main file), the element type and the identifiers of the
// translation unit, never on addresses or parse order, so host and device
// compiles (and repeated compiles) agree. None is reserved.
//
// Layout of what is inserted before the declaration that holds the loop (or,
// for templates, the point of instantiation), in the element's namespace,
// inside `inline namespace soaview_gen { inline namespace {`:
//   struct <E>_<line>_<col>;             proxy, forward declared
//   <clone declarations>                  in their own namespaces
//   struct <E>_<line>_<col> { ... };      proxy: references + methods
//   struct <E>_<line>_<col>_spec { ... }; buffers, gather, scatter
// Tests: test/Rewrite/*.
//===----------------------------------------------------------------------===//
#include "emit/EmitImpl.h"
#include "forms/LoopForms.h"

#include <set>

namespace soaview {
namespace detail {

std::string sanitize(StringRef S) {
  std::string R;
  for (char C : S)
    R += isAlphanumeric(C) ? C : '_';
  while (R.find("__") != std::string::npos)
    R.replace(R.find("__"), 2, "_");
  if (!R.empty() && R.back() == '_')
    R.pop_back();
  return R;
}

/// Namespace scope chain of a declaration context, outermost first, as the
/// text that reopens each level.
std::vector<std::string> openers(const DeclContext *DC) {
  std::vector<std::string> R;
  for (; DC && !isa<TranslationUnitDecl>(DC); DC = DC->getLexicalParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      std::string S = NS->isInline() ? "inline namespace " : "namespace ";
      if (!NS->isAnonymousNamespace())
        S += NS->getName().str() + " ";
      R.push_back(S + "{");
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC)) {
      if (LS->hasBraces())
        R.push_back(LS->getLanguage() == LinkageSpecLanguageIDs::C
                        ? "extern \"C\" {"
                        : "extern \"C++\" {");
    }
  }
  std::reverse(R.begin(), R.end());
  return R;
}

/// The namespace (or TU) that semantically encloses D.
const DeclContext *namespaceOf(const Decl *D) {
  const DeclContext *DC = D->getDeclContext();
  while (DC && !DC->isFileContext())
    DC = DC->getParent();
  return DC;
}


/// Name of the SoA buffer of a leaf: the path joined with '_' (identifiers
/// stay valid; nothing is stripped, so `p` and `p_` stay distinct).
std::string bufName(const FieldPath &P) {
  std::string S;
  for (const FieldDecl *F : P)
    if (!F->isAnonymousStructOrUnion())
      S += (S.empty() ? "" : "_") + F->getName().str();
  return S;
}

unsigned splitComponents(const ASTContext &Ctx, QualType T, QualType &Elem) {
  constexpr uint64_t MaxComponents = 4; // vectors of 2, 3, 4 in physics codes
  const ConstantArrayType *A = Ctx.getAsConstantArrayType(T);
  if (!A || T.isVolatileQualified())
    return 0;
  QualType E = A->getElementType();
  uint64_t N = A->getSize().getZExtValue();
  if (N == 0 || N > MaxComponents || E.isVolatileQualified() ||
      !E->isArithmeticType() || E->isAnyComplexType() || !E->isBuiltinType())
    return 0;
  Elem = E.getUnqualifiedType();
  return static_cast<unsigned>(N);
}

} // namespace detail

std::string Emitter::Impl::fresh(std::string Base) {
  if (Identifiers.empty()) {
    for (const auto &E : Ctx.Idents) // keys live as long as the context
      Identifiers.push_back(E.getKey());
    std::sort(Identifiers.begin(), Identifiers.end());
  }
  auto Taken = [&](const std::string &Prefix) {
    auto It = std::lower_bound(Identifiers.begin(), Identifiers.end(), Prefix);
    return It != Identifiers.end() && It->starts_with(Prefix);
  };
  while (Taken(Base))
    Base += 'x';
  return Base;
}

using namespace detail;

std::string
Emitter::Impl::withEdits(CharSourceRange R,
                         std::vector<std::pair<CharSourceRange, std::string>> Ed) {
  unsigned Begin = SM.getFileOffset(R.getBegin());
  std::string T = text(R);
  llvm::sort(Ed, [&](auto &A, auto &B) {
    return SM.getFileOffset(A.first.getBegin()) >
           SM.getFileOffset(B.first.getBegin());
  });
  for (auto &[Range, Repl] : Ed) {
    unsigned B = SM.getFileOffset(Range.getBegin()) - Begin;
    unsigned En = SM.getFileOffset(Range.getEnd()) - Begin;
    if (En <= T.size() && B <= En)
      T.replace(B, En - B, Repl);
  }
  return T;
}

void Emitter::Impl::identityEdits(
    CharSourceRange R, std::vector<std::pair<CharSourceRange, std::string>> &Ed,
    const std::vector<const Expr *> &Which) {
  for (const Expr *E : Which) {
    SourceLocation B = SM.getFileLoc(E->getBeginLoc());
    if (SM.isBeforeInTranslationUnit(B, R.getBegin()) ||
        !SM.isBeforeInTranslationUnit(B, R.getEnd()))
      continue;
    CharSourceRange ER = CharSourceRange::getCharRange(
        B, Lexer::getLocForEndOfToken(SM.getFileLoc(E->getEndLoc()), 0, SM, LO));
    Ed.push_back({ER, std::string(rt::Identity) + "(" + text(ER) + ")"});
  }
}

bool Emitter::Impl::emitNest(const NestPlan &N) {
  Identities.clear();
  for (const LoopPlan &L : N.Loops)
    Identities.insert(Identities.end(), L.Identities.begin(),
                      L.Identities.end());
  Routes = N.HeapRoutes;
  if (!routeInPlace())
    return false;
  const Decl *At = N.InsertBefore;
  SourceLocation AtLoc = SM.getFileLoc(At->getSourceRange().getBegin());
  Chunks Fwd, Decls, Main, Early;
  for (const LoopPlan &P : N.Loops)
    viewChunks(P, N.Sweep.has_value(), Fwd, Main);
  // Clones of free functions receiving elements, one per binding.
  LateEdits LateDefs;
  for (const CalleeUse &U : N.Callees) {
    if (!U.NeedsClone) {
      splitClone(U, Decls);
      continue;
    }
    if (!cloneCallee(N, U, AtLoc, Decls, Early, LateDefs))
      return false;
  }
  if (B.marksDeviceFunctions() && !markDeviceFunctions(N))
    return false;
  Chunks All;
  for (Chunks *C : {&Fwd, &Decls, &Main, &Early})
    All.append(*C);
  EditBuffer *EB = E.bufferFor(AtLoc);
  if (!EB)
    return false;
  EB->insert(SM.getFileOffset(AtLoc),
             All.render(At->getLexicalDeclContext()) + "\n");
  for (auto &[Loc, Def] : LateDefs) {
    EditBuffer *LB = E.bufferFor(Loc);
    if (!LB)
      return false;
    LB->insert(SM.getFileOffset(Loc), Def);
  }
  return true;
}

/// A template whose one type parameter receives two views gets a clone
/// with one more type parameter (declared once per text).
void Emitter::Impl::splitClone(const CalleeUse &U, Chunks &Decls) {
  std::string Clone = splitTemplateClone(U);
  if (Clone.empty() || !DoneSplitClones.insert(Clone).second)
    return;
  Decls.add(namespaceOf(U.FD->getTemplateInstantiationPattern()),
            "// soaview: clone of '" + U.FD->getQualifiedNameAsString() +
                "' taking the views of two loops\n" + Clone + "\n");
}

/// The edits that turn a callee into its clone for the nest's views: the
/// element parameters' and aliases' types, identity wraps, the device mark.
bool Emitter::Impl::cloneEdits(const NestPlan &N, const CalleeUse &U,
                               CharSourceRange CR, bool Device, Edits &Ed) {
  const FunctionDecl *FD = U.FD;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    if (U.ParamViews[I] < 0)
      continue;
    const LoopPlan &VP = N.Loops[U.ParamViews[I]];
    TypeSourceInfo *TSI = FD->getParamDecl(I)->getTypeSourceInfo();
    CharSourceRange RT =
        TSI ? recordTypeRange(TSI->getTypeLoc(), VP.View.Element, SM, LO)
            : CharSourceRange();
    if (RT.isInvalid()) { // checkPlacement refuses this first
      Diags.report(FD->getParamDecl(I)->getLocation(),
                   {diag::err_internal_emit, {"no type to rewrite"}});
      return false;
    }
    Ed.push_back({RT, qualifiedView(VP)});
  }
  for (const LoopPlan &VP : N.Loops)
    for (const VarDecl *V : VP.View.Aliases)
      if (!SM.isBeforeInTranslationUnit(V->getLocation(), CR.getBegin()) &&
          SM.isBeforeInTranslationUnit(V->getLocation(), CR.getEnd()))
        if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
          CharSourceRange RT =
              recordTypeRange(TSI->getTypeLoc(), VP.View.Element, SM, LO);
          if (RT.isValid())
            Ed.push_back({RT, qualifiedView(VP)});
        }
  identityEdits(CR, Ed, Identities);
  heapEdits(CR, Ed);
  std::string Mark = B.deviceMark(Device); // the clone runs in the kernel
  if (!Mark.empty())
    Ed.push_back({CharSourceRange::getCharRange(FD->getInnerLocStart(),
                                                FD->getInnerLocStart()),
                  Mark});
  return true;
}

/// The clone of a callee for the nest's views: its declaration goes into
/// Decls; its definition (with #line back to the original) goes with the
/// views when the callee is defined before them (Early), else after the
/// callee (LateDefs).
bool Emitter::Impl::cloneCallee(const NestPlan &N, const CalleeUse &U,
                                SourceLocation AtLoc, Chunks &Decls,
                                Chunks &Early, LateEdits &LateDefs) {
  const FunctionDecl *FD = U.FD;
  CharSourceRange CR = declRange(FD);
  bool Device = false;
  for (const LoopPlan &L : N.Loops)
    Device |= L.Offload;
  Edits Ed;
  if (!cloneEdits(N, U, CR, Device, Ed))
    return false;
  // Inside the reopened namespace the declaration is unqualified
  // (`void phys::kick(...)` becomes `void kick(...)`).
  Edits Unq = Ed;
  unqualify(FD, Unq);
  CharSourceRange SigR = CharSourceRange::getCharRange(
      FD->getSourceRange().getBegin(), FD->getBody()->getBeginLoc());
  Edits SigEd;
  for (auto &E : Unq)
    if (SM.isBeforeInTranslationUnit(E.first.getBegin(),
                                     FD->getBody()->getBeginLoc()))
      SigEd.push_back(E);
  std::string Sig = withEdits(SigR, SigEd);
  while (!Sig.empty() && isWhitespace(Sig.back()))
    Sig.pop_back();
  Decls.add(namespaceOf(FD), "// soaview: clone of '" +
                                 FD->getQualifiedNameAsString() +
                                 "' for the view\n" + Sig + ";\n");
  cloneLookup(N, U, Decls);
  std::string Open = B.declareTargetBegin(Device) +
                     lineDirective(FD->getSourceRange().getBegin());
  std::string Close = "\n" + B.declareTargetEnd(Device);
  SourceLocation End = SM.getFileLoc(CR.getEnd());
  if (SM.isBeforeInTranslationUnit(End, AtLoc))
    Early.add(namespaceOf(FD), Open + withEdits(CR, Unq) + Close);
  else
    LateDefs.push_back({End, "\n" + Open + withEdits(CR, Ed) + Close});
  return true;
}

/// A call in a template is resolved at instantiation by argument-dependent
/// lookup on the view, which searches the element's namespace: make the
/// clone visible there when it lives elsewhere.
void Emitter::Impl::cloneLookup(const NestPlan &N, const CalleeUse &U,
                                Chunks &Decls) {
  const FunctionDecl *FD = U.FD;
  if (!N.InTemplate || !FD->getDeclName().isIdentifier() ||
      FD->isInAnonymousNamespace())
    return;
  std::set<const DeclContext *> Done;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    if (U.ParamViews[I] < 0)
      continue;
    const DeclContext *EN = namespaceOf(N.Loops[U.ParamViews[I]].View.Element);
    if (B.plainViewsNamespace() && Done.insert(EN).second) // views' own namespace
      Decls.add(EN, openGen() + "namespace { using ::" +
                        FD->getQualifiedNameAsString() +
                        "; } } // soaview: found by the view's lookup\n");
    else if (!B.plainViewsNamespace() && EN != namespaceOf(FD) &&
             !isa<TranslationUnitDecl>(EN) && Done.insert(EN).second)
      Decls.add(EN, "using ::" + FD->getQualifiedNameAsString() +
                        "; // soaview: found by the view's lookup\n");
  }
}

namespace {
/// The spellings of template type parameters in a type as written.
struct TypeParmUses : RecursiveASTVisitor<TypeParmUses> {
  std::vector<TemplateTypeParmTypeLoc> Found;
  bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc TL) {
    Found.push_back(TL);
    return true;
  }
};
} // namespace

std::string Emitter::Impl::splitTemplateClone(const CalleeUse &U) {
  const FunctionDecl *Pattern = U.FD->getTemplateInstantiationPattern();
  const FunctionTemplateDecl *FTD =
      Pattern ? Pattern->getDescribedFunctionTemplate() : nullptr;
  if (!FTD || FTD->getLocation().isMacroID())
    return "";
  // Which views each type parameter receives, in parameter order.
  std::map<const TemplateTypeParmDecl *, std::vector<int>> Views;
  std::vector<std::pair<TemplateTypeParmTypeLoc, int>> Uses;
  for (unsigned I = 0; I < Pattern->getNumParams() && I < U.ParamViews.size(); ++I) {
    TypeSourceInfo *TSI = Pattern->getParamDecl(I)->getTypeSourceInfo();
    if (U.ParamViews[I] < 0 || !TSI)
      continue;
    TypeParmUses T;
    T.TraverseTypeLoc(TSI->getTypeLoc());
    for (TemplateTypeParmTypeLoc TL : T.Found) {
      auto &Vs = Views[TL.getDecl()];
      if (llvm::find(Vs, U.ParamViews[I]) == Vs.end())
        Vs.push_back(U.ParamViews[I]);
      Uses.push_back({TL, U.ParamViews[I]});
    }
  }
  std::vector<std::pair<CharSourceRange, std::string>> Ed;
  std::string Added;
  for (auto &[TTP, Vs] : Views)
    for (size_t K = 1; K < Vs.size(); ++K)
      Added += ", class " + TTP->getName().str() + "_sv" + std::to_string(Vs[K]);
  if (Added.empty())
    return "";
  for (auto &[TL, V] : Uses) {
    const TemplateTypeParmDecl *TTP = TL.getDecl();
    if (Views[TTP].front() == V)
      continue;
    SourceLocation L = SM.getFileLoc(TL.getNameLoc());
    Ed.push_back({CharSourceRange::getCharRange(
                      L, L.getLocWithOffset(TTP->getName().size())),
                  TTP->getName().str() + "_sv" + std::to_string(V)});
  }
  SourceLocation RAngle = FTD->getTemplateParameters()->getRAngleLoc();
  Ed.push_back({CharSourceRange::getCharRange(RAngle, RAngle), Added});
  // Placed in the template's own namespace: an out-of-line definition
  // (`void ns::kernel(...)`) becomes an unqualified new overload there.
  unqualify(Pattern, Ed);
  CharSourceRange CR = declRange(FTD);
  identityEdits(CR, Ed, Identities);
  heapEdits(CR, Ed);
  return lineDirective(CR.getBegin()) + withEdits(CR, Ed);
}

bool Emitter::Impl::markDeviceFunctions(const NestPlan &N) {
  for (const FunctionDecl *FD : N.DeviceFunctions) {
    if (!MarkedDevice.insert(FD->getCanonicalDecl()).second)
      continue;
    for (const FunctionDecl *R : FD->redecls()) {
      SourceLocation L = SM.getFileLoc(R->getInnerLocStart());
      EditBuffer *EB = E.bufferFor(L);
      if (!EB)
        return false;
      EB->insert(SM.getFileOffset(L), "__host__ __device__ ");
    }
  }
  return true;
}

void Emitter::Impl::continueEdits(const LoopPlan &P, EditBuffer &EB) {
  for (const ContinueStmt *C : findLoopJumps(P.Form.Body).Continues) {
    unsigned B = SM.getFileOffset(SM.getFileLoc(C->getBeginLoc()));
    EB.replace(B, B + 8, "return");
  }
}

SourceLocation detail::afterStmt(const Stmt *S, const SourceManager &SM,
                                 const LangOptions &LO) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return CS->getRBracLoc().getLocWithOffset(1);
  SourceLocation End = SM.getFileLoc(S->getEndLoc());
  SourceLocation Semi = Lexer::findLocationAfterToken(
      End, tok::semi, SM, LO, /*SkipTrailingWhitespaceAndNewLine=*/false);
  if (Semi.isValid())
    return Semi;
  return Lexer::getLocForEndOfToken(End, 0, SM, LO);
}

/// The type of P's spec: named, or (in templates) selected by the element
/// type of the instantiation.
std::string Emitter::Impl::specType(const LoopPlan &P) {
  const LoopForm &F = P.Form;
  std::string Px = prefix(P);
  if (!P.InTemplate)
    return qualifiedView(P) + "_spec";
  std::string ElemExpr =
      F.Kind == LoopFormKind::Range
          ? std::string(rt::ElementOf) + "<decltype(" + Px + "range)>"
          : std::string(rt::TargetElement) + "<decltype(" + F.TargetName + ")>";
  return "decltype(" + selectName(P) + "((" + ElemExpr +
         " *)nullptr))";
}

/// 1. The attribute becomes a comment of the same length.
void Emitter::Impl::commentAttribute(const LoopAnnotation &A, EditBuffer &EB) {
  CharSourceRange AR = CharSourceRange::getCharRange(
      A.Written.getBegin(), A.Written.getEnd().getLocWithOffset(1));
  std::string AT = text(AR);
  for (size_t I; (I = AT.find("[[")) != std::string::npos;)
    AT.replace(I, 2, "/*");
  for (size_t I; (I = AT.find("]]")) != std::string::npos;)
    AT.replace(I, 2, "*/");
  EB.replace(SM.getFileOffset(AR.getBegin()), SM.getFileOffset(AR.getEnd()), AT);
}

/// The source text of an expression of the loop header.
std::string Emitter::Impl::exprText(const Expr *E) {
  SourceRange R = E->getSourceRange();
  return text(CharSourceRange::getCharRange(
      SM.getFileLoc(R.getBegin()),
      Lexer::getLocForEndOfToken(SM.getFileLoc(R.getEnd()), 0, SM, LO)));
}

/// 2. The prologue before `for`: the range or bounds, the site and the
/// frame that gathers the view.
std::string Emitter::Impl::prologue(const LoopPlan &P, const std::string &FrameT) {
  const LoopForm &F = P.Form;
  std::string Px = prefix(P);
  std::string Pro = "{ // soaview: " + remark(P).text() +
                    (P.Offload ? B.offloadedComment() : "") +
                    (P.DeviceInner ? "; on the device in the offloaded loop" : "") + "\n";
  std::string Site = "  static " + std::string(rt::Site) + " " + Px + "site(\"" +
                     siteWhere(P) + "\");\n";
  if (F.Kind == LoopFormKind::Range) {
    const auto *RF = cast<CXXForRangeStmt>(F.Loop);
    Pro += "  auto &&" + Px + "range = " + exprText(RF->getRangeInit()) +
           ";\n" + Site;
    Pro += "  " + FrameT + " " + Px + "frame(" + Px + "site, " + Px +
           "range);\n";
  } else {
    Pro += "  const " + typeName(F.IndexVar->getType().getUnqualifiedType()) +
           " " + Px + "lo = " + exprText(F.Lo) + ";\n" + Site;
    Pro += "  " + FrameT + " " + Px + "frame(" + Px + "site, " +
           rt::IndexSpanOf + "(" + F.TargetName + ", " + Px + "lo, " +
           exprText(F.Hi) + "));\n";
  }
  return Pro;
}

/// The declarations opening the body: the element's view from ViewInit,
/// named as the loop variable (range loops) or as the target (index loops).
std::string Emitter::Impl::elementDecls(const LoopPlan &P,
                                        const std::string &ViewInit) {
  const LoopForm &F = P.Form;
  std::string Px = prefix(P);
  if (F.Kind == LoopFormKind::Range)
    return " auto " + Px + "view = " + ViewInit + "; " +
           (F.VarIsConst ? "const " : "") +
           (F.VarIsPointer ? "auto *" : "auto &") + F.LoopVar->getName().str() +
           " = " + (F.VarIsPointer ? "&" : "") + Px + "view;";
  std::string Alias = F.ShadowedUses.empty()
                          ? ""
                          : " auto &" + Px + "target = " + F.TargetName + ";";
  return " auto " + Px + "view = " + ViewInit + "; " + rt::IndexShadow +
         "<decltype(" + Px + "view)> " + F.TargetName + "{" + Px + "view};" +
         Alias;
}

/// A loop on the device: host gather, device copies, the loop over the
/// device buffers (an OpenMP target region or a kernel's lambda); the device
/// frame copies the written fields back before the scatter. The inner loop
/// of an offloaded nest builds its device frame before the target region
/// and runs inside it.
Emitter::Impl::LoopText Emitter::Impl::deviceLoop(const LoopPlan &P,
                                                  const std::string &SpecT) {
  const LoopForm &F = P.Form;
  std::string Px = prefix(P);
  LoopText T;
  T.Pro = heapScope(P, Px); // before the device frame: ends after it
  T.Pro += "  using " + Px + "spec = " + SpecT + ";\n";
  T.Pro += "  " + B.deviceNamespace() + rt::DeviceFrame + "<" + Px + "spec> " +
           Px + "device(" + Px + "site, " + Px + "frame);\n";
  T.Pro += "  const auto " + Px + "buffers = " + Px + "device.buffers();\n";
  T.Pro += "  const std::size_t " + Px + "n = " + Px + "device.size();\n";
  std::string K = F.Kind == LoopFormKind::Range ? Px + "i" : Px + "k";
  T.Header = "(std::size_t " + K + " = 0; " + K + " < " + Px + "n; ++" + K + ")";
  if (P.Offload && B.bodyIsKernelLambda()) {
    T.Header = B.launchHeader(Px, K);
    T.LambdaBody = true;
  } else if (P.Offload) {
    std::string Captures = Px + "buffers";
    for (const LoopPlan *In : P.DeviceInners)
      Captures += ", " + prefix(*In) + "buffers";
    T.Pro += B.launchPrologue(Px, Captures);
  }
  std::string Idx;
  if (F.Kind == LoopFormKind::Index) {
    std::string IT = typeName(F.IndexVar->getType().getUnqualifiedType());
    Idx = " const " + IT + " " + F.IndexVar->getName().str() + " = static_cast<" +
          IT + ">(" + Px + "lo + " + K + ");";
  }
  T.BodyDecls = Idx + elementDecls(P, Px + "spec::at(" + Px + "buffers, " + K + ")");
  return T;
}

/// A loop on the host, over the frame's slots.
Emitter::Impl::LoopText Emitter::Impl::hostLoop(const LoopPlan &P,
                                                bool EachSlot) {
  const LoopForm &F = P.Form;
  std::string Px = prefix(P);
  LoopText T;
  if (EachSlot) {
    T.Header = Px + "frame.each([&](std::size_t " + Px +
               "slot) __attribute__((always_inline))";
    T.BodyDecls = elementDecls(P, Px + "frame.at_slot(" + Px + "slot)");
    T.LambdaBody = true;
  } else if (F.Kind == LoopFormKind::Range) {
    T.Header = "(std::size_t " + Px + "i = 0; " + Px + "i < " + Px +
               "frame.size(); ++" + Px + "i)";
    T.BodyDecls = elementDecls(P, Px + "frame.at(" + Px + "i)");
  } else {
    T.BodyDecls = elementDecls(P, Px + "frame.at(static_cast<std::size_t>(" +
                                      F.IndexVar->getName().str() + " - " +
                                      Px + "lo))");
  }
  return T;
}

/// The whole text of a rewritten loop, before placing it.
Emitter::Impl::LoopText Emitter::Impl::loopText(const LoopPlan &P) {
  const LoopForm &F = P.Form;
  std::string SpecT = specType(P);
  bool Scatter = !(F.Kind == LoopFormKind::Range && F.VarIsCopy);
  std::string Args = SpecT + (Scatter ? "" : ", false");
  // Offloaded views gather into pinned host memory (fast device copies).
  std::string FrameT = onDevice(P)
                           ? B.deviceNamespace() + rt::HostFrame + "<" + Args + ">"
                           : std::string(rt::Frame) + "<" + Args + ">";
  // A host loop over pointers that writes its elements picks each
  // element's slot through the frame's repeat map (remap), an indirection
  // that keeps the compiler from vectorising the loop. Its body becomes a
  // lambda that the frame's each() calls with the slot: directly indexed
  // when the range holds no element twice. Not for a loop around a loop
  // with a run-time trip count (the outer loop of a nest): the compiler
  // would not vectorise it, and each() would only compile its body twice.
  const bool EachSlot = !onDevice(P) && F.Kind == LoopFormKind::Range &&
                        F.VarIsPointer && Scatter && P.View.writes() &&
                        !hasRuntimeLoop(F.Body, Ctx) && bodyFitsLambda(F.Body);
  LoopText T = onDevice(P) ? deviceLoop(P, SpecT) : hostLoop(P, EachSlot);
  T.Pro = prologue(P, FrameT) + T.Pro;
  return T;
}

/// The header replaces `(...)`, or with a lambda body `for (...)` (the call
/// starts after the prologue); the prologue goes before the loop, or before
/// the loop a hoisted view is built before. A hoisted view lives until that
/// loop ends; its block opens before (and closes after) the blocks of the
/// loops in between.
void Emitter::Impl::placeHeader(const LoopPlan &P, LoopText &T, EditBuffer &EB) {
  const LoopForm &F = P.Form;
  const LoopAnnotation &A = *P.Annotation;
  if (!T.Header.empty()) {
    SourceLocation LParen = Lexer::findNextToken(A.ForLoc, SM, LO)->getLocation();
    SourceLocation RParen = rparen(F);
    if (T.LambdaBody)
      EB.replace(SM.getFileOffset(A.ForLoc), SM.getFileOffset(RParen) + 1,
                 T.Header, 1);
    else
      EB.replace(SM.getFileOffset(LParen), SM.getFileOffset(RParen) + 1,
                 T.Header);
  }
  int Levels = (int)P.HoistLevels;
  SourceLocation ProAt = A.ForLoc;
  if (P.HoistTo) {
    ProAt = SM.getFileLoc(P.HoistTo->getBeginLoc());
    T.Pro = "{ // soaview: hoisted " + std::to_string(Levels) +
            " level(s) out of the loop at " + siteWhere(P) + "\n" +
            T.Pro.substr(T.Pro.find('\n') + 1);
  }
  EB.insert(SM.getFileOffset(ProAt), T.Pro, -Levels);
  std::string Px = prefix(P);
  for (const DeclRefExpr *U : F.ShadowedUses) {
    unsigned Bg = SM.getFileOffset(SM.getFileLoc(U->getLocation()));
    EB.replace(Bg, Bg + (unsigned)F.TargetName.size(), Px + "target");
  }
}

/// 3. The view's declarations at the top of the body, and the blocks'
/// (and a lambda's call's) ends after it.
void Emitter::Impl::placeBody(const LoopPlan &P, const LoopText &T,
                              EditBuffer &EB) {
  const Stmt *Body = P.Form.Body;
  std::string Close = P.HoistTo ? "" : " }";
  if (T.LambdaBody) // the lambda and the call end after the body
    Close = ");" + Close;
  openBody(P.Form, T.BodyDecls, EB);
  if (!Close.empty())
    EB.insert(SM.getFileOffset(afterStmt(Body, SM, LO)), Close);
  if (T.LambdaBody)
    continueEdits(P, EB);
  if (P.HoistTo)
    EB.insert(SM.getFileOffset(afterStmt(P.HoistTo, SM, LO)), " }",
              (int)P.HoistLevels);
}

/// The view's declarations open the body on the line of the loop's header:
/// the body's first statement keeps a line of its own (a `#line` puts it
/// back at its place when it shared the header's line).
void Emitter::Impl::openBody(const LoopForm &F, const std::string &Decls,
                             EditBuffer &EB) {
  const Stmt *Body = F.Body;
  auto Line = [&](SourceLocation L) {
    return SM.getPresumedLineNumber(SM.getFileLoc(L));
  };
  if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
    SourceLocation Next = CS->body_empty() ? CS->getRBracLoc()
                                           : CS->body_front()->getBeginLoc();
    bool OwnLine = Line(Next) != Line(CS->getLBracLoc());
    EB.insert(SM.getFileOffset(CS->getLBracLoc()) + 1,
              Decls + (OwnLine ? "" : "\n"));
    return;
  }
  SourceLocation RParen = rparen(F);
  SourceLocation Begin = SM.getFileLoc(Body->getBeginLoc());
  if (Line(Begin) != Line(RParen))
    EB.insert(SM.getFileOffset(RParen) + 1, " {" + Decls);
  else
    EB.insert(SM.getFileOffset(Begin), "{" + Decls + "\n");
  EB.insert(SM.getFileOffset(afterStmt(Body, SM, LO)), " }");
}

/// 4. Element addresses compared in the body compare the originals; local
/// aliases of the element (`Particle &q = *p`) become `auto &q = *p`.
void Emitter::Impl::bodyEdits(const LoopPlan &P, EditBuffer &EB) {
  const Stmt *Body = P.Form.Body;
  SourceLocation BodyEnd = afterStmt(Body, SM, LO);
  Edits Ed;
  identityEdits(CharSourceRange::getCharRange(Body->getBeginLoc(), BodyEnd),
                Ed, P.Identities);
  for (auto &[R, T] : Ed) {
    EB.insert(SM.getFileOffset(R.getBegin()), std::string(rt::Identity) + "(");
    EB.insert(SM.getFileOffset(R.getEnd()), ")");
  }
  for (const VarDecl *V : P.View.Aliases) {
    if (!SM.isBeforeInTranslationUnit(Body->getBeginLoc(), V->getLocation()) ||
        !SM.isBeforeInTranslationUnit(V->getLocation(), BodyEnd))
      continue;
    if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
      CharSourceRange RT =
          recordTypeRange(TSI->getTypeLoc(), P.View.Element, SM, LO);
      if (RT.isValid())
        EB.replace(SM.getFileOffset(RT.getBegin()),
                   SM.getFileOffset(RT.getEnd()), "auto");
    }
  }
}

bool Emitter::Impl::emitLoop(const LoopPlan &P) {
  EditBuffer *EB = E.bufferFor(P.Annotation->ForLoc);
  if (!EB)
    return false;
  commentAttribute(*P.Annotation, *EB);
  LoopText T = loopText(P);
  placeHeader(P, T, *EB);
  placeBody(P, T, *EB);
  bodyEdits(P, *EB);
  return true;
}

Emitter::Emitter(ASTContext &Ctx, DiagStore &Diags, BackendKind Kind)
    : B(makeBackend(Kind, Ctx.getLangOpts().OpenMP)),
      P(std::make_unique<Impl>(Ctx, Diags, *this, *B)) {}
Emitter::~Emitter() = default;

bool Emitter::emitNest(const NestPlan &Nest) { return P->emitNest(Nest); }
bool Emitter::emitLoop(const LoopPlan &Plan) { return P->emitLoop(Plan); }
bool Emitter::emitSweep(const NestPlan &Nest) { return P->emitSweep(Nest); }
Msg Emitter::remark(const LoopPlan &Plan, const std::string &Where) const {
  return P->remark(Plan, Where);
}

Msg Emitter::Impl::remark(const LoopPlan &Plan, const std::string &Where) const {
  std::string In, Out;
  for (auto &[Path, A] : Plan.View.orderedLeaves()) {
    if (A.Read)
      In += (In.empty() ? "" : ", ") + dotted(Path);
    if (A.Written)
      Out += (Out.empty() ? "" : ", ") + dotted(Path);
  }
  ViewSize S = viewSize(Ctx, Plan);
  return {diag::remark_converted,
          {qualifiedName(Ctx, Plan.View.ElementType), In, Out,
           std::to_string(S.GatherBytes), std::to_string(S.ScatterBytes), Where}};
}

EditBuffer *Emitter::bufferFor(SourceLocation L) {
  SourceManager &SM = P->SM;
  L = SM.getFileLoc(L);
  FileID FID = SM.getFileID(L);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  if (!FE || SM.isInSystemHeader(L))
    return nullptr;
  std::string Name = FE->getName().str();
  auto &B = Buffers[Name];
  if (!B)
    B = std::make_unique<EditBuffer>(SM.getPresumedLoc(SM.getLocForStartOfFile(FID)).getFilename(),
                                     SM.getBufferData(FID));
  return B.get();
}

} // namespace soaview