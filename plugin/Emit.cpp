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
#include "Emit.h"

#include "Annotations.h"
#include "Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace clang;

namespace soaview {

namespace {

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
    S += (S.empty() ? "" : "_") + F->getName().str();
  return S;
}

struct ProxyNode {
  const FieldDecl *Field = nullptr; // null for the root
  FieldPath Path;
  bool Leaf = false;
  std::vector<std::unique_ptr<ProxyNode>> Kids;
};

/// Text of the namespace-scope chunks to insert at one place, merged so that
/// consecutive chunks in the same namespace share one block.
class Chunks {
public:
  void add(const DeclContext *NS, std::string Text) {
    if (!Items.empty() && Items.back().first == NS) {
      Items.back().second += Text;
      return;
    }
    Items.push_back({NS, std::move(Text)});
  }
  void append(const Chunks &O) {
    for (auto &[NS, T] : O.Items)
      add(NS, T);
  }
  std::string render(const DeclContext *Here) const {
    std::string Out;
    auto Here_ = openers(Here);
    if (Items.empty())
      return Out;
    for (size_t I = 0; I < Here_.size(); ++I)
      Out += "} ";
    if (!Here_.empty())
      Out += "// soaview: leave the namespace to emit views\n";
    for (auto &[NS, Text] : Items) {
      auto O = openers(NS);
      for (auto &S : O)
        Out += S + " ";
      if (!O.empty())
        Out += "\n";
      Out += Text;
      for (size_t I = 0; I < O.size(); ++I)
        Out += "} ";
      if (!O.empty())
        Out += "\n";
    }
    for (auto &S : Here_)
      Out += S + " ";
    return Out;
  }

private:
  std::vector<std::pair<const DeclContext *, std::string>> Items;
};

} // namespace

class Emitter::Impl {
public:
  Impl(ASTContext &Ctx, DiagStore &Diags, Emitter &E)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        Diags(Diags), E(E), Policy(Ctx.getPrintingPolicy()) {
    Policy.SuppressUnwrittenScope = true;
    Policy.AnonymousTagLocations = false;
    Policy.SuppressTagKeyword = true;
    Policy.FullyQualifiedName = true;
  }

  ASTContext &Ctx;
  SourceManager &SM;
  const LangOptions &LO;
  DiagStore &Diags;
  Emitter &E;
  PrintingPolicy Policy;
  std::set<std::string> DoneSpecs;

  std::string typeName(QualType T) {
    return TypeName::getFullyQualifiedName(T, Ctx, Policy,
                                           /*WithGlobalNsPrefix=*/true);
  }
  std::string declare(QualType T, StringRef Name) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    TypeName::getFullyQualifiedType(T, Ctx, true).print(OS, Policy, Name);
    return OS.str();
  }
  std::string text(CharSourceRange R) {
    return Lexer::getSourceText(R, SM, LO).str();
  }
  std::string siteTag(const LoopPlan &P) {
    PresumedLoc PL = SM.getPresumedLoc(P.Annotation->ForLoc);
    return sanitize(llvm::sys::path::filename(PL.getFilename())) + "_" +
           std::to_string(PL.getLine()) + "_" + std::to_string(PL.getColumn());
  }
  std::string siteWhere(const LoopPlan &P) {
    PresumedLoc PL = SM.getPresumedLoc(P.Annotation->ForLoc);
    return llvm::sys::path::filename(PL.getFilename()).str() + ":" +
           std::to_string(PL.getLine()) + ":" + std::to_string(PL.getColumn());
  }
  std::string prefix(const LoopPlan &P) {
    PresumedLoc PL = SM.getPresumedLoc(P.Annotation->ForLoc);
    return "__sv" + std::to_string(PL.getLine()) + "_" +
           std::to_string(PL.getColumn()) + "_";
  }
  std::string elemTag(const LoopPlan &P) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    PrintingPolicy PP = Policy;
    PP.FullyQualifiedName = false;
    PP.SuppressScope = true;
    P.View.ElementType.print(OS, PP);
    return sanitize(OS.str());
  }
  std::string viewName(const LoopPlan &P) {
    return "__soaview_" + elemTag(P) + "_" + siteTag(P);
  }
  std::string qualifiedView(const LoopPlan &P) {
    std::string NS;
    for (const DeclContext *DC = namespaceOf(P.View.Element);
         DC && !isa<TranslationUnitDecl>(DC); DC = DC->getParent())
      if (const auto *N = dyn_cast<NamespaceDecl>(DC))
        if (!N->isAnonymousNamespace() && !N->isInline())
          NS = N->getName().str() + "::" + NS;
    return "::" + NS + viewName(P);
  }

  /// The declaration at namespace scope before which views for P go.
  const Decl *insertionDecl(const LoopPlan &P);
  std::string viewStruct(const LoopPlan &P, const ProxyNode &N,
                         const std::string &Name, int Indent);
  std::string methodText(const LoopPlan &P, const CXXMethodDecl *MD,
                         const std::string &ProxyName);
  std::string forwarders(const LoopPlan &P, const ProxyNode &N, int Indent);
  std::string accessPath(const LoopPlan &P, const FieldPath &Path,
                         StringRef Obj, std::string &Tags);
  std::string withEdits(CharSourceRange R,
                        std::vector<std::pair<CharSourceRange, std::string>> Ed);
  bool viewChunks(const LoopPlan &P, Chunks &Fwd, Chunks &Main);
  bool emitNest(const NestPlan &N);
  bool emitLoop(const LoopPlan &P);
  void identityEdits(CharSourceRange R,
                     std::vector<std::pair<CharSourceRange, std::string>> &Ed,
                     const std::vector<const Expr *> &Which);
  std::vector<const Expr *> Identities; ///< of the nest being emitted
};

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

std::string Emitter::Impl::methodText(const LoopPlan &P,
                                      const CXXMethodDecl *MD,
                                      const std::string &ProxyName) {
  SourceRange R = MD->getSourceRange();
  CharSourceRange CR = CharSourceRange::getCharRange(
      R.getBegin(), Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO));
  std::vector<std::pair<CharSourceRange, std::string>> Ed;
  if (MD->getQualifierLoc())
    Ed.push_back({CharSourceRange::getCharRange(
                      MD->getQualifierLoc().getBeginLoc(),
                      MD->getNameInfo().getBeginLoc()),
                  ""});
  if (TypeSourceInfo *TSI = MD->getTypeSourceInfo())
    if (auto FTL = TSI->getTypeLoc().getAsAdjusted<FunctionTypeLoc>()) {
      CharSourceRange RT = recordTypeRange(FTL.getReturnLoc(),
                                           MD->getParent(), SM, LO);
      if (RT.isValid())
        Ed.push_back({RT, ProxyName});
    }
  for (const VarDecl *V : P.View.Aliases)
    if (!SM.isBeforeInTranslationUnit(V->getLocation(), CR.getBegin()) &&
        SM.isBeforeInTranslationUnit(V->getLocation(), CR.getEnd()))
      if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
        CharSourceRange RT =
            recordTypeRange(TSI->getTypeLoc(), MD->getParent(), SM, LO);
        if (RT.isValid())
          Ed.push_back({RT, ProxyName});
      }
  identityEdits(CR, Ed, Identities);
  PresumedLoc PL = SM.getPresumedLoc(R.getBegin());
  std::string Line = "#line " + std::to_string(PL.getLine()) + " \"" +
                     std::string(PL.getFilename()) + "\"\n";
  return Line + std::string(PL.getColumn() - 1, ' ') + withEdits(CR, Ed) +
         "\n";
}

std::string Emitter::Impl::forwarders(const LoopPlan &P, const ProxyNode &N,
                                      int Indent) {
  // Names of the original class that copied member functions may use
  // unqualified: static members, enumerators, nested types, template
  // parameters. Each becomes a forward to the original.
  const RecordDecl *RD = N.Field ? N.Field->getType()->getAsRecordDecl()
                                 : P.View.Element;
  auto MIt = P.View.Methods.find(N.Path);
  if (MIt == P.View.Methods.end() || MIt->second.empty())
    return "";
  std::string In(Indent, ' ');
  std::string Q = typeName(Ctx.getRecordType(RD));
  std::set<std::string> Done;
  std::string Out;
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const NamedDecl *> Found;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      Found.push_back(E->getDecl());
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      if (const auto *MD = dyn_cast<CXXMethodDecl>(E->getMemberDecl()))
        if (MD->isStatic())
          Found.push_back(MD);
      return true;
    }
    bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
      Found.push_back(TL.getTypedefNameDecl());
      return true;
    }
    bool VisitTagTypeLoc(TagTypeLoc TL) {
      Found.push_back(TL.getDecl());
      return true;
    }
  } F;
  for (const CXXMethodDecl *MD : MIt->second)
    F.TraverseDecl(const_cast<CXXMethodDecl *>(MD));
  auto InRecord = [&](const Decl *D) {
    const auto *C = dyn_cast<CXXRecordDecl>(D->getDeclContext());
    if (!C)
      return false;
    const auto *Own = dyn_cast<CXXRecordDecl>(RD);
    return C->getCanonicalDecl() == RD->getCanonicalDecl() ||
           (Own && Own->isDerivedFrom(C));
  };
  for (const NamedDecl *D : F.Found) {
    if (!InRecord(D) || !D->getIdentifier() || !Done.insert(D->getName().str()).second)
      continue;
    std::string Name = D->getName().str();
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (!V->isStaticDataMember())
        continue;
      if (V->isConstexpr() || V->getType().isConstQualified())
        Out += In + "static constexpr auto " + Name + " = " + Q + "::" + Name + ";\n";
      else
        Out += In + "static inline auto &" + Name + " = " + Q + "::" + Name + ";\n";
    } else if (isa<EnumConstantDecl>(D)) {
      Out += In + "static constexpr auto " + Name + " = " + Q + "::" + Name + ";\n";
    } else if (const auto *MD = dyn_cast<CXXMethodDecl>(D)) {
      if (MD->isStatic())
        Out += In + "template <class... A> static decltype(auto) " + Name +
               "(A &&...a) { return " + Q + "::" + Name +
               "(static_cast<A &&>(a)...); }\n";
    } else if ((isa<TypeDecl>(D) && !isa<CXXRecordDecl>(D)) ||
               (isa<CXXRecordDecl>(D) && D != RD)) {
      Out += In + "using " + Name + " = " + Q + "::" + Name + ";\n";
    }
  }
  if (const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
    const TemplateParameterList *TPL =
        CTS->getSpecializedTemplate()->getTemplateParameters();
    const TemplateArgumentList &Args = CTS->getTemplateArgs();
    for (unsigned I = 0; I < TPL->size() && I < Args.size(); ++I) {
      const NamedDecl *PD = TPL->getParam(I);
      if (!PD->getIdentifier())
        continue;
      if (Args[I].getKind() == TemplateArgument::Type)
        Out += In + "using " + PD->getName().str() + " = " +
               typeName(Args[I].getAsType()) + ";\n";
      else if (Args[I].getKind() == TemplateArgument::Integral)
        Out += In + "static constexpr " + typeName(Args[I].getIntegralType()) +
               " " + PD->getName().str() + " = " +
               llvm::toString(Args[I].getAsIntegral(), 10) + ";\n";
    }
  }
  return Out;
}

std::string Emitter::Impl::viewStruct(const LoopPlan &P, const ProxyNode &N,
                                      const std::string &Name, int Indent) {
  std::string In(Indent, ' ');
  std::string Out = "struct " + Name + " {\n";
  Out += forwarders(P, N, Indent + 2);
  for (auto &K : N.Kids) {
    std::string KName = K->Field->getName().str();
    if (K->Leaf) {
      Out += In + "  " +
             declare(Ctx.getLValueReferenceType(K->Field->getType()), KName) +
             ";\n";
    } else {
      Out += In + "  " + viewStruct(P, *K, "__soaview_" + KName + "_proxy",
                                    Indent + 2) +
             " " + KName + ";\n";
    }
  }
  if (!N.Field) // the top proxy remembers its original element
    Out += In + "  const void *__soaview_address;\n";
  auto MIt = P.View.Methods.find(N.Path);
  if (MIt != P.View.Methods.end()) {
    std::vector<const CXXMethodDecl *> Ms(MIt->second.begin(),
                                          MIt->second.end());
    llvm::sort(Ms, [&](auto *A, auto *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });
    for (const CXXMethodDecl *MD : Ms)
      Out += methodText(P, MD, Name);
  }
  Out += In + "}";
  return Out;
}

std::string Emitter::Impl::accessPath(const LoopPlan &P, const FieldPath &Path,
                                      StringRef Obj, std::string &Tags) {
  std::string X = Obj.str();
  for (size_t I = 0; I < Path.size(); ++I) {
    const FieldDecl *F = Path[I];
    bool Public = F->getAccess() == AS_public || F->getAccess() == AS_none;
    if (Public) {
      X += "." + F->getName().str();
      continue;
    }
    // Private or protected: a member pointer obtained through explicit
    // instantiation, where access is not checked ([temp.spec.general]).
    FieldPath Sub(Path.begin(), Path.begin() + I + 1);
    std::string Tag = viewName(P) + "_" + bufName(Sub) + "_tag";
    QualType MPT = Ctx.getMemberPointerType(
        F->getType(), Ctx.getRecordType(F->getParent()).getTypePtr());
    std::string MPTs = typeName(MPT);
    std::string Field = typeName(Ctx.getRecordType(F->getParent())) +
                        "::" + F->getName().str();
    if (Tags.find(Tag + " {") == std::string::npos)
      Tags += "struct " + Tag + " { friend constexpr " + MPTs +
              " __soaview_member(" + Tag + ") noexcept; };\n" +
              "template struct " + viewName(P) + "_expose<" + MPTs + ", &" +
              Field + ", " + Tag + ">;\n";
    X = "(" + X + ".*__soaview_member(" + Tag + "{}))";
  }
  return X;
}

/// Identity wraps (`::soaview::identity(p)`) for comparisons inside R.
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

bool Emitter::Impl::viewChunks(const LoopPlan &P, Chunks &Fwd, Chunks &Main) {
  std::string VName = viewName(P);
  if (!DoneSpecs.insert(VName).second)
    return true;
  const CXXRecordDecl *Elem = P.View.Element;
  const DeclContext *ElemNS = namespaceOf(Elem);

  // Proxy tree from the ordered leaves.
  ProxyNode Root;
  auto Leaves = P.View.orderedLeaves();
  for (auto &[Path, A] : Leaves) {
    ProxyNode *N = &Root;
    for (size_t I = 0; I < Path.size(); ++I) {
      ProxyNode *Next = nullptr;
      for (auto &K : N->Kids)
        if (K->Field == Path[I])
          Next = K.get();
      if (!Next) {
        N->Kids.push_back(std::make_unique<ProxyNode>());
        Next = N->Kids.back().get();
        Next->Field = Path[I];
        Next->Path = FieldPath(Path.begin(), Path.begin() + I + 1);
        Next->Leaf = I + 1 == Path.size();
      }
      N = Next;
    }
  }
  Fwd.add(ElemNS, "struct " + VName + ";\n");

  std::string ElemName = typeName(P.View.ElementType);
  std::string Tags;
  std::string Spec;
  std::string SName = VName + "_spec";
  bool Writes = false;
  for (auto &[Path, A] : Leaves)
    Writes |= A.Written;
  std::string ElemShown = P.View.ElementType.getAsString(PrintingPolicy(LO));
  Spec += "// soaview: buffers of the view of '" + ElemShown + "' at " +
          siteWhere(P) + "\n";
  Spec += "struct " + SName + " {\n";
  Spec += "  using element = " + ElemName + ";\n";
  Spec += "  using view = " + VName + ";\n";
  Spec += std::string("  static constexpr bool writes = ") +
          (Writes ? "true" : "false") + ";\n";
  Spec += "  struct soa {\n";
  for (auto &[Path, A] : Leaves)
    Spec += "    " +
            declare(Ctx.getPointerType(Path.back()->getType()), bufName(Path)) +
            ";\n";
  Spec += "    const void *const *__soaview_address;\n";
  Spec += "  };\n";
  Spec += "  static std::size_t bytes_for(std::size_t n) {\n    return 0";
  for (auto &[Path, A] : Leaves)
    Spec += "\n      + ::soaview::arena::round_up(sizeof(" +
            typeName(Path.back()->getType()) + ") * n)";
  Spec += ";\n  }\n";
  Spec += "  static void carve(soa &s, ::soaview::arena &a, std::size_t n) {\n";
  for (auto &[Path, A] : Leaves)
    Spec += "    s." + bufName(Path) + " = a.take<" +
            typeName(Path.back()->getType()) + ">(n);\n";
  Spec += "  }\n";
  Spec += "  static void gather(soa &s, std::size_t i, const element &e) {\n";
  for (auto &[Path, A] : Leaves) {
    std::string Buf = "s." + bufName(Path) + "[i]";
    std::string Src = accessPath(P, Path, "e", Tags);
    if (Path.back()->getType()->isScalarType())
      Spec += "    " + Buf + " = " + Src + ";\n";
    else
      Spec += "    std::memcpy(&" + Buf + ", &" + Src + ", sizeof " + Buf +
              ");\n";
  }
  Spec += "  }\n";
  Spec += "  static void scatter(const soa &s, std::size_t i, element &e) {\n";
  for (auto &[Path, A] : Leaves) {
    if (!A.Written)
      continue;
    std::string Buf = "s." + bufName(Path) + "[i]";
    std::string Dst = accessPath(P, Path, "e", Tags);
    if (Path.back()->getType()->isScalarType())
      Spec += "    " + Dst + " = " + Buf + ";\n";
    else
      Spec += "    std::memcpy(&" + Dst + ", &" + Buf + ", sizeof " + Buf +
              ");\n";
  }
  Spec += "  }\n";
  std::function<std::string(const ProxyNode &, bool)> Init =
      [&](const ProxyNode &N, bool Top) {
        std::string S = "{";
        bool First = true;
        for (auto &K : N.Kids) {
          S += First ? "" : ", ";
          First = false;
          S += K->Leaf ? "s." + bufName(K->Path) + "[i]" : Init(*K, false);
        }
        if (Top)
          S += std::string(First ? "" : ", ") + "s.__soaview_address[i]";
        return S + "}";
      };
  Spec += "  static view at(const soa &s, std::size_t i) {\n    return view" +
          Init(Root, true) + ";\n  }\n";
  Spec += "};\n";
  if (P.InTemplate)
    Spec += SName + " __soaview_select_" + siteTag(P) + "(" + ElemName +
            " *);\n";

  std::string Body;
  Body += "// soaview: view of '" + ElemShown + "' for the loop at " +
          siteWhere(P) + "\n";
  Body += viewStruct(P, Root, VName, 0) + ";\n";
  if (!Tags.empty())
    Tags = "template <class T, T M, class Tag> struct " + VName +
           "_expose { friend constexpr T __soaview_member(Tag) noexcept { "
           "return M; } };\n" +
           Tags;
  Main.add(ElemNS, Tags + Body + Spec);
  return true;
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
    if (!U.NeedsClone)
      continue;
    const FunctionDecl *FD = U.FD;
    SourceRange R = FD->getSourceRange();
    CharSourceRange CR = CharSourceRange::getCharRange(
        R.getBegin(), Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO));
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
    std::string Full = withEdits(CR, Ed);
    // Inside the reopened namespace the declaration is unqualified
    // (`void phys::kick(...)` becomes `void kick(...)`).
    auto Unq = Ed;
    if (FD->getQualifierLoc())
      Unq.push_back({CharSourceRange::getCharRange(
                         FD->getQualifierLoc().getBeginLoc(),
                         FD->getNameInfo().getBeginLoc()),
                     ""});
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
    PresumedLoc PL = SM.getPresumedLoc(R.getBegin());
    std::string Line = "#line " + std::to_string(PL.getLine()) + " \"" +
                       PL.getFilename() + "\"\n" +
                       std::string(PL.getColumn() - 1, ' ');
    SourceLocation End = SM.getFileLoc(CR.getEnd());
    if (SM.isBeforeInTranslationUnit(End, AtLoc))
      Early.add(namespaceOf(FD), Line + FullUnq + "\n");
    else
      LateDefs.push_back({End, "\n" + Line + Full + "\n"});
  }

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
  std::string Pro = "{ // soaview: " + E.remark(P) + "\n";
  std::string Site = "  static ::soaview::site " + Px + "site(\"" +
                     siteWhere(P) + "\");\n";
  bool Scatter = !(F.Kind == LoopFormKind::Range && F.VarIsCopy);
  std::string FrameT = "::soaview::frame<" + SpecT + (Scatter ? "" : ", false") + ">";
  std::string BodyDecls;
  if (F.Kind == LoopFormKind::Range) {
    const auto *RF = cast<CXXForRangeStmt>(F.Loop);
    SourceRange RI = RF->getRangeInit()->getSourceRange();
    std::string RangeText = text(CharSourceRange::getCharRange(
        SM.getFileLoc(RI.getBegin()),
        Lexer::getLocForEndOfToken(SM.getFileLoc(RI.getEnd()), 0, SM, LO)));
    Pro += "  auto &&" + Px + "range = " + RangeText + ";\n" + Site;
    Pro += "  " + FrameT + " " + Px + "frame(" + Px + "site, " + Px +
           "range);\n";
    // Header: ( decl : range ) -> index loop over the frame.
    SourceLocation LParen = Lexer::findNextToken(A.ForLoc, SM, LO)->getLocation();
    EB->replace(SM.getFileOffset(LParen),
                SM.getFileOffset(RF->getRParenLoc()) + 1,
                "(std::size_t " + Px + "i = 0; " + Px + "i < " + Px +
                    "frame.size(); ++" + Px + "i)");
    std::string Var = F.LoopVar->getName().str();
    std::string Const = F.VarIsConst ? "const " : "";
    BodyDecls = " auto " + Px + "view = " + Px + "frame.at(" + Px + "i); " +
                Const + (F.VarIsPointer ? "auto *" : "auto &") + Var + " = " +
                (F.VarIsPointer ? "&" : "") + Px + "view;";
  } else {
    SourceRange LR = F.Lo->getSourceRange(), HR = F.Hi->getSourceRange();
    auto T = [&](SourceRange R) {
      return text(CharSourceRange::getCharRange(
          SM.getFileLoc(R.getBegin()),
          Lexer::getLocForEndOfToken(SM.getFileLoc(R.getEnd()), 0, SM, LO)));
    };
    Pro += "  const " + typeName(F.IndexVar->getType().getUnqualifiedType()) +
           " " + Px + "lo = " + T(LR) + ";\n" + Site;
    Pro += "  " + FrameT + " " + Px + "frame(" + Px +
           "site, ::soaview::index_span_of(" + F.TargetName + ", " + Px +
           "lo, " + T(HR) + "));\n";
    std::string Idx = F.IndexVar->getName().str();
    BodyDecls = " auto " + Px + "view = " + Px +
                "frame.at(static_cast<std::size_t>(" + Idx + " - " + Px +
                "lo)); ::soaview::index_shadow<decltype(" + Px + "view)> " +
                F.TargetName + "{" + Px + "view};";
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

  // 3. Proxy declarations at the top of the body.
  const Stmt *Body = F.Body;
  SourceLocation BodyEnd = afterStmt(Body, SM, LO);
  std::string Close = P.HoistTo ? "" : " }";
  if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
    EB->insert(SM.getFileOffset(CS->getLBracLoc()) + 1, BodyDecls);
    if (!Close.empty())
      EB->insert(SM.getFileOffset(BodyEnd), Close);
  } else {
    EB->insert(SM.getFileOffset(SM.getFileLoc(Body->getBeginLoc())),
               "{" + BodyDecls + " ");
    EB->insert(SM.getFileOffset(BodyEnd), " }" + Close);
  }
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

Emitter::Emitter(ASTContext &Ctx, DiagStore &Diags)
    : P(std::make_unique<Impl>(Ctx, Diags, *this)) {}
Emitter::~Emitter() = default;

bool Emitter::emitNest(const NestPlan &Nest) { return P->emitNest(Nest); }
bool Emitter::emitLoop(const LoopPlan &Plan) { return P->emitLoop(Plan); }
std::string Emitter::specName(const LoopPlan &Plan) const {
  return P->viewName(Plan);
}

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
  std::string Elem = Plan.View.ElementType.getAsString(P->Policy);
  if (!Elem.empty() && Elem[0] == ':')
    Elem = Elem.substr(2);
  return "view of '" + Plan.View.Element->getNameAsString() + "' in {" + In +
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
