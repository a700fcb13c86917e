//===- Analysis.cpp - which fields an annotated loop reads and writes -----===//
//
// Starting from the loop variable (or the `buf[i]` expressions of an index
// loop), every use of the element is classified by walking up the AST:
// field accesses become leaves (read / written), member calls pull the member
// function into the proxy and are analysed with `this` bound to the element,
// element arguments bind the callee's parameter and analyse the callee. The
// call graph is followed to a fixpoint (each function once per binding).
// Any other use refuses the loop with a located error: soaview never guesses.
//
// Uses of element-type objects that do not come from the loop variable
// ("foreign" accesses) are collected too: they conflict with the view when
// they touch a written field, or write a viewed field.
//
// Tests: test/Rewrite/*, test/Sema/refusals.cpp.
//===----------------------------------------------------------------------===//
#include "Analysis.h"

#include "Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"

#include <deque>
#include <set>

using namespace clang;

namespace soaview {

std::string dotted(const FieldPath &P) {
  std::string S;
  for (const FieldDecl *F : P) {
    if (!S.empty())
      S += '.';
    S += F->getName();
  }
  return S;
}

static bool isPrefix(const FieldPath &Pre, const FieldPath &P) {
  return Pre.size() <= P.size() && std::equal(Pre.begin(), Pre.end(), P.begin());
}

void ViewModel::normalise() {
  // Outermost whole records win.
  for (auto It = Wholes.begin(); It != Wholes.end();) {
    LeafAccess *Outer = nullptr;
    for (auto &W : Wholes)
      if (W.first != It->first && isPrefix(W.first, It->first))
        Outer = &W.second;
    if (Outer) {
      Outer->Read |= It->second.Read;
      Outer->Written |= It->second.Written;
      It = Wholes.erase(It);
    } else
      ++It;
  }
  for (auto &W : Wholes) {
    for (auto It = Leaves.begin(); It != Leaves.end();) {
      if (isPrefix(W.first, It->first)) {
        W.second.Read |= It->second.Read;
        W.second.Written |= It->second.Written;
        It = Leaves.erase(It);
      } else
        ++It;
    }
    for (auto It = Methods.begin(); It != Methods.end();) {
      if (!It->first.empty() && isPrefix(W.first, It->first))
        It = Methods.erase(It);
      else
        ++It;
    }
    Leaves[W.first] = W.second;
  }
  Wholes.clear();
}

std::vector<std::pair<FieldPath, LeafAccess>>
ViewModel::orderedLeaves() const {
  std::vector<std::pair<FieldPath, LeafAccess>> V(Leaves.begin(),
                                                  Leaves.end());
  auto Key = [](const FieldDecl *F) {
    return F->getLocation().getRawEncoding();
  };
  // Declaration order: fields of one record compare by index, fields of
  // different records (bases) by position in the file.
  std::stable_sort(V.begin(), V.end(), [&](const auto &A, const auto &B) {
    for (size_t I = 0; I < A.first.size() && I < B.first.size(); ++I) {
      const FieldDecl *X = A.first[I], *Y = B.first[I];
      if (X == Y)
        continue;
      if (X->getParent() == Y->getParent())
        return X->getFieldIndex() < Y->getFieldIndex();
      return Key(X) < Key(Y);
    }
    return A.first.size() < B.first.size();
  });
  return V;
}

namespace {

enum class Kind { Pointer, Lvalue };

struct Binding {
  int View = 0; ///< which loop of the nest the element belongs to
  FieldPath Path;
};

struct Env {
  llvm::DenseMap<const VarDecl *, std::pair<Binding, Kind>> Vars;
  bool HasThis = false;
  Binding This;
  const FunctionDecl *Fn = nullptr;
  bool IsLoopBody = false;
};

/// Pre-order list of the nodes the analysis looks at in one body.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  llvm::DenseMap<const Expr *, int> ExtraRoots; ///< `buf[i]` -> view
  std::vector<const Expr *> Roots; // DeclRefExpr, CXXThisExpr, extra roots
  std::vector<const MemberExpr *> Members;
  std::vector<const CallExpr *> Calls;
  std::vector<const LambdaExpr *> Lambdas;

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (isa<VarDecl>(E->getDecl()))
      Roots.push_back(E);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *E) {
    Roots.push_back(E);
    return true;
  }
  bool VisitExpr(Expr *E) {
    if (ExtraRoots.count(E))
      Roots.push_back(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    Members.push_back(E);
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    Calls.push_back(E);
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
      if (OC->getOperator() == OO_Equal)
        Wholes.push_back(E);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (E->getConstructor()->isCopyOrMoveConstructor())
      Wholes.push_back(E);
    Ctors.push_back(E);
    return true;
  }
  std::vector<const CXXConstructExpr *> Ctors;
  std::vector<const Expr *> Wholes; // element copies / assignments
};

class Analyzer {
public:
  Analyzer(ASTContext &Ctx, DiagStore &Diags, NestPlan &Nest)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Diags), Nest(Nest) {}

  bool run();

private:
  struct Work {
    const FunctionDecl *FD;
    Env E;
  };

  void analyse(const Stmt *Body, Env &E);
  void element(const Expr *Root, Kind K, Binding B, Env &E, ParentMap &PM);
  void leaf(const Expr *LE, const Binding &B, bool Whole, ParentMap &PM);
  bool evalElement(const Expr *E, const Env &En, Binding &B, Kind &K);
  void checkAliasing();
  void bindLambdaParams(const class Collector &C, Env &E);
  std::pair<bool, bool> classifyUse(const Expr *LE, ParentMap &PM,
                                    const CallExpr **RefCall = nullptr);
  bool call(const CallExpr *C, const Expr *Arg, Kind K, const Binding &B,
            Env &E, const Expr *&Result, Kind &ResultKind);
  void method(const CXXMethodDecl *MD, const Binding &B, SourceLocation Use);
  bool checkField(const FieldDecl *FD, SourceLocation Use);
  bool visible(const FunctionDecl *FD, SourceLocation Use, StringRef What);
  void enqueue(const FunctionDecl *FD, Env E, const std::string &Key);
  bool isRecordOf(const RecordDecl *RD, int V) const;
  bool isElementRecord(const RecordDecl *RD) const;
  ViewModel &view(const Binding &B) { return Nest.Loops[B.View].View; }
  void checkForeign();

  void refuse(SourceLocation L, const Twine &Msg, SourceLocation NoteL = {},
              const Twine &Note = "") {
    if (Failed)
      return;
    Failed = true;
    StoredDiag &D = Diags.error(L, "cannot convert loop: " + Msg.str());
    if (!Note.isTriviallyEmpty())
      Diags.note(D, NoteL.isValid() ? NoteL : L, Note.str());
    Diags.note(D, Nest.Loops[CurView].Form.Loop->getBeginLoc(),
               "in the loop annotated here");
  }

  ASTContext &Ctx;
  SourceManager &SM;
  DiagStore &Diags;
  NestPlan &Nest;
  int CurView = 0; ///< the view being followed, for "in the loop" notes
  bool Failed = false;

  llvm::DenseSet<const Expr *> Handled;      // member exprs of the view
  llvm::DenseSet<const CallExpr *> BoundCalls; // calls given an element
  struct Foreign {
    SourceLocation Loc;
    const FieldDecl *FD; ///< null: the whole object
    bool Write;
    const RecordDecl *Record;
  };
  llvm::DenseMap<const Expr *, int> ExtraRootViews;
  std::set<const ParmVarDecl *> LambdaParams;
  llvm::DenseSet<const Expr *> BoundWholes;
  std::vector<Foreign> Foreigns;
  std::set<std::string> Seen;
  std::deque<Work> Queue;
  std::map<std::pair<const FunctionDecl *, std::vector<int>>, size_t>
      CalleeIndex;
};

bool Analyzer::isRecordOf(const RecordDecl *RD, int V) const {
  if (!RD)
    return false;
  const CXXRecordDecl *E = Nest.Loops[V].View.Element;
  if (RD->getCanonicalDecl() == E->getCanonicalDecl())
    return true;
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
    if (E->isDerivedFrom(CRD))
      return true;
  return false;
}

bool Analyzer::isElementRecord(const RecordDecl *RD) const {
  for (size_t V = 0; V < Nest.Loops.size(); ++V)
    if (isRecordOf(RD, (int)V))
      return true;
  return false;
}

static std::string keyOf(const FunctionDecl *FD, const Env &E) {
  std::string K = std::to_string(reinterpret_cast<uintptr_t>(FD));
  // Deterministic within a run; never leaves the process.
  std::vector<std::pair<unsigned, std::string>> Vars;
  for (auto &V : E.Vars)
    if (const auto *P = dyn_cast<ParmVarDecl>(V.first))
      Vars.push_back({P->getFunctionScopeIndex(),
                      std::to_string(V.second.first.View) + "/" +
                          dotted(V.second.first.Path)});
  llvm::sort(Vars);
  for (auto &V : Vars)
    K += "|" + std::to_string(V.first) + ":" + V.second;
  if (E.HasThis)
    K += "|this:" + std::to_string(E.This.View) + "/" + dotted(E.This.Path);
  return K;
}

void Analyzer::enqueue(const FunctionDecl *FD, Env E, const std::string &Key) {
  if (!Seen.insert(Key).second)
    return;
  E.Fn = FD;
  Queue.push_back({FD, std::move(E)});
}

bool Analyzer::visible(const FunctionDecl *FD, SourceLocation Use,
                       StringRef What) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def) {
    refuse(Use,
           "the element is passed to '" + FD->getQualifiedNameAsString() +
               "' whose definition is not visible",
           FD->getLocation(),
           "soaview must see every function that receives the element; "
           "define it in this translation unit (for example in a header)");
    return false;
  }
  if (SM.isInSystemHeader(Def->getLocation())) {
    refuse(Use,
           "the element is passed to '" + FD->getQualifiedNameAsString() +
               "' from a system header",
           FD->getLocation(),
           (What + " must be user code that soaview can rewrite").str());
    return false;
  }
  return true;
}

bool Analyzer::checkField(const FieldDecl *FD, SourceLocation Use) {
  auto Bad = [&](const Twine &Why, const Twine &Note) {
    refuse(Use, "field '" + FD->getName() + "' " + Why, FD->getLocation(),
           Note);
    return false;
  };
  if (FD->isBitField())
    return Bad("is a bit-field",
               "a view stores each field in an array and cannot refer to "
               "bit-fields; make it a plain integer");
  if (FD->getType()->isReferenceType())
    return Bad("is a reference", "views copy field values; reference "
                                 "members cannot be copied");
  if (FD->getDeclName().isEmpty() || FD->isAnonymousStructOrUnion())
    return Bad("is an anonymous struct or union",
               "give the member a name");
  if (FD->getType().isVolatileQualified() || FD->getType()->isAtomicType())
    return Bad("is volatile or atomic",
               "a view works on a temporary copy; concurrent access to the "
               "original would not see it");
  QualType T = FD->getType();
  if (!T.isTriviallyCopyableType(Ctx) && !T->isRecordType())
    return Bad("is not trivially copyable",
               "views copy fields with memcpy");
  return true;
}

void Analyzer::method(const CXXMethodDecl *MD, const Binding &B,
                      SourceLocation Use) {
  if (MD->isVirtual() && !MD->hasAttr<FinalAttr>() &&
      !MD->getParent()->hasAttr<FinalAttr>()) {
    refuse(Use, "virtual call to '" + MD->getQualifiedNameAsString() + "'",
           MD->getLocation(),
           "the dynamic type of an element is unknown; mark the function or "
           "the class 'final', or make it non-virtual");
    return;
  }
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def) {
    refuse(Use,
           "member function '" + MD->getQualifiedNameAsString() +
               "' is called on the element but its definition is not visible",
           MD->getLocation(), "define it in this translation unit");
    return;
  }
  if (SM.isInSystemHeader(Def->getLocation()) ||
      Def->getLocation().isMacroID()) {
    refuse(Use, "member function '" + MD->getQualifiedNameAsString() +
                    "' cannot be copied into the view",
           Def->getLocation(), "it is in a system header or a macro");
    return;
  }
  if (isa<CXXConstructorDecl>(MD) || isa<CXXDestructorDecl>(MD)) {
    refuse(Use, "constructor or destructor called on the element");
    return;
  }
  const auto *MDef = cast<CXXMethodDecl>(Def);
  view(B).Methods[B.Path].insert(MDef);
  Env E;
  E.HasThis = true;
  E.This = B;
  enqueue(MDef, E, keyOf(MDef, E));
}

/// The binding of an expression that denotes a whole element (the loop
/// variable, `*p`, `&e`, `this`), or false.
bool Analyzer::evalElement(const Expr *E, const Env &En, Binding &B, Kind &K) {
  E = E->IgnoreParens();
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
    switch (IC->getCastKind()) {
    case CK_NoOp:
    case CK_LValueToRValue:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
      return evalElement(IC->getSubExpr(), En, B, K);
    default:
      return false;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (!evalElement(U->getSubExpr(), En, B, K))
      return false;
    if (U->getOpcode() == UO_Deref && K == Kind::Pointer)
      return K = Kind::Lvalue, true;
    if (U->getOpcode() == UO_AddrOf && K == Kind::Lvalue)
      return K = Kind::Pointer, true;
    return false;
  }
  if (isa<CXXThisExpr>(E)) {
    if (!En.HasThis)
      return false;
    B = En.This;
    K = Kind::Pointer;
    return B.Path.empty();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    auto It = V ? En.Vars.find(V) : En.Vars.end();
    if (It == En.Vars.end())
      return false;
    B = It->second.first;
    K = It->second.second;
    return B.Path.empty();
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2) {
      auto It = ExtraRootViews.find(OC);
      if (It != ExtraRootViews.end())
        return B = Binding{It->second, {}}, K = Kind::Lvalue, true;
    }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    auto It = ExtraRootViews.find(AS);
    if (It != ExtraRootViews.end())
      return B = Binding{It->second, {}}, K = Kind::Lvalue, true;
  }
  return false;
}

/// A lambda written in analysed code and called with elements: its element
/// parameters are bound to the view when every call passes an element of the
/// same view (they are rewritten to `auto`, so the lambda takes the proxy).
void Analyzer::bindLambdaParams(const Collector &C, Env &E) {
  std::map<const ParmVarDecl *, std::pair<Binding, Kind>> Found;
  std::set<const ParmVarDecl *> Mixed;
  for (const CallExpr *CE : C.Calls) {
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
    if (!OC || !MD || !MD->getParent()->isLambda())
      continue;
    for (unsigned I = 1; I < CE->getNumArgs() && I - 1 < MD->getNumParams();
         ++I) {
      const ParmVarDecl *PD = MD->getParamDecl(I - 1);
      QualType PT = PD->getType();
      if (!PT->isReferenceType() && !PT->isPointerType())
        continue;
      Binding B;
      Kind K;
      if (!evalElement(CE->getArg(I), E, B, K)) {
        Mixed.insert(PD);
        continue;
      }
      auto [It, New] = Found.insert({PD, {B, PT->isPointerType() ? Kind::Pointer
                                                                  : Kind::Lvalue}});
      if (!New && It->second.first.View != B.View)
        Mixed.insert(PD);
    }
  }
  for (auto &[PD, BK] : Found)
    if (!Mixed.count(PD) && !E.Vars.count(PD)) {
      E.Vars[PD] = BK;
      LambdaParams.insert(PD);
      view(BK.first).Aliases.insert(PD);
    }
}

bool Analyzer::call(const CallExpr *C, const Expr *Arg, Kind K,
                    const Binding &B, Env &E, const Expr *&Result,
                    Kind &ResultKind) {
  Result = nullptr;
  if (C->getCallee()->IgnoreParenImpCasts() == Arg->IgnoreParenImpCasts() ||
      C->getCallee() == Arg) {
    refuse(Arg->getExprLoc(), "the element is called like a function");
    return false;
  }
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD) {
    refuse(C->getBeginLoc(),
           "the element is passed through a function pointer or other "
           "indirect call",
           C->getBeginLoc(), "soaview must see which function receives it");
    return false;
  }
  unsigned ArgIdx = 0;
  for (; ArgIdx < C->getNumArgs(); ++ArgIdx)
    if (C->getArg(ArgIdx) == Arg)
      break;
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (OC && MD && ArgIdx == 0) { // member operator on the element
    BoundCalls.insert(C);
    if (K != Kind::Lvalue) {
      refuse(Arg->getExprLoc(), "unsupported use of the element pointer");
      return false;
    }
    method(MD, B, C->getExprLoc());
    QualType RT = MD->getReturnType();
    if ((RT->isReferenceType() || RT->isPointerType()) &&
        isRecordOf(RT->getPointeeType()->getAsRecordDecl(), B.View)) {
      Result = C;
      ResultKind = RT->isPointerType() ? Kind::Pointer : Kind::Lvalue;
    }
    return !Failed;
  }
  if (MD && MD->getParent()->isLambda() && ArgIdx >= 1 &&
      ArgIdx - 1 < MD->getNumParams() &&
      LambdaParams.count(MD->getParamDecl(ArgIdx - 1))) {
    BoundCalls.insert(C);
    return true; // the lambda's body is analysed where it is written
  }
  if (MD && MD->getParent()->isLambda()) {
    refuse(Arg->getExprLoc(),
           "a lambda receiving the element is also called with other objects",
           MD->getLocation(),
           "call it only with elements of this loop, or make it a function");
    return false;
  }
  if (MD && !MD->isStatic()) {
    refuse(Arg->getExprLoc(),
           "the element is passed to member function '" +
               MD->getQualifiedNameAsString() + "'",
           MD->getLocation(),
           "soaview follows elements into free functions, function "
           "templates and the element's own member functions");
    return false;
  }
  unsigned Shift = OC && MD ? 1 : 0;
  unsigned ParamIdx = ArgIdx - Shift;
  if (ParamIdx >= FD->getNumParams()) {
    refuse(Arg->getExprLoc(), "the element is passed to a variadic function");
    return false;
  }
  QualType PT = FD->getParamDecl(ParamIdx)->getType();
  if (!PT->isReferenceType() && !PT->isPointerType()) {
    refuse(Arg->getExprLoc(),
           "the element is copied into a by-value parameter of '" +
               FD->getQualifiedNameAsString() + "'",
           FD->getParamDecl(ParamIdx)->getLocation(),
           "pass it by reference or pointer");
    return false;
  }
  const RecordDecl *PR = PT->getPointeeType()->getAsRecordDecl();
  if (!PR || PR->getCanonicalDecl() !=
                 view(B).Element->getCanonicalDecl()) {
    refuse(Arg->getExprLoc(),
           "the element is passed as '" + PT.getAsString() + "' to '" +
               FD->getQualifiedNameAsString() + "'",
           FD->getParamDecl(ParamIdx)->getLocation(),
           "parameters receiving the element must have the element's own "
           "type");
    return false;
  }
  // Every argument of this call is bound at once (per-argument binding:
  // `Density(local, active)` binds parameter 0 to one view and 1 to another).
  if (!BoundCalls.insert(C).second)
    return true;
  if (!visible(FD, C->getExprLoc(), "a function receiving the element"))
    return false;
  const FunctionDecl *Def = nullptr;
  FD->hasBody(Def);
  if (Def->getLocation().isMacroID()) {
    refuse(C->getExprLoc(), "'" + FD->getQualifiedNameAsString() +
                                "' is defined by a macro and cannot be cloned");
    return false;
  }
  std::vector<int> ParamViews(Def->getNumParams(), -1);
  Env CE;
  for (unsigned I = Shift; I < C->getNumArgs(); ++I) {
    unsigned PI = I - Shift;
    Binding AB;
    Kind AK;
    if (PI >= Def->getNumParams() || !evalElement(C->getArg(I), E, AB, AK))
      continue;
    QualType APT = Def->getParamDecl(PI)->getType();
    if (!APT->isReferenceType() && !APT->isPointerType())
      continue; // refused when that argument's own root is followed
    ParamViews[PI] = AB.View;
    CE.Vars[Def->getParamDecl(PI)] = {
        AB, APT->isPointerType() ? Kind::Pointer : Kind::Lvalue};
  }
  ParamViews[ParamIdx] = B.View;
  CE.Vars[Def->getParamDecl(ParamIdx)] = {
      B, PT->isPointerType() ? Kind::Pointer : Kind::Lvalue};
  bool NeedsClone = true;
  if (const FunctionDecl *Pattern = Def->getTemplateInstantiationPattern()) {
    if (Def->getTemplateSpecializationKind() == TSK_ExplicitSpecialization) {
      refuse(C->getExprLoc(), "explicit specializations are not supported");
      return false;
    }
    for (unsigned PI = 0; PI < ParamViews.size(); ++PI)
      if (ParamViews[PI] >= 0 &&
          !Pattern->getParamDecl(PI)->getType()->isDependentType()) {
        refuse(C->getExprLoc(),
               "function template '" + FD->getQualifiedNameAsString() +
                   "' takes the element as a non-dependent parameter",
               Pattern->getParamDecl(PI)->getLocation(),
               "make the parameter's type a template parameter");
        return false;
      }
    NeedsClone = false;
  } else if (Def->isTemplated()) {
    refuse(C->getExprLoc(), "member of a class template is not supported");
    return false;
  }
  auto Key = std::make_pair(Def, ParamViews);
  if (!CalleeIndex.count(Key)) {
    CalleeIndex[Key] = Nest.Callees.size();
    CalleeUse U;
    U.FD = Def;
    U.ParamViews = ParamViews;
    U.NeedsClone = NeedsClone;
    Nest.Callees.push_back(U);
  }
  enqueue(Def, CE, keyOf(Def, CE));
  return true;
}

void Analyzer::leaf(const Expr *LE, const Binding &B, bool Whole,
                    ParentMap &PM) {
  const CallExpr *RefCall = nullptr;
  auto [Read, Write] = classifyUse(LE, PM, &RefCall);
  if (RefCall) {
    // A field passed by non-const reference or pointer: the callee must be
    // visible (it may keep the address; it must at least be seen).
    const FunctionDecl *FD = RefCall->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (!FD || (!FD->hasBody(Def) && !SM.isInSystemHeader(FD->getLocation()))) {
      refuse(LE->getExprLoc(),
             "a reference to field '" + dotted(B.Path) + "' is passed to " +
                 (FD ? "'" + FD->getQualifiedNameAsString() + "'"
                     : std::string("an indirect call")) +
                 " whose definition is not visible",
             FD ? FD->getLocation() : LE->getExprLoc(),
             "the field lives in a view buffer during the loop; soaview must "
             "see what the callee does with its address");
      return;
    }
  }
  ViewModel &V = view(B);
  LeafAccess &A = Whole ? V.Wholes[B.Path] : V.Leaves[B.Path];
  if (A.FirstUse.isInvalid())
    A.FirstUse = LE->getExprLoc();
  A.Read |= Read;
  A.Written |= Write;
}

/// Whether the value of an lvalue is read, written, or both. Anything not
/// recognised counts as both, which is always safe (gathered and scattered).
std::pair<bool, bool> Analyzer::classifyUse(const Expr *LE, ParentMap &PM,
                                            const CallExpr **RefCall) {
  bool Read = false, Write = false;
  const Expr *Cur = LE;
  while (true) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(Cur));
    if (!P) {
      break; // discarded
    }
    if (isa<ParenExpr>(P)) {
      Cur = cast<Expr>(P);
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_NoOp) {
        Cur = IC;
        continue;
      }
      if (IC->getCastKind() == CK_LValueToRValue) {
        Read = true;
        break;
      }
      if (IC->getCastKind() == CK_ArrayToPointerDecay) {
        const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(
            PM.getParent(const_cast<ImplicitCastExpr *>(IC)));
        if (AS && AS->getBase() == IC) {
          Cur = AS;
          continue;
        }
      }
      Read = Write = true;
      break;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl())) {
        if (MD->isConst())
          Read = true;
        else
          Read = Write = true;
        break;
      }
      Handled.insert(ME);
      Cur = ME;
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isAssignmentOp() && BO->getLHS() == Cur) {
        Write = true;
        Read |= BO->isCompoundAssignmentOp();
      } else if (BO->getOpcode() == BO_Comma && BO->getLHS() == Cur) {
      } else
        Read = Write = true;
      break;
    }
    if (const auto *CE = dyn_cast<CallExpr>(P)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
      unsigned I = 0;
      while (I < CE->getNumArgs() && CE->getArg(I) != Cur)
        ++I;
      if (FD && OC && isa<CXXMethodDecl>(FD) && I == 0) {
        if (cast<CXXMethodDecl>(FD)->isConst())
          Read = true;
        else
          Read = Write = true;
        if (OC->isAssignmentOp() && OC->getOperator() == OO_Equal)
          Read = false;
        break;
      }
      unsigned PI = I - (OC && FD && isa<CXXMethodDecl>(FD) ? 1 : 0);
      if (FD && I < CE->getNumArgs() && PI < FD->getNumParams()) {
        QualType PT = FD->getParamDecl(PI)->getType();
        if (PT->isReferenceType() &&
            PT.getNonReferenceType().isConstQualified())
          Read = true;
        else {
          Read = Write = true;
          if (RefCall && (PT->isReferenceType() || PT->isPointerType()))
            *RefCall = CE;
        }
      } else
        Read = Write = true;
      break;
    }
    if (isa<CXXConstructExpr>(P) || isa<InitListExpr>(P)) {
      Read = true;
      break;
    }
    if (!isa<Expr>(P) && !isa<DeclStmt>(P) && !isa<ReturnStmt>(P))
      break; // discarded
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      Read = true;
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (V->getInit() == Cur && V->getType()->isReferenceType() &&
              !V->getType().getNonReferenceType().isConstQualified())
            Write = true;
      break;
    }
    Read = Write = true;
    break;
  }
  return {Read, Write};
}

void Analyzer::element(const Expr *Root, Kind K, Binding B, Env &E,
                       ParentMap &PM) {
  const Expr *Cur = Root;
  bool RootIsThis = isa<CXXThisExpr>(Root);
  CurView = B.View;
  while (!Failed) {
    const Stmt *P = PM.getParent(const_cast<Expr *>(Cur));
    if (!P)
      return; // a discarded expression statement such as `p;`
    SourceLocation L = Cur->getExprLoc();
    if (isa<ParenExpr>(P)) {
      Cur = cast<Expr>(P);
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      switch (IC->getCastKind()) {
      case CK_NoOp:
      case CK_LValueToRValue:
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase:
        Cur = IC;
        continue;
      case CK_PointerToBoolean:
        return refuse(L, "the element pointer is tested for null",
                      Nest.Loops[B.View].Form.Loop->getBeginLoc(),
                      "the view reads every element before the loop starts, "
                      "so null elements cannot be skipped inside it");
      default:
        return refuse(L, "the element is converted to '" +
                             IC->getType().getAsString() + "'");
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P)) {
      if (U->getOpcode() == UO_Deref && K == Kind::Pointer) {
        K = Kind::Lvalue;
        Cur = U;
        continue;
      }
      if (U->getOpcode() == UO_AddrOf && K == Kind::Lvalue) {
        K = Kind::Pointer;
        Cur = U;
        continue;
      }
      return refuse(L, "unsupported operation on the element");
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P)) {
      Handled.insert(ME);
      const ValueDecl *M = ME->getMemberDecl();
      if (const auto *FD = dyn_cast<FieldDecl>(M)) {
        if (!checkField(FD, ME->getMemberLoc()))
          return;
        FieldPath NP = B.Path;
        NP.push_back(FD);
        QualType FT = FD->getType();
        const RecordDecl *FR = FT->getAsRecordDecl();
        if (FR && !FR->isUnion()) {
          // A sub-object: keep walking, it may be used whole.
          const Stmt *PP = PM.getParent(const_cast<MemberExpr *>(ME));
          while (PP && (isa<ParenExpr>(PP) ||
                        (isa<ImplicitCastExpr>(PP) &&
                         cast<ImplicitCastExpr>(PP)->getCastKind() == CK_NoOp)))
            PP = PM.getParent(const_cast<Stmt *>(PP));
          const auto *Next = dyn_cast_or_null<MemberExpr>(PP);
          // Library types (std::array, std::string, ...) are never taken
          // apart: they are leaves, copied whole.
          if (Next && !SM.isInSystemHeader(FR->getLocation())) {
            B.Path = NP;
            K = Kind::Lvalue;
            Cur = ME;
            continue;
          }
          if (!FT.isTriviallyCopyableType(Ctx))
            return refuse(ME->getMemberLoc(),
                          "field '" + FD->getName() +
                              "' is used as a whole but is not trivially "
                              "copyable",
                          FD->getLocation(), "views copy fields with memcpy");
          leaf(ME, Binding{B.View, NP}, /*Whole=*/true, PM);
          return;
        }
        if (!FT.isTriviallyCopyableType(Ctx))
          return refuse(ME->getMemberLoc(),
                        "field '" + FD->getName() +
                            "' is not trivially copyable",
                        FD->getLocation(), "views copy fields with memcpy");
        leaf(ME, Binding{B.View, NP}, /*Whole=*/FR != nullptr, PM);
        return;
      }
      if (const auto *MD = dyn_cast<CXXMethodDecl>(M)) {
        if (MD->isStatic())
          return;
        const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(
            PM.getParent(const_cast<MemberExpr *>(ME)));
        if (!MC)
          return refuse(ME->getMemberLoc(),
                        "member function of the element used without a call");
        BoundCalls.insert(MC);
        method(MD, B, ME->getMemberLoc());
        QualType RT = MD->getReturnType();
        if ((RT->isReferenceType() || RT->isPointerType()) &&
            isRecordOf(RT->getPointeeType()->getAsRecordDecl(), B.View)) {
          if (!B.Path.empty())
            return refuse(ME->getMemberLoc(),
                          "member function returning a sub-object reference");
          Cur = MC;
          K = RT->isPointerType() ? Kind::Pointer : Kind::Lvalue;
          continue;
        }
        return;
      }
      return; // static data member or enumerator named through the element
    }
    if (const auto *C = dyn_cast<CallExpr>(P)) {
      const Expr *Res;
      Kind RK;
      if (!call(C, Cur, K, B, E, Res, RK))
        return;
      if (!Res)
        return;
      Cur = Res;
      K = RK;
      continue;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || V->getInit() != Cur)
          continue;
        QualType VT = V->getType();
        bool Ptr = VT->isPointerType();
        if (!(VT->isReferenceType() || Ptr) || !V->isLocalVarDecl() ||
            V->isStaticLocal())
          return refuse(V->getLocation(),
                        "the element is copied into '" + V->getName() + "'",
                        V->getLocation(),
                        "bind it by reference ('auto &') or pointer");
        if ((Ptr ? Kind::Pointer : Kind::Lvalue) != K)
          return refuse(V->getLocation(), "unsupported alias of the element");
        E.Vars[V] = {B, K};
        view(B).Aliases.insert(V);
        return;
      }
      return refuse(L, "unsupported declaration using the element");
    }
    if (isa<ReturnStmt>(P)) {
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(E.Fn);
      if (RootIsThis && MD && B.Path.empty() &&
          isElementRecord(
              MD->getReturnType()->getPointeeType().isNull()
                  ? nullptr
                  : MD->getReturnType()->getPointeeType()->getAsRecordDecl()))
        return; // `return *this;`: the call result is the element again
      return refuse(L, "the element escapes through a return statement",
                    P->getBeginLoc(),
                    "a view element exists only during its iteration");
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->getOpcode() == BO_Comma && BO->getLHS() == Cur)
        return;
      if (BO->isComparisonOp() && K == Kind::Pointer && B.Path.empty()) {
        // Compared by the address of the original object, which the proxy
        // keeps: `p != q` becomes `identity(p) != identity(q)`.
        Nest.Loops[B.View].Identities.push_back(Cur);
        return;
      }
      if (BO->isComparisonOp())
        return refuse(L, "element addresses are compared",
                      BO->getOperatorLoc(),
                      "only pointers to whole elements can be compared");
      if (BO->isAssignmentOp())
        return refuse(L, "the element or its address is assigned",
                      BO->getOperatorLoc(),
                      "a view element exists only during its iteration");
      return refuse(L, "unsupported operation on the element");
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P))
      if (!CE->getConstructor()->isCopyOrMoveConstructor())
        return refuse(L, "the element is passed to a constructor of '" +
                             CE->getType().getAsString() + "'",
                      CE->getConstructor()->getLocation(),
                      "an object built from the element could keep it "
                      "beyond the iteration");
    if (isa<CXXConstructExpr>(P))
      return BoundWholes.insert(cast<Expr>(P)), refuse(L, "the element is copied", L,
                    "a view holds only the fields the loop uses; bind the "
                    "element by reference instead");
    if (!isa<Expr>(P))
      return; // the value is discarded (expression statement, loop body)
    if (const auto *LE = dyn_cast<LambdaExpr>(P)) {
      const Stmt *LP = PM.getParent(const_cast<LambdaExpr *>(LE));
      while (LP && (isa<ImplicitCastExpr>(LP) ||
                    isa<MaterializeTemporaryExpr>(LP) ||
                    isa<CXXBindTemporaryExpr>(LP) || isa<ParenExpr>(LP)))
        LP = PM.getParent(const_cast<Stmt *>(LP));
      if (LP && (isa<DeclStmt>(LP) || isa<CXXOperatorCallExpr>(LP)))
        return; // called right away or kept in a local: body analysed inline
      return refuse(LE->getBeginLoc(),
                    "a lambda capturing the element may outlive the "
                    "iteration",
                    LE->getBeginLoc(),
                    "call the lambda directly or keep it in a local variable");
    }
    return refuse(L, "unsupported use of the element");
  }
}

void Analyzer::analyse(const Stmt *Body, Env &E) {
  Collector C;
  C.ExtraRoots = ExtraRootViews;
  C.TraverseStmt(const_cast<Stmt *>(Body));
  ParentMap PM(const_cast<Stmt *>(Body));
  bindLambdaParams(C, E);
  for (const Expr *R : C.Roots) {
    if (Failed)
      return;
    auto XR = C.ExtraRoots.find(R);
    if (XR != C.ExtraRoots.end()) {
      element(R, Kind::Lvalue, Binding{XR->second, {}}, E, PM);
      continue;
    }
    if (isa<CXXThisExpr>(R)) {
      if (E.HasThis)
        element(R, Kind::Pointer, E.This, E, PM);
      continue;
    }
    const auto *V = dyn_cast<VarDecl>(cast<DeclRefExpr>(R)->getDecl());
    auto It = E.Vars.find(V);
    if (It != E.Vars.end()) {
      auto [B, K] = It->second;
      element(R, K, B, E, PM);
    }
  }
  for (const MemberExpr *ME : C.Members) {
    if (Handled.count(ME))
      continue;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || !isElementRecord(FD->getParent()))
      continue;
    Foreigns.push_back(
        {ME->getMemberLoc(), FD, classifyUse(ME, PM).second, FD->getParent()});
  }
  // Whole-object copies and assignments of other elements.
  for (const Expr *W : C.Wholes) {
    if (BoundWholes.count(W))
      continue;
    const RecordDecl *RD = W->getType()->getAsRecordDecl();
    if (!isElementRecord(RD))
      continue;
    bool IsWrite = isa<CXXOperatorCallExpr>(W);
    Foreigns.push_back({W->getExprLoc(), nullptr, IsWrite, RD});
  }
  for (const CallExpr *CE : C.Calls) {
    if (BoundCalls.count(CE))
      continue;
    const FunctionDecl *FD = CE->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (!FD || !FD->hasBody(Def) || !Def ||
        SM.isInSystemHeader(Def->getLocation()))
      continue;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def))
      if (MD->getParent()->isLambda())
        continue; // lambda bodies are analysed where they are written
    Env CE2;
    enqueue(Def, CE2, keyOf(Def, CE2));
  }
  for (const CXXConstructExpr *CE : C.Ctors) {
    const FunctionDecl *Def = nullptr;
    const CXXConstructorDecl *CD = CE->getConstructor();
    if (!CD->hasBody(Def) || !Def || SM.isInSystemHeader(Def->getLocation()))
      continue;
    Env CE2;
    enqueue(Def, CE2, keyOf(Def, CE2));
  }
}

void Analyzer::checkForeign() {
  for (const Foreign &F : Foreigns) {
    for (size_t VI = 0; VI < Nest.Loops.size(); ++VI) {
      if (!isRecordOf(F.Record, (int)VI))
        continue;
      for (auto &[Path, A] : Nest.Loops[VI].View.Leaves) {
        if (F.FD && std::find(Path.begin(), Path.end(), F.FD) == Path.end())
          continue;
        if (!A.Written && !F.Write)
          continue;
        CurView = (int)VI;
        refuse(F.Loc,
               "field '" + dotted(Path) + "' is " +
                   (F.Write ? "written" : "read") +
                   " through another object of the element type while the "
                   "loop " + (A.Written ? "writes" : "reads") +
                   " it through the view",
               A.FirstUse,
               "the view works on a copy of the field, so the two accesses "
               "could see different values");
        return;
      }
    }
  }
}

static bool overlaps(const FieldPath &A, const FieldPath &B) {
  size_t N = std::min(A.size(), B.size());
  return std::equal(A.begin(), A.begin() + N, B.begin());
}

/// Two views of the same element type in one nest may hold the same objects
/// (the active set contains the local one). That is safe only when no field
/// written through one view is held by the other (paper section 3.3).
void Analyzer::checkAliasing() {
  for (size_t I = 0; I < Nest.Loops.size(); ++I)
    for (size_t J = I + 1; J < Nest.Loops.size(); ++J) {
      const ViewModel &VI = Nest.Loops[I].View, &VJ = Nest.Loops[J].View;
      if (!isRecordOf(VJ.Element, (int)I) && !isRecordOf(VI.Element, (int)J))
        continue;
      for (auto &[PI, AI] : VI.Leaves)
        for (auto &[PJ, AJ] : VJ.Leaves) {
          if (!overlaps(PI, PJ) || (!AI.Written && !AJ.Written))
            continue;
          const LoopPlan &W = AI.Written ? Nest.Loops[I] : Nest.Loops[J];
          const LoopPlan &O = AI.Written ? Nest.Loops[J] : Nest.Loops[I];
          StoredDiag &D = Diags.error(
              (AI.Written ? AI : AJ).FirstUse,
              "cannot convert loops: field '" +
                  dotted(AI.Written ? PI : PJ) + "' is written through the "
                  "view of one loop and held by the view of another loop "
                  "over the same element type");
          Diags.note(D, W.Form.Loop->getBeginLoc(), "the loop writing it");
          Diags.note(D, O.Form.Loop->getBeginLoc(),
                     "the loop holding it; its containers may share elements, "
                     "so the views could disagree");
          Failed = true;
          return;
        }
    }
}

bool Analyzer::run() {
  Env Top;
  Top.IsLoopBody = true;
  Top.Fn = Nest.Loops[0].Form.Function;
  for (size_t I = 0; I < Nest.Loops.size(); ++I) {
    const LoopForm &F = Nest.Loops[I].Form;
    Binding B{(int)I, {}};
    if (F.Kind == LoopFormKind::Range)
      Top.Vars[F.LoopVar] = {B, F.VarIsPointer ? Kind::Pointer : Kind::Lvalue};
    else
      for (const Expr *U : F.TargetUses)
        ExtraRootViews[U] = (int)I;
  }
  analyse(Nest.Root ? Nest.Root : Nest.Loops[0].Form.Body, Top);
  while (!Queue.empty() && !Failed) {
    Work W = std::move(Queue.front());
    Queue.pop_front();
    if (const Stmt *Body = W.FD->getBody())
      analyse(Body, W.E);
  }
  if (Failed)
    return false;
  for (LoopPlan &L : Nest.Loops)
    L.View.normalise();
  checkForeign();
  if (!Failed)
    checkAliasing();
  return !Failed;
}

} // namespace

bool analyseNest(ASTContext &Ctx, DiagStore &Diags, NestPlan &Nest) {
  for (LoopPlan &L : Nest.Loops) {
    L.View.Element = L.Form.Element;
    L.View.ElementType = L.Form.ElementType;
  }
  Analyzer A(Ctx, Diags, Nest);
  return A.run();
}

} // namespace soaview
