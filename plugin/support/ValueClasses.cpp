//===- ValueClasses.cpp - which classes views may carry as bytes ----------===//
//
// whyNotBytes reads the bodies of a class's special members: a copy that
// copies each member from the other object (in its initialisers, by
// assignment, in a loop over an array member, or with memcpy of the member),
// an empty destructor and a default constructor with constant initialisers
// keep the class's value its bytes. Anything else is named. Tests:
// test/Sema/value-classes.cpp, test/Exec/constructs/byte-copied-fields.cpp.
//===----------------------------------------------------------------------===//
#include "support/ValueClasses.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace soaview {

namespace {

constexpr const char *LibraryClass =
    "is a library class that is not trivially copyable";

/// A class of the standard library's atomics: std::atomic, std::atomic_flag,
/// std::atomic_ref and the bases libstdc++ and libc++ build them from
/// (std::__atomic_base, std::__cxx_atomic_impl, ...).
bool isStdAtomicClass(const CXXRecordDecl *RD) {
  if (!RD->isInStdNamespace())
    return false;
  StringRef N = RD->getName();
  return N.starts_with("atomic") || N.starts_with("__atomic") ||
         N.starts_with("__cxx_atomic");
}

std::string typeName(const ASTContext &Ctx, QualType T) {
  PrintingPolicy PP(Ctx.getLangOpts());
  PP.SuppressTagKeyword = true;
  return T.getUnqualifiedType().getAsString(PP);
}

const Expr *bare(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *EC = dyn_cast<ExprWithCleanups>(E))
      E = EC->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
             CE && CE->getNumArgs() == 1 &&
             CE->getConstructor()->isCopyOrMoveConstructor())
      E = CE->getArg(0);
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (isa<CXXFunctionalCastExpr, CStyleCastExpr>(E))
      E = cast<ExplicitCastExpr>(E)->getSubExpr();
    else
      return E;
  }
}

/// E without `*` and what bare() strips: `*this` is `this`, `*o` is `o`.
const Expr *object(const Expr *E) {
  E = bare(E);
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    E = bare(U->getSubExpr());
  return E;
}

/// `this` (explicit or implicit) on one side, the other object O on the
/// other: `*this`, `this->` against `o.`, `o->` or `*o`.
bool isThis(const Expr *E) { return isa<CXXThisExpr>(object(E)); }
bool isOther(const Expr *E, const ParmVarDecl *O) {
  const auto *DR = dyn_cast<DeclRefExpr>(object(E));
  return DR && DR->getDecl() == O;
}

/// Dst names a part of *this and Src the same part of O: the same members,
/// subscripted by the same variables.
bool samePart(const Expr *Dst, const Expr *Src, const ParmVarDecl *O) {
  Dst = bare(Dst);
  Src = bare(Src);
  if (const auto *D = dyn_cast<MemberExpr>(Dst)) {
    const auto *S = dyn_cast<MemberExpr>(Src);
    return S && D->getMemberDecl() == S->getMemberDecl() &&
           ((isThis(D->getBase()) && isOther(S->getBase(), O)) ||
            samePart(D->getBase(), S->getBase(), O));
  }
  if (const auto *D = dyn_cast<CXXDependentScopeMemberExpr>(Dst)) {
    const auto *S = dyn_cast<CXXDependentScopeMemberExpr>(Src);
    if (!S || S->isImplicitAccess() || D->getMember() != S->getMember())
      return false;
    if (D->isImplicitAccess() || isThis(D->getBase()))
      return isOther(S->getBase(), O);
    return samePart(D->getBase(), S->getBase(), O);
  }
  if (const auto *D = dyn_cast<ArraySubscriptExpr>(Dst)) {
    const auto *S = dyn_cast<ArraySubscriptExpr>(Src);
    const auto *DI = S ? dyn_cast<DeclRefExpr>(bare(D->getIdx())) : nullptr;
    const auto *SI = S ? dyn_cast<DeclRefExpr>(bare(S->getIdx())) : nullptr;
    return DI && SI && DI->getDecl() == SI->getDecl() &&
           samePart(D->getBase(), S->getBase(), O);
  }
  return false;
}

/// `a = o.a`, by the built-in or a class's own assignment.
bool isMemberCopy(const Expr *E, const ParmVarDecl *O) {
  E = bare(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->getOpcode() == BO_Assign &&
           samePart(BO->getLHS(), BO->getRHS(), O);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
           samePart(OC->getArg(0), OC->getArg(1), O);
  if (const auto *CE = dyn_cast<CallExpr>(E)) { // memcpy(a, o.a, sizeof a)
    const FunctionDecl *FD = CE->getDirectCallee();
    unsigned B = FD ? FD->getBuiltinID() : 0;
    return (B == Builtin::BImemcpy || B == Builtin::BI__builtin_memcpy ||
            B == Builtin::BImemmove || B == Builtin::BI__builtin_memmove) &&
           samePart(CE->getArg(0)->IgnoreParenCasts(),
                    CE->getArg(1)->IgnoreParenCasts(), O);
  }
  return false;
}

/// A statement of a copy's body that only copies members of O: member
/// copies, loops and blocks of them, `if (this != &o)` around them and
/// `return *this`.
bool copiesOnly(const Stmt *S, const ParmVarDecl *O) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(CS->body(),
                        [&](const Stmt *K) { return copiesOnly(K, O); });
  if (const auto *F = dyn_cast<ForStmt>(S))
    return copiesOnly(F->getBody(), O);
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    return R->getRetValue() && isThis(R->getRetValue());
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !If->getElse() && copiesOnly(If->getThen(), O);
  if (const auto *E = dyn_cast<Expr>(S))
    return isMemberCopy(E, O);
  return false;
}

/// A copy constructor's initialiser that copies its member or base from O.
bool copiesFrom(const CXXCtorInitializer *I, const ParmVarDecl *O) {
  if (!I->isWritten())
    return true; // default-initialised; the body copies it or it is a base
  const Expr *E = bare(I->getInit());
  if (isa<ArrayInitLoopExpr>(E))
    return true;
  if (I->isBaseInitializer())
    return isOther(E, O);
  const auto *ME = dyn_cast<MemberExpr>(E);
  return ME && ME->getMemberDecl() == I->getMember() &&
         isOther(ME->getBase(), O);
}

/// `{}`: a function body that does nothing (a function-try-block does not
/// count as empty).
bool emptyBody(const Stmt *Body) {
  const auto *CS = dyn_cast<CompoundStmt>(Body);
  return CS && CS->body_empty();
}

/// The definition of M, or of its pattern when M is a member of a class
/// template specialization that the program never called (so never
/// instantiated); null when neither is visible.
const FunctionDecl *definition(const FunctionDecl *M) {
  const FunctionDecl *Def = nullptr;
  if (M->hasBody(Def) && Def->getBody())
    return Def;
  const FunctionDecl *Pattern = M->getTemplateInstantiationPattern();
  if (Pattern && Pattern->hasBody(Def) && Def->getBody())
    return Def;
  return nullptr;
}

std::optional<NotBytes> because(const NamedDecl *D, StringRef Why) {
  std::string Name;
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    llvm::raw_string_ostream OS(Name);
    FD->printQualifiedName(OS);
  } else {
    Name = D->getQualifiedNameAsString();
  }
  return NotBytes{D, "'" + Name + "' " + Why.str()};
}

/// What a user-provided special member of RD does that a byte copy would
/// not; none when it copies members, does nothing or initialises with
/// constants.
std::optional<NotBytes> specialMember(const ASTContext &Ctx,
                                      const CXXMethodDecl *M) {
  if (!M->isUserProvided() || M->isDeleted())
    return std::nullopt;
  const FunctionDecl *Def = definition(M);
  if (!Def)
    return because(M, "is not defined where soaview can read it");
  const Stmt *Body = Def->getBody();
  if (isa<CXXDestructorDecl>(M))
    return emptyBody(Body) ? std::nullopt
                           : because(M, "does more than nothing");
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def);
  if (Ctor && Ctor->isDefaultConstructor()) {
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->isWritten() && !I->getInit()->isConstantInitializer(
                                const_cast<ASTContext &>(Ctx), false))
        return because(M, "initialises a member with a value that is not a "
                          "constant");
    return emptyBody(Body)
               ? std::nullopt
               : because(M, "does more than initialise its members");
  }
  const ParmVarDecl *O = Def->getParamDecl(0);
  if (Ctor)
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (!copiesFrom(I, O))
        return because(M, "does more than copy the members");
  return copiesOnly(Body, O) ? std::nullopt
                             : because(M, "does more than copy the members");
}

/// The special members whose bodies decide: destructor, default
/// constructor, copy and move constructors and assignments.
std::optional<NotBytes> specialMembers(const ASTContext &Ctx,
                                       const CXXRecordDecl *RD) {
  if (const CXXDestructorDecl *D = RD->getDestructor())
    if (auto Why = specialMember(Ctx, D))
      return Why;
  for (const CXXConstructorDecl *C : RD->ctors())
    if (C->isDefaultConstructor() || C->isCopyOrMoveConstructor())
      if (auto Why = specialMember(Ctx, C))
        return Why;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator())
      if (auto Why = specialMember(Ctx, M))
        return Why;
  return std::nullopt;
}

bool inLibrary(const ASTContext &Ctx, const Decl *D) {
  return Ctx.getSourceManager().isInSystemHeader(D->getLocation());
}

/// A field that is a number, an enumeration or a value-like class.
std::optional<NotBytes> field(const ASTContext &Ctx, const FieldDecl *F) {
  QualType FT = Ctx.getBaseElementType(F->getType());
  if (F->isBitField())
    return because(F, "is a bit-field");
  if (FT->isArithmeticType() || FT->isEnumeralType())
    return std::nullopt;
  if (FT->isRecordType() && inLibrary(Ctx, FT->getAsRecordDecl()))
    return FT.isTriviallyCopyableType(Ctx) ? std::nullopt
                                           : because(F, LibraryClass);
  if (FT->isRecordType())
    return whyNotBytes(Ctx, FT);
  return because(F, "is a " + typeName(Ctx, FT) +
                        ", neither a number nor a class of numbers");
}

} // namespace

std::optional<AtomicPart> atomicPart(const ASTContext &Ctx, QualType T) {
  T = Ctx.getBaseElementType(T);
  if (T->isAtomicType())
    return AtomicPart{"", typeName(Ctx, T)};
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return std::nullopt;
  if (isStdAtomicClass(RD))
    return AtomicPart{"", typeName(Ctx, T)};
  for (const CXXBaseSpecifier &B : RD->bases())
    if (atomicPart(Ctx, B.getType()))
      return AtomicPart{"", typeName(Ctx, T)}; // derived from an atomic
  for (const FieldDecl *F : RD->fields())
    if (std::optional<AtomicPart> In = atomicPart(Ctx, F->getType())) {
      In->Member = In->Member.empty() ? F->getNameAsString()
                                      : F->getNameAsString() + "." + In->Member;
      return In;
    }
  return std::nullopt;
}

std::optional<NotBytes> whyNotBytes(const ASTContext &Ctx, QualType T) {
  T = Ctx.getBaseElementType(T);
  if (T.isTriviallyCopyableType(Ctx))
    return std::nullopt;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return NotBytes{nullptr,
                    "'" + typeName(Ctx, T) + "' is not trivially copyable"};
  if (inLibrary(Ctx, RD))
    return because(RD, LibraryClass);
  if (RD->isPolymorphic())
    return because(RD, "has virtual functions");
  if (RD->isUnion() || RD->getNumVBases())
    return because(RD, RD->isUnion() ? "is a union" : "has virtual bases");
  if (auto Why = specialMembers(Ctx, RD))
    return Why;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (auto Why = whyNotBytes(Ctx, B.getType()))
      return Why;
  for (const FieldDecl *F : RD->fields())
    if (auto Why = field(Ctx, F))
      return Why;
  return std::nullopt;
}

} // namespace soaview
