//===- Emit.cpp - generate the view code for analysed loops ---------------===//
//
// Generated names depend only on the loop's file name, line and column and
// the element type, never on addresses or parse order, so host and device
// compiles (and repeated compiles) agree.
//
// Layout of what is inserted before the declaration that holds the loop (or,
// for templates, the point of instantiation), in the element's namespace:
//   struct __soaview_<E>_<site>;             proxy, forward declared
//   <clone declarations>                      in their own namespaces
//   struct __soaview_<E>_<site> { ... };      proxy: references + methods
//   struct __soaview_<E>_<site>_spec { ... }; buffers, gather, scatter
// Tests: test/Rewrite/*.
//===----------------------------------------------------------------------===//
#include "EmitImpl.h"
#include "LoopForms.h"

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

/// Finds the TypeLoc that names Record inside a declarator's type (through
/// references, pointers and qualifiers); returns its character range.
CharSourceRange recordTypeRange(TypeLoc TL, const RecordDecl *Record,
                                const SourceManager &SM,
                                const LangOptions &LO) {
  while (!TL.isNull()) {
    if (auto Q = TL.getAs<QualifiedTypeLoc>()) {
      TL = Q.getUnqualifiedLoc();
      continue;
    }
    if (auto R = TL.getAs<ReferenceTypeLoc>()) {
      TL = R.getPointeeLoc();
      continue;
    }
    if (auto P = TL.getAs<PointerTypeLoc>()) {
      TL = P.getPointeeLoc();
      continue;
    }
    if (TL.getType()->getAsRecordDecl() &&
        TL.getType()->getAsRecordDecl()->getCanonicalDecl() ==
            Record->getCanonicalDecl()) {
      if (TL.getType()->getAs<AutoType>() ||
          TL.getType()->getAs<DeducedType>())
        return {};
      SourceRange R = TL.getSourceRange();
      if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
        return {};
      return CharSourceRange::getCharRange(
          R.getBegin(), Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO));
    }
    return {};
  }
  return {};
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

using namespace detail;

const Decl *Emitter::Impl::insertionDecl(const LoopPlan &P) {
  const Decl *D = P.Form.Function;
  if (P.InTemplate) {
    // Views of instantiations go before the declaration that instantiates.
    SourceLocation POI = SM.getFileLoc(P.Form.Function->getPointOfInstantiation());
    const Decl *Best = nullptr;
    std::function<void(const DeclContext *)> Walk = [&](const DeclContext *DC) {
      for (const Decl *C : DC->decls()) {
        if (C->isImplicit())
          continue;
        SourceRange R = C->getSourceRange();
        if (R.isInvalid())
          continue;
        SourceLocation B = SM.getFileLoc(R.getBegin()),
                       En = SM.getFileLoc(R.getEnd());
        if (SM.isBeforeInTranslationUnit(POI, B) ||
            SM.isBeforeInTranslationUnit(En, POI))
          continue;
        if (isa<NamespaceDecl>(C) || isa<LinkageSpecDecl>(C)) {
          Walk(cast<DeclContext>(C));
          if (!Best)
            Best = C;
          return;
        }
        Best = C;
        return;
      }
    };
    Walk(Ctx.getTranslationUnitDecl());
    if (Best && !isa<NamespaceDecl>(Best) && !isa<LinkageSpecDecl>(Best))
      return Best;
    if (const FunctionDecl *Pat = P.Form.Function->getTemplateInstantiationPattern())
      D = Pat;
  }
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate())
      D = FTD;
  while (true) {
    const DeclContext *DC = D->getLexicalDeclContext();
    if (isa<TranslationUnitDecl>(DC) || isa<NamespaceDecl>(DC) ||
        isa<LinkageSpecDecl>(DC))
      return D;
    D = cast<Decl>(DC);
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
      if (const ClassTemplateDecl *CTD = RD->getDescribedClassTemplate())
        D = CTD;
  }
}

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
    Ed.push_back({ER, "::soaview::identity(" + text(ER) + ")"});
  }
}

bool Emitter::Impl::emitNest(const NestPlan &N) {
  const LoopPlan &P0 = N.Loops[0];
  Identities.clear();
  for (const LoopPlan &L : N.Loops)
    Identities.insert(Identities.end(), L.Identities.begin(),
                      L.Identities.end());
  const Decl *At = insertionDecl(P0);
  SourceLocation AtLoc = SM.getFileLoc(At->getSourceRange().getBegin());
  if (SM.isInSystemHeader(AtLoc)) {
    Diags.error(P0.Annotation->ForLoc,
                "cannot convert loop: its views would go into a system header");
    return false;
  }
  for (const LoopPlan &P : N.Loops) {
    const CXXRecordDecl *Elem = P.View.Element;
    if (!SM.isBeforeInTranslationUnit(Elem->getSourceRange().getEnd(), AtLoc)) {
      StoredDiag &D = Diags.error(P.Annotation->ForLoc,
                                  "cannot convert loop: element type '" +
                                      Elem->getNameAsString() +
                                      "' is not defined at namespace scope "
                                      "before the function holding the loop");
      Diags.note(D, Elem->getLocation(), "defined here");
      return false;
    }
  }
  Chunks Fwd, Decls, Main, Early;
  for (const LoopPlan &P : N.Loops)
    viewChunks(P, Fwd, Main);

  // Clones of free functions receiving elements, one per binding.
  std::vector<std::pair<SourceLocation, std::string>> LateDefs;
  for (const CalleeUse &U : N.Callees) {
    if (!U.NeedsClone) {
      std::string Clone = splitTemplateClone(U);
      if (Clone.empty() || !DoneSplitClones.insert(Clone).second)
        continue;
      Decls.add(namespaceOf(U.FD->getTemplateInstantiationPattern()),
                "// soaview: clone of '" + U.FD->getQualifiedNameAsString() +
                    "' taking the views of two loops\n" + Clone + "\n");
      continue;
    }
    const FunctionDecl *FD = U.FD;
    SourceRange R = FD->getSourceRange();
    CharSourceRange CR = declRange(FD);
    std::vector<std::pair<CharSourceRange, std::string>> Ed;
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      if (U.ParamViews[I] < 0)
        continue;
      const LoopPlan &VP = N.Loops[U.ParamViews[I]];
      TypeSourceInfo *TSI = FD->getParamDecl(I)->getTypeSourceInfo();
      CharSourceRange RT =
          TSI ? recordTypeRange(TSI->getTypeLoc(), VP.View.Element, SM, LO)
              : CharSourceRange();
      if (RT.isInvalid()) {
        Diags.error(FD->getParamDecl(I)->getLocation(),
                    "cannot convert loop: cannot rewrite the type of this "
                    "parameter for the view");
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
    bool Device = false;
    for (const LoopPlan &L : N.Loops)
      Device |= L.Offload;
    if (Device && Cuda) // the clone runs in the kernel
      Ed.push_back({CharSourceRange::getCharRange(FD->getInnerLocStart(),
                                                  FD->getInnerLocStart()),
                    "__host__ __device__ "});
    std::string Full = withEdits(CR, Ed);
    // Inside the reopened namespace the declaration is unqualified
    // (`void phys::kick(...)` becomes `void kick(...)`).
    auto Unq = Ed;
    unqualify(FD, Unq);
    std::string FullUnq = withEdits(CR, Unq);
    CharSourceRange SigR = CharSourceRange::getCharRange(
        R.getBegin(), FD->getBody()->getBeginLoc());
    std::vector<std::pair<CharSourceRange, std::string>> SigEd;
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
    // A call in a template is resolved at instantiation by argument-
    // dependent lookup on the view, which searches the element's namespace:
    // make the clone visible there when it lives elsewhere.
    if (N.InTemplate && FD->getDeclName().isIdentifier() &&
        !FD->isInAnonymousNamespace()) {
      std::set<const DeclContext *> Done;
      for (unsigned I = 0; I < FD->getNumParams(); ++I) {
        if (U.ParamViews[I] < 0)
          continue;
        const DeclContext *EN = namespaceOf(N.Loops[U.ParamViews[I]].View.Element);
        if (Cuda && Done.insert(EN).second) // views in a plain unnamed namespace
          Decls.add(EN, "namespace { using ::" + FD->getQualifiedNameAsString() +
                            "; } // soaview: found by the view's lookup\n");
        else if (!Cuda && EN != namespaceOf(FD) && !isa<TranslationUnitDecl>(EN) &&
            Done.insert(EN).second)
          Decls.add(EN, "using ::" + FD->getQualifiedNameAsString() +
                            "; // soaview: found by the view's lookup\n");
      }
    }
    std::string Line = lineDirective(R.getBegin());
    SourceLocation End = SM.getFileLoc(CR.getEnd());
    bool OmpDevice = Device && !Cuda;
    std::string Open = OmpDevice ? "#pragma omp declare target\n" : "";
    std::string Close = OmpDevice ? "#pragma omp end declare target\n" : "";
    if (SM.isBeforeInTranslationUnit(End, AtLoc))
      Early.add(namespaceOf(FD), Open + Line + FullUnq + "\n" + Close);
    else
      LateDefs.push_back({End, "\n" + Open + Line + Full + "\n" + Close});
  }

  if (Cuda && !markDeviceFunctions(N))
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
    unsigned B = SM.getFileOffset(SM.getFileLoc(C->getContinueLoc()));
    EB.replace(B, B + 8, "return");
  }
}

/// Position after the statement's last character (including its ';').
static SourceLocation afterStmt(const Stmt *S, const SourceManager &SM,
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

bool Emitter::Impl::emitLoop(const LoopPlan &P) {
  const LoopForm &F = P.Form;
  const LoopAnnotation &A = *P.Annotation;
  EditBuffer *EB = E.bufferFor(A.ForLoc);
  if (!EB)
    return false;
  std::string Px = prefix(P);
  std::string SpecT;
  if (P.InTemplate) {
    std::string ElemExpr =
        F.Kind == LoopFormKind::Range
            ? "::soaview::element_of_t<decltype(" + Px + "range)>"
            : "::soaview::target_element_t<decltype(" + F.TargetName + ")>";
    SpecT = "decltype(__soaview_select_" + siteTag(P) + "((" + ElemExpr +
            " *)nullptr))";
  } else {
    SpecT = qualifiedView(P) + "_spec";
  }

  // 1. The attribute becomes a comment of the same length.
  CharSourceRange AR = CharSourceRange::getCharRange(
      A.Written.getBegin(), A.Written.getEnd().getLocWithOffset(1));
  std::string AT = text(AR);
  for (size_t I; (I = AT.find("[[")) != std::string::npos;)
    AT.replace(I, 2, "/*");
  for (size_t I; (I = AT.find("]]")) != std::string::npos;)
    AT.replace(I, 2, "*/");
  EB->replace(SM.getFileOffset(AR.getBegin()), SM.getFileOffset(AR.getEnd()),
              AT);

  // 2. Prologue before `for`.
  std::string Pro = "{ // soaview: " + E.remark(P) +
                    (P.Offload ? Cuda ? "; offloaded (CUDA kernel)" : "; offloaded" : "") +
                    (P.DeviceInner ? "; on the device in the offloaded loop" : "") + "\n";
  std::string Site = "  static ::soaview::site " + Px + "site(\"" +
                     siteWhere(P) + "\");\n";
  bool Scatter = !(F.Kind == LoopFormKind::Range && F.VarIsCopy);
  const bool Device = P.Offload || P.DeviceInner;
  // The CUDA backend runs the offloaded loop's body as a kernel's lambda.
  const bool CudaKernel = P.Offload && Cuda;
  // Offloaded views gather into pinned host memory (fast device copies).
  const std::string Ns = Cuda ? "::soaview::cuda::" : "::soaview::omp::";
  std::string FrameT =
      Device ? Ns + "host_frame<" + SpecT + (Scatter ? "" : ", false") + ">"
                : "::soaview::frame<" + SpecT + (Scatter ? "" : ", false") + ">";
  // A host loop over pointers that writes its elements picks each
  // element's slot through the frame's repeat map (remap), an indirection
  // that keeps the compiler from vectorising the loop. Its body becomes a
  // lambda that the frame's each() calls with the slot: directly indexed
  // when the range holds no element twice.
  const bool EachSlot = !Device && F.Kind == LoopFormKind::Range &&
                        F.VarIsPointer && Scatter && P.View.writes() &&
                        bodyFitsLambda(F.Body);
  // The body becomes a lambda's: `for (...)` is replaced, `);` closes it.
  const bool LambdaBody = CudaKernel || EachSlot;
  std::string BodyDecls;
  std::string Header; // replaces the loop header when set
  auto T = [&](SourceRange R) {
    return text(CharSourceRange::getCharRange(
        SM.getFileLoc(R.getBegin()),
        Lexer::getLocForEndOfToken(SM.getFileLoc(R.getEnd()), 0, SM, LO)));
  };
  if (F.Kind == LoopFormKind::Range) {
    const auto *RF = cast<CXXForRangeStmt>(F.Loop);
    Pro += "  auto &&" + Px + "range = " + T(RF->getRangeInit()->getSourceRange()) +
           ";\n" + Site;
    Pro += "  " + FrameT + " " + Px + "frame(" + Px + "site, " + Px +
           "range);\n";
  } else {
    Pro += "  const " + typeName(F.IndexVar->getType().getUnqualifiedType()) +
           " " + Px + "lo = " + T(F.Lo->getSourceRange()) + ";\n" + Site;
    Pro += "  " + FrameT + " " + Px + "frame(" + Px +
           "site, ::soaview::index_span_of(" + F.TargetName + ", " + Px +
           "lo, " + T(F.Hi->getSourceRange()) + "));\n";
  }
  std::string Var = F.Kind == LoopFormKind::Range ? F.LoopVar->getName().str() : "";
  std::string Const = F.VarIsConst ? "const " : "";
  auto ElementDecls = [&](const std::string &ViewInit) {
    if (F.Kind == LoopFormKind::Range)
      return " auto " + Px + "view = " + ViewInit + "; " + Const +
             (F.VarIsPointer ? "auto *" : "auto &") + Var + " = " +
             (F.VarIsPointer ? "&" : "") + Px + "view;";
    std::string Alias = F.ShadowedUses.empty()
                            ? ""
                            : " auto &" + Px + "target = " + F.TargetName + ";";
    return " auto " + Px + "view = " + ViewInit + "; ::soaview::index_shadow<decltype(" +
           Px + "view)> " + F.TargetName + "{" + Px + "view};" + Alias;
  };
  if (Device) {
    // Host gather, device copies, a target region over the device buffers;
    // the device frame copies the written fields back before the scatter.
    // The inner loop of an offloaded nest builds its device frame before
    // the target region and runs inside it.
    Pro += "  using " + Px + "spec = " + SpecT + ";\n";
    Pro += "  " + Ns + "device_frame<" + Px + "spec> " + Px + "device(" +
           Px + "site, " + Px + "frame);\n";
    Pro += "  const auto " + Px + "buffers = " + Px + "device.buffers();\n";
    Pro += "  const std::size_t " + Px + "n = " + Px + "device.size();\n";
    if (CudaKernel) {
      // The body becomes a __device__ lambda that the device frame's
      // grid-stride kernel calls once per element; it captures by value.
    } else if (P.Offload) {
      std::string Captures = Px + "buffers";
      for (const LoopPlan *In : P.DeviceInners)
        Captures += ", " + prefix(*In) + "buffers";
      Pro += "  const int " + Px + "dev = " + Px + "device.device();\n";
      Pro += "#pragma omp target teams distribute parallel for firstprivate(" +
             Captures + ") device(" + Px + "dev)\n";
    }
    std::string K = F.Kind == LoopFormKind::Range ? Px + "i" : Px + "k";
    Header = "(std::size_t " + K + " = 0; " + K + " < " + Px + "n; ++" + K + ")";
    if (CudaKernel)
      Header = Px + "device.launch([=] __device__ (std::size_t " + K + ")";
    std::string Idx;
    if (F.Kind == LoopFormKind::Index)
      Idx = " const " + typeName(F.IndexVar->getType().getUnqualifiedType()) + " " +
            F.IndexVar->getName().str() + " = static_cast<" +
            typeName(F.IndexVar->getType().getUnqualifiedType()) + ">(" + Px +
            "lo + " + K + ");";
    BodyDecls = Idx + ElementDecls(Px + "spec::at(" + Px + "buffers, " + K + ")");
  } else if (EachSlot) {
    Header = Px + "frame.each([&](std::size_t " + Px +
             "slot) __attribute__((always_inline))";
    BodyDecls = ElementDecls(Px + "frame.at_slot(" + Px + "slot)");
  } else if (F.Kind == LoopFormKind::Range) {
    Header = "(std::size_t " + Px + "i = 0; " + Px + "i < " + Px +
             "frame.size(); ++" + Px + "i)";
    BodyDecls = ElementDecls(Px + "frame.at(" + Px + "i)");
  } else {
    BodyDecls = ElementDecls(Px + "frame.at(static_cast<std::size_t>(" +
                             F.IndexVar->getName().str() + " - " + Px + "lo))");
  }
  if (!Header.empty()) {
    SourceLocation LParen =
        Lexer::findNextToken(A.ForLoc, SM, LO)->getLocation();
    SourceLocation RParen = F.Kind == LoopFormKind::Range
                                ? cast<CXXForRangeStmt>(F.Loop)->getRParenLoc()
                                : cast<ForStmt>(F.Loop)->getRParenLoc();
    if (LambdaBody) // `for (...)` becomes the call; after the prologue
      EB->replace(SM.getFileOffset(A.ForLoc), SM.getFileOffset(RParen) + 1,
                  Header, 1);
    else
      EB->replace(SM.getFileOffset(LParen), SM.getFileOffset(RParen) + 1, Header);
  }
  // A hoisted view is built before the loop n levels out and lives until
  // that loop ends; its block opens before (and closes after) the blocks of
  // the loops in between.
  int Levels = (int)P.HoistLevels;
  SourceLocation ProAt = A.ForLoc;
  if (P.HoistTo) {
    ProAt = SM.getFileLoc(P.HoistTo->getBeginLoc());
    Pro = "{ // soaview: hoisted " + std::to_string(Levels) +
          " level(s) out of the loop at " + siteWhere(P) + "\n" +
          Pro.substr(Pro.find('\n') + 1);
  }
  EB->insert(SM.getFileOffset(ProAt), Pro, -Levels);
  for (const DeclRefExpr *U : F.ShadowedUses) {
    unsigned B = SM.getFileOffset(SM.getFileLoc(U->getLocation()));
    EB->replace(B, B + (unsigned)F.TargetName.size(), Px + "target");
  }

  // 3. Proxy declarations at the top of the body.
  const Stmt *Body = F.Body;
  SourceLocation BodyEnd = afterStmt(Body, SM, LO);
  std::string Close = P.HoistTo ? "" : " }";
  if (LambdaBody) // the lambda and the call end after the body
    Close = ");" + Close;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
    EB->insert(SM.getFileOffset(CS->getLBracLoc()) + 1, BodyDecls);
    if (!Close.empty())
      EB->insert(SM.getFileOffset(BodyEnd), Close);
  } else {
    EB->insert(SM.getFileOffset(SM.getFileLoc(Body->getBeginLoc())),
               "{" + BodyDecls + " ");
    EB->insert(SM.getFileOffset(BodyEnd), " }" + Close);
  }
  if (LambdaBody)
    continueEdits(P, *EB);
  if (P.HoistTo)
    EB->insert(SM.getFileOffset(afterStmt(P.HoistTo, SM, LO)), " }", Levels);

  // Element addresses compared in the body: compare the originals.
  {
    std::vector<std::pair<CharSourceRange, std::string>> Ed;
    identityEdits(CharSourceRange::getCharRange(Body->getBeginLoc(), BodyEnd),
                  Ed, P.Identities);
    for (auto &[R, T] : Ed) {
      EB->insert(SM.getFileOffset(R.getBegin()), "::soaview::identity(");
      EB->insert(SM.getFileOffset(R.getEnd()), ")");
    }
  }

  // 4. Local aliases of the element in the loop body: `Particle &q = *p`
  //    becomes `auto &q = *p`.
  for (const VarDecl *V : P.View.Aliases) {
    if (!SM.isBeforeInTranslationUnit(Body->getBeginLoc(), V->getLocation()) ||
        !SM.isBeforeInTranslationUnit(V->getLocation(), BodyEnd))
      continue;
    if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
      CharSourceRange RT =
          recordTypeRange(TSI->getTypeLoc(), P.View.Element, SM, LO);
      if (RT.isValid())
        EB->replace(SM.getFileOffset(RT.getBegin()),
                    SM.getFileOffset(RT.getEnd()), "auto");
    }
  }
  return true;
}

Emitter::Emitter(ASTContext &Ctx, DiagStore &Diags, bool Cuda)
    : P(std::make_unique<Impl>(Ctx, Diags, *this, Cuda)) {}
Emitter::~Emitter() = default;

bool Emitter::emitNest(const NestPlan &Nest) { return P->emitNest(Nest); }
bool Emitter::emitLoop(const LoopPlan &Plan) { return P->emitLoop(Plan); }
std::string Emitter::remark(const LoopPlan &Plan) const {
  const ViewModel &V = Plan.View;
  std::string In, Out;
  uint64_t G = 0, S = 0;
  for (auto &[Path, A] : V.orderedLeaves()) {
    uint64_t B = P->Ctx.getTypeSizeInChars(Path.back()->getType()).getQuantity();
    G += B;
    if (A.Read)
      In += (In.empty() ? "" : ", ") + dotted(Path);
    if (A.Written) {
      Out += (Out.empty() ? "" : ", ") + dotted(Path);
      S += B;
    }
  }
  bool Copy = Plan.Form.Kind == LoopFormKind::Range && Plan.Form.VarIsCopy;
  if (Copy)
    S = 0;
  return "view of '" + qualifiedName(P->Ctx, Plan.View.ElementType) + "' in {" + In +
         "} out {" + Out + "} (gather " + std::to_string(G) + " B, scatter " +
         std::to_string(S) + " B per element)";
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