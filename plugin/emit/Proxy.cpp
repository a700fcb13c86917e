//===- Proxy.cpp - the proxy view of a view group -------------------------===//
//
// The proxy itself (ProxyEmitter, emit/ViewParts.h): its members, a
// constructor per loop, the destructor writing back, unions held whole.
// What it copies of the element's class is in ViewMembers.cpp, each loop's
// buffers (spec) in Specs.cpp, the entry point in Views.cpp.
//===----------------------------------------------------------------------===//
#include "emit/ViewParts.h"
#include "emit/Views.h"

#include "emit/Keys.h"
#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"
#include "support/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>

using namespace clang;

namespace soaview {

/// The name a view gives the field F: its own, or for an anonymous union
/// held whole (isUnionLeaf) `soaview_u<index>`.
std::string memberName(const FieldDecl *F) {
  if (F->isAnonymousStructOrUnion())
    return "soaview_u" + std::to_string(F->getFieldIndex());
  return F->getName().str();
}

namespace {

/// The path as the view's code names it: `kin.soaview_u2` for a union held
/// whole.
std::string viewMember(const FieldPath &P) {
  if (!isUnionLeaf(P))
    return dotted(P);
  std::string Prefix = dotted(FieldPath(P.begin(), P.end() - 1));
  return (Prefix.empty() ? "" : Prefix + ".") + memberName(P.back());
}

} // namespace

/// Name of the SoA buffer of a leaf: the path joined with '_' (identifiers
/// stay valid; nothing is stripped, so `p` and `p_` stay distinct).
std::string bufferName(const FieldPath &P) {
  std::string S;
  for (const FieldDecl *F : P)
    if (!F->isAnonymousStructOrUnion() || (F == P.back() && isUnionLeaf(P)))
      S += (S.empty() ? "" : "_") + memberName(F);
  return S;
}

//--- The proxy ----------------------------------------------------------------

/// How a loop's constructor sets one leaf from slot i of its buffers.
void ProxyEmitter::leafInit(const ViewGroup &G, const ProxyNode &Kid,
                            ProxyParts &Parts) const {
  std::string Name = memberName(Kid.Field);
  QualType T = Kid.Field->getType();
  std::string Buffer = "s." + bufferName(Kid.Path);
  QualType Elem;
  if (isUnionLeaf(Kid.Path)) { // its bytes, whichever member they hold
    Parts.Inits.push_back(Name + "(" + Buffer + "[i])");
  } else if (unsigned Components = splitComponents(Emit.Ast, T, Elem)) {
    std::string List;
    for (unsigned C = 0; C < Components; ++C)
      List += (C ? ", " : "") + Buffer + "[" + std::to_string(C) + "][i]";
    Parts.Inits.push_back(Name + "{" + List + "}");
  } else if (T->isArrayType() &&
             Emit.Target.declarations().copiesArrays(G.Device)) {
    Parts.Copies.push_back(
        fill("${Copy}(${Name}, ${Buffer}[i]);",
             {{"Copy", rt::CopyArray}, {"Name", Name}, {"Buffer", Buffer}}));
  } else if (T->isArrayType() || !T.isTriviallyCopyableType(Emit.Ast)) {
    // Arrays, and classes that views carry as bytes (copiesAsBytes): their
    // own copy operations run only where the program copies.
    Parts.Copies.push_back(
        fill("std::memcpy(${Void}&${Name}, &${Buffer}[i], sizeof ${Name});",
             {{"Void", T->isArrayType() ? "" : "(void *)"},
              {"Name", Name},
              {"Buffer", Buffer}}));
  } else {
    Parts.Inits.push_back(Name + "(" + Buffer + "[i])");
  }
}

/// The members of proxy node N: its leaves' values and nested proxies.
void ProxyEmitter::members(CodeWriter &W, const NestPlan &Nest,
                           const ViewGroup &G, const ProxyNode &N) const {
  for (auto &Kid : N.Kids) {
    std::string Name = Kid->Field->getName().str();
    if (Kid->Leaf && isUnionLeaf(Kid->Path))
      heldUnion(W, G, Kid->Path);
    else if (Kid->Leaf && G.InPlace.count(Kid->Path))
      W.line(Emit.Types.declare(
                 Emit.Ast.getLValueReferenceType(Kid->Field->getType()), Name) +
             "; // in the element: another view may hold it");
    else if (Kid->Leaf)
      W.line(
          Emit.Types.declare(Kid->Field->getType().getUnqualifiedType(), Name) +
          ";");
    else
      proxy(W, Nest, G, *Kid, "soaview_" + Name + "_proxy", " " + Name + ";");
  }
}

/// What the constructor for loop Loop sets in node N: the leaves the loop
/// gathers, the nested proxies holding some, and at the top the fields in
/// place (every loop binds them), the element's address and the slots the
/// loop writes back to.
ProxyEmitter::ProxyParts
ProxyEmitter::constructorParts(const ViewGroup &G, size_t Loop,
                               const ProxyNode &N) const {
  const ViewFields &Own = G.Fields.at(Loop);
  auto Gathers = [&](const FieldPath &P, bool Below) {
    return llvm::any_of(Own, [&](auto &F) {
      return Below ? isPrefixOf(P, F.first) : F.first == P;
    });
  };
  ProxyParts Parts;
  std::string Tag =
      fill("::soaview::loop_tag<${K}>{}", {{"K", std::to_string(Loop)}});
  for (auto &Kid : N.Kids) {
    if (Kid->Leaf && G.InPlace.count(Kid->Path))
      Parts.Inits.push_back(Kid->Field->getName().str() + "(" +
                            Access.accessPath(G, Kid->Path,
                                              std::string(rt::ElementAt) +
                                                  "<soaview_element>(s, i)") +
                            ")");
    else if (Kid->Leaf && Gathers(Kid->Path, false))
      leafInit(G, *Kid, Parts);
    else if (!Kid->Leaf && Gathers(Kid->Path, true))
      Parts.Inits.push_back(Kid->Field->getName().str() + "(" + Tag +
                            ", s, i)");
  }
  if (!N.Field) {
    Parts.Inits.push_back(
        "soaview_address(s.soaview_address ? s.soaview_address[i] : nullptr)");
    outSlotInits(G, Loop, Parts);
  }
  return Parts;
}

namespace {
/// Each slot a written leaf is written back to: its name and, for a split
/// array, its component.
std::vector<std::pair<std::string, std::string>>
outSlots(const ASTContext &Ctx, const FieldPath &Path) {
  std::string Name = "soaview_out_" + bufferName(Path);
  QualType Elem;
  unsigned Components = splitComponents(Ctx, Path.back()->getType(), Elem);
  if (!Components)
    return {{Name, ""}};
  std::vector<std::pair<std::string, std::string>> Slots;
  for (unsigned C = 0; C < Components; ++C)
    Slots.push_back({Name + "_" + std::to_string(C), std::to_string(C)});
  return Slots;
}
} // namespace

/// The top proxy remembers its element and the slots of the fields some
/// loop of the group writes, which its destructor writes back.
void ProxyEmitter::outSlotMembers(CodeWriter &W, const ViewGroup &G) const {
  W.line("[[maybe_unused]] static constexpr bool soaview_is_view = true;");
  W.line("using soaview_element = " +
         Emit.Types.name(G.Union.ElementType.getUnqualifiedType()) + ";");
  W.line("const void *soaview_address;");
  for (auto &[Path, A] : G.Union.orderedLeaves()) {
    if (!A.Written || G.InPlace.count(Path))
      continue;
    QualType Elem, FieldType = Path.back()->getType();
    std::string Type = isUnionLeaf(Path) ? unionMirror(Emit, G, Path)
                       : splitComponents(Emit.Ast, FieldType, Elem)
                           ? Emit.Types.name(Elem)
                           : Emit.Types.name(FieldType.getUnqualifiedType());
    for (auto &[Slot, Component] : outSlots(Emit.Ast, Path))
      W.line(fill("${OutSlot}<${Type}> ${Name};",
                  {{"OutSlot", rt::OutSlot}, {"Type", Type}, {"Name", Slot}}));
  }
}

/// Loop Loop's slots: its own written fields, null for the others'.
void ProxyEmitter::outSlotInits(const ViewGroup &G, size_t Loop,
                                ProxyParts &Parts) const {
  const ViewFields &Own = G.Fields.at(Loop);
  for (auto &[Path, A] : G.Union.orderedLeaves()) {
    if (!A.Written || G.InPlace.count(Path))
      continue;
    bool Writes = llvm::any_of(Own, [&, &Held = Path](auto &F) {
      return F.first == Held && F.second.Written;
    });
    std::string Buffer = "s." + bufferName(Path);
    for (auto &[Slot, Component] : outSlots(Emit.Ast, Path))
      Parts.Inits.push_back(
          Slot + "(" +
          (Writes ? "&" + Buffer +
                        (Component.empty() ? "" : "[" + Component + "]") + "[i]"
                  : std::string("nullptr")) +
          ")");
  }
}

/// A union held whole goes back to its slot member by member: only the
/// members some loop writes (HeldMembers), so that a loop reading other
/// members of the same element meanwhile reads bytes nobody writes
/// (analysis/Shared.cpp); all of it when it is used whole.
void ProxyEmitter::unionWriteBack(const ViewGroup &G, const FieldPath &Path,
                                  const std::string &Slot,
                                  std::vector<std::string> &Statements) const {
  std::string Member = viewMember(Path);
  auto Held = G.Union.HeldMembers.find(Path);
  if (Held == G.Union.HeldMembers.end()) {
    Statements.push_back(fill("if (${Slot}.p) std::memcpy(${Slot}.p, "
                              "&${Member}, sizeof ${Member});",
                              {{"Slot", Slot}, {"Member", Member}}));
    return;
  }
  for (auto &[Inner, A] : inDeclarationOrder(Held->second)) {
    bool Outer = llvm::none_of(Held->second, [&, &P = Inner](const auto &O) {
      return O.second.Written && isPrefixOf(O.first, P);
    });
    if (!A.Written || !Outer)
      continue;
    std::string Below =
        dotted(FieldPath(Inner.begin() + Path.size(), Inner.end()));
    Statements.push_back(
        fill("if (${Slot}.p) std::memcpy(&${Slot}.p->${Below}, "
             "&${Member}.${Below}, sizeof ${Member}.${Below});",
             {{"Slot", Slot}, {"Member", Member}, {"Below", Below}}));
  }
}

/// The destructor's statements: each written field back to its slot.
std::vector<std::string> ProxyEmitter::writeBack(const ViewGroup &G) const {
  std::vector<std::string> Statements;
  for (auto &[Path, A] : G.Union.orderedLeaves()) {
    if (!A.Written || G.InPlace.count(Path))
      continue;
    std::string Member = viewMember(Path);
    QualType FieldType = Path.back()->getType();
    for (auto &[Slot, Component] : outSlots(Emit.Ast, Path)) {
      if (isUnionLeaf(Path))
        unionWriteBack(G, Path, Slot, Statements);
      else if (!Component.empty())
        Statements.push_back(
            fill("if (${Slot}.p) *${Slot}.p = ${Member}[${K}];",
                 {{"Slot", Slot}, {"Member", Member}, {"K", Component}}));
      else if (FieldType->isArrayType() &&
               Emit.Target.declarations().copiesArrays(G.Device))
        Statements.push_back(fill(
            "if (${Slot}.p) ${Copy}(*${Slot}.p, ${Member});",
            {{"Slot", Slot}, {"Copy", rt::CopyArray}, {"Member", Member}}));
      else if (FieldType->isArrayType() ||
               !FieldType.isTriviallyCopyableType(Emit.Ast))
        Statements.push_back(
            fill("if (${Slot}.p) std::memcpy(${Void}${Slot}.p, "
                 "&${Member}, sizeof ${Member});",
                 {{"Void", FieldType->isArrayType() ? "" : "(void *)"},
                  {"Slot", Slot},
                  {"Member", Member}}));
      else
        Statements.push_back(fill("if (${Slot}.p) *${Slot}.p = ${Member};",
                                  {{"Slot", Slot}, {"Member", Member}}));
    }
  }
  return Statements;
}

/// The proxy of node N: it holds the values of its fields for one
/// iteration, built from slot i of a loop's buffers by that loop's
/// constructor and written back to the slot by the destructor (written
/// fields only). Copies of a proxy (`auto c = *p`) write nothing back.
/// Keeping values, not references into the buffers, lets the compiler hold
/// them in registers across an inner loop.
void ProxyEmitter::proxy(CodeWriter &W, const NestPlan &Nest,
                         const ViewGroup &G, const ProxyNode &N,
                         const std::string &Name, StringRef Tail) const {
  std::string Mark = Emit.Target.declarations().deviceMark(G.Device);
  W.block(
      "struct " + Name,
      [&](CodeWriter &Body) {
        Copied.forwarders(Body, G, N);
        members(Body, Nest, G, N);
        if (!N.Field)
          outSlotMembers(Body, G);
        else
          Body.line(Name + "() = default;");
        for (size_t Loop : G.Loops) {
          ProxyParts Parts = constructorParts(G, Loop, N);
          if (N.Field && Parts.Inits.empty() && Parts.Copies.empty())
            continue; // the loop uses nothing of this sub-object
          Body.constructor(fill("template <class S> ${Mark}${Name}(::soaview::"
                                "loop_tag<${K}>, const S &s, std::size_t i)",
                                {{"Mark", Mark},
                                 {"Name", Name},
                                 {"K", std::to_string(Loop)}}),
                           Parts.Inits, [&](CodeWriter &Ctor) {
                             for (const std::string &S : Parts.Copies)
                               Ctor.line(S);
                             if (Parts.Inits.empty() && Parts.Copies.empty())
                               Ctor.line("(void)s, (void)i;");
                           });
        }
        std::vector<std::string> Back =
            N.Field ? std::vector<std::string>() : writeBack(G);
        if (!Back.empty())
          Body.block(Mark + "~" + Name + "()", [&](CodeWriter &Dtor) {
            for (const std::string &S : Back)
              Dtor.line(S);
          });
        auto Methods = G.Union.Methods.find(N.Path);
        if (Methods == G.Union.Methods.end())
          return;
        std::vector<const CXXMethodDecl *> Sorted(Methods->second.begin(),
                                                  Methods->second.end());
        llvm::sort(Sorted, [&](auto *A, auto *B) {
          return Emit.SM.isBeforeInTranslationUnit(A->getBeginLoc(),
                                                   B->getBeginLoc());
        });
        for (const CXXMethodDecl *MD : Sorted)
          Body.raw(Copied.methodText(Nest, G, MD, Name));
      },
      Tail);
}

/// An anonymous union held whole: in the view an anonymous union too, of
/// the same members (the loop's code names them as it did) and the mirror
/// that the constructor and destructor copy.
void ProxyEmitter::heldUnion(CodeWriter &W, const ViewGroup &G,
                             const FieldPath &Path) const {
  W.block(
      "union",
      [&](CodeWriter &U) {
        U.line(unionMirror(Emit, G, Path) + " " + memberName(Path.back()) +
               ";");
        for (const std::string &M : unionMembers(Emit, Path))
          U.line(M);
      },
      ";");
}

/// The proxy tree of a view: one node per field on the way to each leaf,
/// leaves in declaration order.
ProxyNode ProxyEmitter::proxyTree(const ViewGroup &G) const {
  ProxyNode Root;
  for (auto &[Path, A] : G.Union.orderedLeaves()) {
    ProxyNode *N = &Root;
    for (size_t I = 0; I < Path.size(); ++I) {
      // Members of anonymous structs and unions are the enclosing record's
      // names: the proxy declares them directly (same names, same access).
      if (Path[I]->isAnonymousStructOrUnion() &&
          !(I + 1 == Path.size() && isUnionLeaf(Path)))
        continue;
      ProxyNode *Next = nullptr;
      for (auto &Kid : N->Kids)
        if (Kid->Field == Path[I])
          Next = Kid.get();
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
  return Root;
}

} // namespace soaview
