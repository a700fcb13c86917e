//===- EmitImpl.h - the emitter shared by Emit*.cpp --------------*- C++ -*-===//
//
// Private to emission: Emit.cpp places views and clones and rewrites loops;
// EmitView.cpp writes the proxy and spec structs.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_EMITIMPL_H
#define SOAVIEW_EMITIMPL_H

#include "emit/Emit.h"
#include "diag/Diagnostics.h"
#include "emit/Backend.h"
#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"
#include "support/Compat.h"

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

#include <functional>
#include <set>

namespace soaview {
namespace detail {
using namespace clang;

std::string sanitize(llvm::StringRef S);
/// Namespace scope chain of a declaration context, outermost first, as the
/// text that reopens each level.
std::vector<std::string> openers(const DeclContext *DC);
/// The namespace (or TU) that semantically encloses D.
const DeclContext *namespaceOf(const Decl *D);
/// Name of the SoA buffer of a leaf: the path joined with '_'.
std::string bufName(const FieldPath &P);
/// A small one-dimensional array of arithmetic values (`double x[3]`) is
/// stored one buffer per component (`double *x[3]` in the soa), so that loops
/// reading `p->x[0]` load consecutive slots, as hand-written SoA does. Returns
/// the component count and sets Elem, or 0 for fields stored whole.
unsigned splitComponents(const ASTContext &Ctx, QualType T, QualType &Elem);
/// Position after the statement's last character (including its ';').
SourceLocation afterStmt(const Stmt *S, const SourceManager &SM,
                         const LangOptions &LO);

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

} // namespace detail

// Private header: the emitter's code is written against clang's names.
using namespace clang;
using namespace detail;

class Emitter::Impl {
public:
  using Chunks = detail::Chunks;
  using ProxyNode = detail::ProxyNode;
public:
  Impl(ASTContext &Ctx, DiagStore &Diags, Emitter &E, const Backend &B)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()),
        Diags(Diags), E(E), Policy(Ctx.getPrintingPolicy()), B(B) {
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
  /// Where offloaded loops run (host, OpenMP target, CUDA).
  const Backend &B;
  std::set<std::string> DoneSpecs;
  /// Functions already marked __host__ __device__ (CUDA backend).
  std::set<const FunctionDecl *> MarkedDevice;

  /// True when P's view is used in device code (an offloaded loop, or the
  /// inner loop of one).
  static bool onDevice(const LoopPlan &P) { return P.Offload || P.DeviceInner; }
  /// The mark of view code that runs where P runs.
  std::string hd(const LoopPlan &P) const { return B.deviceMark(onDevice(P)); }

  /// T without sugar the generated code may not name: it is placed outside
  /// the class, so a private or protected member alias (`using Scalar =
  /// double;` in a private section) is spelt as what it stands for.
  static QualType spellable(QualType T) {
    struct Hidden : RecursiveASTVisitor<Hidden> {
      bool Found = false;
      bool VisitTypedefType(TypedefType *TT) {
        AccessSpecifier A = TT->getDecl()->getAccess();
        Found |= A == AS_private || A == AS_protected;
        return !Found;
      }
    } H;
    H.TraverseType(T);
    return H.Found ? T.getCanonicalType() : T;
  }
  std::string typeName(QualType T) {
    return compat::fullyQualifiedName(spellable(T), Ctx, Policy);
  }
  std::string declare(QualType T, StringRef Name) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    TypeName::getFullyQualifiedType(spellable(T), Ctx, true).print(OS, Policy, Name);
    return OS.str();
  }
  /// The characters of D, from its first to its last token.
  CharSourceRange declRange(const Decl *D) {
    SourceRange R = D->getSourceRange();
    return CharSourceRange::getCharRange(
        R.getBegin(), Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO));
  }
  /// `#line` back to L's line, then indentation up to its column: text
  /// copied from L keeps the user's positions in diagnostics.
  std::string lineDirective(SourceLocation L) {
    PresumedLoc PL = SM.getPresumedLoc(L);
    return "#line " + std::to_string(PL.getLine()) + " \"" +
           PL.getFilename() + "\"\n" + std::string(PL.getColumn() - 1, ' ');
  }
  /// The edit dropping FD's qualifier (`void ns::f(` becomes `void f(`), for
  /// copies declared inside the namespace or class itself.
  void unqualify(const FunctionDecl *FD,
                 std::vector<std::pair<CharSourceRange, std::string>> &Ed) {
    if (FD->getQualifierLoc())
      Ed.push_back({CharSourceRange::getCharRange(
                        FD->getQualifierLoc().getBeginLoc(),
                        FD->getNameInfo().getBeginLoc()),
                    ""});
  }
  /// The `)` closing the loop's header.
  static SourceLocation rparen(const LoopForm &F) {
    return F.Kind == LoopFormKind::Range
               ? cast<CXXForRangeStmt>(F.Loop)->getRParenLoc()
               : cast<ForStmt>(F.Loop)->getRParenLoc();
  }
  std::string text(CharSourceRange R) {
    return Lexer::getSourceText(R, SM, LO).str();
  }
  std::string siteWhere(const LoopPlan &P) { return whereAt(P.Annotation->ForLoc); }
  std::string whereAt(SourceLocation At) {
    PresumedLoc PL = SM.getPresumedLoc(At);
    return llvm::sys::path::filename(PL.getFilename()).str() + ":" +
           std::to_string(PL.getLine()) + ":" + std::to_string(PL.getColumn());
  }
  // Generated names (docs/generated-code.md "Names"). None is reserved
  // (no double underscore, no leading underscore); each is made unique
  // against every identifier of the translation unit (fresh()), so that no
  // user name is hidden or shadowed, and is a function of the source only.
  /// `<line>_<col>` of the loop, after the file's name when the loop is not
  /// in the main file (two files may hold loops at the same position).
  std::string siteTagAt(SourceLocation At) {
    PresumedLoc PL = SM.getPresumedLoc(At);
    std::string Pos = std::to_string(PL.getLine()) + "_" +
                      std::to_string(PL.getColumn());
    if (SM.isInMainFile(SM.getExpansionLoc(At)))
      return Pos;
    return sanitize(llvm::sys::path::filename(PL.getFilename())) + "_" + Pos;
  }
  /// The prefix of the locals of the loop at At: `sv<line>_<col>_`.
  std::string prefixAt(SourceLocation At) {
    PresumedLoc PL = SM.getPresumedLoc(At);
    return fresh("sv" + std::to_string(PL.getLine()) + "_" +
                 std::to_string(PL.getColumn())) + "_";
  }
  std::string prefix(const LoopPlan &P) { return prefixAt(P.Annotation->ForLoc); }
  std::string elemTag(const LoopPlan &P) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    PrintingPolicy PP = Policy;
    PP.FullyQualifiedName = false;
    PP.SuppressScope = true;
    P.View.ElementType.print(OS, PP);
    std::string T = sanitize(OS.str());
    return T.substr(std::min(T.find_first_not_of('_'), T.size()));
  }
  /// The view of P: `<Element>_<line>_<col>` in the element's namespace
  /// `soaview_gen`; its spec, tags and selector are named after it.
  std::string viewName(const LoopPlan &P) {
    return fresh(elemTag(P) + "_" + siteTagAt(P.Annotation->ForLoc));
  }
  std::string qualifiedView(const LoopPlan &P) {
    std::string NS;
    for (const DeclContext *DC = namespaceOf(P.View.Element);
         DC && !isa<TranslationUnitDecl>(DC); DC = DC->getParent())
      if (const auto *N = dyn_cast<NamespaceDecl>(DC))
        if (!N->isAnonymousNamespace() && !N->isInline())
          NS = N->getName().str() + "::" + NS;
    return "::" + NS + GenNamespace + "::" + viewName(P);
  }
  /// The function a loop in a template selects its view's spec through, by
  /// argument-dependent lookup on the element: one name for every element
  /// type the template is instantiated with.
  std::string selectName(const LoopPlan &P) {
    return fresh("soaview_select_" + siteTagAt(P.Annotation->ForLoc));
  }
  /// The friend function a private field's member pointer comes from.
  std::string memberFn() { return fresh("soaview_member"); }
  /// Base, or Base followed by 'x's, such that no identifier of the
  /// translation unit starts with the result.
  std::string fresh(std::string Base);
  std::vector<StringRef> Identifiers; // sorted, built on first use
  static constexpr const char *GenNamespace = "soaview_gen";
  std::string openGen() {
    return "inline namespace " + std::string(GenNamespace) + " { ";
  }

  std::string viewStruct(const LoopPlan &P, const ProxyNode &N,
                         const std::string &Name, int Indent);
  std::string methodText(const LoopPlan &P, const CXXMethodDecl *MD,
                         const std::string &ProxyName);
  std::string forwarders(const LoopPlan &P, const ProxyNode &N, int Indent);
  /// CUDA backend: `continue` of the offloaded loop ends its lambda.
  void continueEdits(const LoopPlan &P, EditBuffer &EB);
  /// CUDA backend: marks the nest's device functions __host__ __device__.
  bool markDeviceFunctions(const NestPlan &N);
  std::string accessPath(const LoopPlan &P, const FieldPath &Path,
                         StringRef Obj, std::string &Tags);
  std::string withEdits(CharSourceRange R,
                        std::vector<std::pair<CharSourceRange, std::string>> Ed);
  /// Swept: the view of a sweep's loop, whose spec also names its buffers.
  bool viewChunks(const LoopPlan &P, bool Swept, Chunks &Fwd, Chunks &Main);
  ProxyNode proxyTree(const LoopPlan &P);
  struct SpecBuffer {
    std::string Name, Type;
    bool Written;
    std::string Field; ///< the element's field (`x[1]` for a component)
  };
  std::vector<SpecBuffer> specBufferList(const LoopPlan &P);
  std::string specBuffers(const LoopPlan &P, const std::string &VName);
  std::string specCopies(const LoopPlan &P, std::string &Tags);
  std::string specFields(const LoopPlan &P);
  /// A function template one of whose type parameters receives the views
  /// of two loops: the text of a clone with one more type parameter per
  /// further view (empty when no parameter is shared).
  std::string splitTemplateClone(const CalleeUse &U);
  std::set<std::string> DoneSplitClones;
  using Edits = std::vector<std::pair<CharSourceRange, std::string>>;
  using LateEdits = std::vector<std::pair<SourceLocation, std::string>>;
  bool emitNest(const NestPlan &N);
  void splitClone(const CalleeUse &U, Chunks &Decls);
  bool cloneEdits(const NestPlan &N, const CalleeUse &U, CharSourceRange CR,
                  bool Device, Edits &Ed);
  bool cloneCallee(const NestPlan &N, const CalleeUse &U, SourceLocation AtLoc,
                   Chunks &Decls, Chunks &Early, LateEdits &LateDefs);
  void cloneLookup(const NestPlan &N, const CalleeUse &U, Chunks &Decls);

  /// The text of one rewritten loop: the prologue before it, the header
  /// that replaces `(...)` (with a lambda body: `for (...)`), and the
  /// declarations that open its body.
  struct LoopText {
    std::string Pro, Header, BodyDecls;
    bool LambdaBody = false;
  };
  bool emitLoop(const LoopPlan &P);
  std::string specType(const LoopPlan &P);
  void commentAttribute(const LoopAnnotation &A, EditBuffer &EB);
  /// The declarations Decls at the top of Body (braces added around a body
  /// that is not a compound statement).
  void openBody(const LoopForm &F, const std::string &Decls, EditBuffer &EB);
  bool emitSweep(const NestPlan &N);
  std::string sweepPrologue(const NestPlan &N);
  std::string sweepRecording(const NestPlan &N);
  std::string exprText(const Expr *E);
  std::string prologue(const LoopPlan &P, const std::string &FrameT);
  std::string elementDecls(const LoopPlan &P, const std::string &ViewInit);
  LoopText deviceLoop(const LoopPlan &P, const std::string &SpecT);
  LoopText hostLoop(const LoopPlan &P, bool EachSlot);
  LoopText loopText(const LoopPlan &P);
  void placeHeader(const LoopPlan &P, LoopText &T, EditBuffer &EB);
  void placeBody(const LoopPlan &P, const LoopText &T, EditBuffer &EB);
  void bodyEdits(const LoopPlan &P, EditBuffer &EB);
  Msg remark(const LoopPlan &P, const std::string &Where = "") const;
  void identityEdits(CharSourceRange R,
                     std::vector<std::pair<CharSourceRange, std::string>> &Ed,
                     const std::vector<const Expr *> &Which);
  std::vector<const Expr *> Identities; ///< of the nest being emitted
  // EmitHeap.cpp: allocation routed to the device heap.
  void routeEdits(const HeapRoute &H, Edits &Ed);
  void heapEdits(CharSourceRange R, Edits &Ed);
  bool routeInPlace();
  std::string heapScope(const LoopPlan &P, const std::string &Px);
  std::vector<HeapRoute> Routes; ///< of the nest being emitted
  std::set<unsigned> RoutedInPlace; ///< file locations already rewritten
};

} // namespace soaview

#endif
