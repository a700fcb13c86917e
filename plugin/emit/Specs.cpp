//===- Specs.cpp - the buffers of each loop of a view --------------------===//
//
// One spec per loop (SpecEmitter, emit/ViewParts.h): its SoA buffers,
// carved from one pooled allocation, gather, scatter, the host/device buffer
// pairs, and at(); the unions a view holds whole; how generated code reaches
// a field (FieldAccess): a private one through a member pointer named in an
// explicit instantiation.
//===----------------------------------------------------------------------===//
#include "emit/ViewParts.h"
#include "emit/Views.h"

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

//--- Fields of an element -----------------------------------------------------

std::string FieldAccess::accessPath(const ViewGroup &G, const FieldPath &Path,
                                    StringRef Obj) const {
  std::string Access = Obj.str();
  for (size_t I = 0; I < Path.size(); ++I) {
    const FieldDecl *F = Path[I];
    if (F->isAnonymousStructOrUnion())
      continue; // `e.density.wcount` names the anonymous union's member
    if (F->getAccess() == AS_public || F->getAccess() == AS_none) {
      Access += "." + F->getName().str();
      continue;
    }
    FieldPath Sub(Path.begin(), Path.begin() + I + 1);
    Access = "(" + Access + ".*" + exposed(G, Sub) + ")";
  }
  return Access;
}

/// A private or protected field reached through a member pointer obtained
/// by explicit instantiation, where access is not checked
/// ([temp.spec.general]): the call `member(Tag{})` that returns it, the
/// tag and the instantiation declared once in the group's ExposedFields.
/// The member pointer's type
/// is never spelt (C++17 `auto` parameter): the field's type may itself be
/// private or end in '>'.
std::string FieldAccess::exposed(const ViewGroup &G,
                                 const FieldPath &Path) const {
  const FieldDecl *F = Path.back();
  std::string Tag = viewName(Emit, G) + "_tag_" + bufferName(Path);
  std::string Field =
      Emit.Types.name(compat::recordType(Emit.Ast, F->getParent())) +
      "::" + F->getName().str();
  std::string Member = Emit.Names.memberFunction();
  Exposed.add(Tag,
              fill("struct ${Tag} { friend constexpr auto ${Member}(${Tag}) "
                   "noexcept; };\n"
                   "template struct ${View}_expose<&${Field}, ${Tag}>;\n",
                   {{"Tag", Tag},
                    {"Member", Member},
                    {"View", viewName(Emit, G)},
                    {"Field", Field}}));
  return Member + "(" + Tag + "{})";
}

//--- Unions held whole --------------------------------------------------------

/// The union type a view's buffers hold an anonymous union in: the same
/// members, so the same size, alignment and bytes.
std::string unionMirror(const EmitContext &Emit, const ViewGroup &G,
                        const FieldPath &Path) {
  return viewName(Emit, G) + "_" + bufferName(Path);
}

/// The members of the anonymous union at Path, as the view declares them:
/// `decltype(C::density) density;` (holdableUnion: named, public members of
/// a named class).
std::vector<std::string> unionMembers(const EmitContext &Emit,
                                      const FieldPath &Path) {
  const FieldDecl *U = Path.back();
  std::string Class = Emit.Types.name(
      compat::recordType(Emit.Ast, cast<RecordDecl>(U->getParent())));
  std::vector<std::string> Members;
  for (const FieldDecl *M : U->getType()->getAsRecordDecl()->fields())
    Members.push_back(fill("decltype(${Class}::${Name}) ${Name};",
                           {{"Class", Class}, {"Name", M->getName().str()}}));
  return Members;
}

/// The declarations of the unions a view holds whole, before the view.
void SpecEmitter::unionMirrors(CodeWriter &W, const ViewGroup &G) const {
  for (auto &Leaf : G.Union.orderedLeaves()) {
    const FieldPath &Path = Leaf.first;
    if (!isUnionLeaf(Path))
      continue;
    W.block(
        "union " + unionMirror(Emit, G, Path),
        [&](CodeWriter &U) {
          for (const std::string &M : unionMembers(Emit, Path))
            U.line(M);
        },
        ";");
    QualType T = Path.back()->getType();
    W.line(fill(
        "static_assert(sizeof(${Mirror}) == ${Size} && "
        "alignof(${Mirror}) == ${Align});",
        {{"Mirror", unionMirror(Emit, G, Path)},
         {"Size", std::to_string(Emit.Ast.getTypeSizeInChars(T).getQuantity())},
         {"Align",
          std::to_string(Emit.Ast.getTypeAlignInChars(T).getQuantity())}}));
  }
}

//--- The specs ----------------------------------------------------------------

/// What a buffer holds of a field of type T: buffers are written by the
/// gather, so a const field (the key of a std::map's pair) is held
/// unqualified.
static QualType bufferType(ASTContext &Ast, QualType T) {
  Qualifiers Dropped;
  return Ast.getUnqualifiedArrayType(T.getUnqualifiedType(), Dropped);
}

namespace {
/// One pointer of a spec's soa: the field it holds, its name in the soa
/// (`x[1]` for a component of a split array) and the type it points to
/// (null for an anonymous union held whole: its mirror).
struct SoaPointer {
  const FieldPath *Path;
  const LeafAccess *Access;
  std::string Name;
  QualType Elem;
  std::string Field; ///< the element's field (`x[1]` for a component)
};

/// Each pointer of the soa of a loop with fields F, in the soa's order.
std::vector<SoaPointer> soaPointersOf(ASTContext &Ast, const ViewFields &F) {
  std::vector<SoaPointer> Pointers;
  for (auto &[Path, A] : F) {
    if (isUnionLeaf(Path)) {
      Pointers.push_back(
          {&Path, &A, bufferName(Path), QualType(), bufferName(Path)});
      continue;
    }
    QualType Elem;
    if (unsigned N = splitComponents(Ast, Path.back()->getType(), Elem)) {
      for (unsigned C = 0; C < N; ++C) {
        std::string K = "[" + std::to_string(C) + "]";
        Pointers.push_back({&Path, &A, bufferName(Path) + K,
                            bufferType(Ast, Elem), dotted(Path) + K});
      }
      continue;
    }
    Pointers.push_back({&Path, &A, bufferName(Path),
                        bufferType(Ast, Path.back()->getType()), dotted(Path)});
  }
  return Pointers;
}
} // namespace

std::vector<std::string> soaPointers(const EmitContext &Emit,
                                     const ViewGroup &G, size_t Loop) {
  std::vector<std::string> Names;
  for (const SoaPointer &P : soaPointersOf(Emit.Ast, G.Fields.at(Loop)))
    Names.push_back(P.Name);
  Names.push_back("soaview_address");
  return Names;
}

/// Each buffer of a spec, in the order of the loop's fields.
std::vector<SpecEmitter::SpecBuffer>
SpecEmitter::specBuffers(const ViewGroup &G, const ViewFields &F) const {
  std::vector<SpecBuffer> Buffers;
  for (const SoaPointer &P : soaPointersOf(Emit.Ast, F))
    Buffers.push_back({P.Name,
                       P.Elem.isNull() ? unionMirror(Emit, G, *P.Path)
                                       : Emit.Types.name(P.Elem),
                       P.Access->Written, P.Field});
  return Buffers;
}

/// The soa struct (one buffer per field, per component of a split array),
/// its size and how an arena is carved into it.
void SpecEmitter::specLayout(CodeWriter &W, const ViewGroup &G,
                             const ViewFields &F) const {
  W.block(
      "struct soa",
      [&](CodeWriter &Soa) {
        for (auto &[Path, A] : F) {
          QualType Elem;
          if (isUnionLeaf(Path))
            Soa.line(unionMirror(Emit, G, Path) + " *" + bufferName(Path) +
                     ";");
          else if (unsigned N =
                       splitComponents(Emit.Ast, Path.back()->getType(), Elem))
            Soa.line(
                fill("${Type} *${Name}[${N}]; // one buffer per component",
                     {{"Type", Emit.Types.name(bufferType(Emit.Ast, Elem))},
                      {"Name", bufferName(Path)},
                      {"N", std::to_string(N)}}));
          else
            Soa.line(Emit.Types.declare(Emit.Ast.getPointerType(bufferType(
                                            Emit.Ast, Path.back()->getType())),
                                        bufferName(Path)) +
                     ";");
        }
        Soa.line("const void *const *soaview_address;");
      },
      ";");
  std::vector<SpecBuffer> Buffers = specBuffers(G, F);
  W.block("static std::size_t bytes_for(std::size_t n)", [&](CodeWriter &Fn) {
    std::vector<std::string> Terms;
    for (const SpecBuffer &B : Buffers)
      Terms.push_back(fill("${Arena}::round_up(sizeof(${Type}) * n)",
                           {{"Arena", rt::Arena}, {"Type", B.Type}}));
    Fn.spread("return 0", Terms, "+ ", ";");
  });
  W.block(fill("static void carve(soa &s, ${Arena} &a, std::size_t n)",
               {{"Arena", rt::Arena}}),
          [&](CodeWriter &Fn) {
            for (const SpecBuffer &B : Buffers)
              Fn.line(fill("s.${Name} = a.take<${Type}>(n);",
                           {{"Name", B.Name}, {"Type", B.Type}}));
          });
}

/// One field copied between an element and its slot: assignment for
/// scalars and components, memcpy for arrays and whole structs.
void SpecEmitter::copyField(const ViewGroup &G, const FieldPath &Path,
                            bool ToSlot,
                            std::vector<std::string> &Statements) const {
  std::string Slot = "s." + bufferName(Path) + "[i]";
  if (isUnionLeaf(Path)) { // the union's bytes, from its first member on
    FieldPath First = Path;
    First.push_back(*Path.back()->getType()->getAsRecordDecl()->field_begin());
    std::string Field = Access.accessPath(G, First, "e");
    Statements.push_back(fill("std::memcpy(&${To}, &${From}, sizeof ${Slot});",
                              {{"To", ToSlot ? Slot : Field},
                               {"From", ToSlot ? Field : Slot},
                               {"Slot", Slot}}));
    return;
  }
  std::string Field = Access.accessPath(G, Path, "e");
  QualType Elem;
  if (unsigned N = splitComponents(Emit.Ast, Path.back()->getType(), Elem)) {
    for (unsigned C = 0; C < N; ++C) {
      std::string K = "[" + std::to_string(C) + "]";
      std::string ComponentSlot = "s." + bufferName(Path) + K + "[i]";
      std::string Component = Field + K;
      Statements.push_back((ToSlot ? ComponentSlot : Component) + " = " +
                           (ToSlot ? Component : ComponentSlot) + ";");
    }
    return;
  }
  const std::string &To = ToSlot ? Slot : Field, &From = ToSlot ? Field : Slot;
  QualType T = Path.back()->getType();
  if (T->isScalarType())
    Statements.push_back(To + " = " + From + ";");
  else // a class carried as bytes (copiesAsBytes): a plain pointer for memcpy
    Statements.push_back(
        fill("std::memcpy(${Void}&${To}, &${From}, sizeof "
             "${Slot});",
             {{"Void", T.isTriviallyCopyableType(Emit.Ast) ? "" : "(void *)"},
              {"To", To},
              {"From", From},
              {"Slot", Slot}}));
}

/// gather and scatter (between elements and slots), the host/device buffer
/// pairs, and at(): the view of slot i, built by the loop's constructor.
void SpecEmitter::specCopies(CodeWriter &W, const ViewGroup &G,
                             size_t Loop) const {
  const ViewFields &Own = G.Fields.at(Loop);
  // A copy that moves no field (the scatter of a view that writes none)
  // leaves its parameters unnamed: -Wunused-parameter.
  auto Copies = [&](bool ToSlot, StringRef Head, StringRef Params,
                    StringRef Unnamed) {
    std::vector<std::string> Statements;
    for (auto &[Path, A] : Own)
      if (ToSlot || A.Written)
        copyField(G, Path, ToSlot, Statements);
    W.block(fill("static void ${Head}(${Params})",
                 {{"Head", Head},
                  {"Params", Statements.empty() ? Unnamed : Params}}),
            [&](CodeWriter &F) {
              for (const std::string &S : Statements)
                F.line(S);
            });
  };
  Copies(true, "gather", "soa &s, std::size_t i, const element &e",
         "soa &, std::size_t, const element &");
  W.block(
      "template <class F> static void pairs(const soa &h, const soa &d, F &&f)",
      [&](CodeWriter &F) {
        for (const SpecBuffer &B : specBuffers(G, Own))
          F.line(fill("f(h.${Name}, d.${Name}, sizeof(${Type}), ${Written});",
                      {{"Name", B.Name},
                       {"Type", B.Type},
                       {"Written", B.Written ? "true" : "false"}}));
      });
  Copies(false, "scatter", "const soa &s, std::size_t i, element &e",
         "const soa &, std::size_t, element &");
  W.line(fill("static ${Mark}view at(const soa &s, std::size_t i) { return "
              "view(::soaview::loop_tag<${K}>{}, s, i); }",
              {{"Mark", Emit.Target.declarations().deviceMark(G.Device)},
               {"K", std::to_string(Loop)}}));
}

/// The spec of loop Loop: its head, buffers, fields() for a swept view (each
/// buffer with the element's field it holds, so that a sweep's inner view
/// can use the local view's buffers of the fields both views read:
/// soaview/sweep.h), and copies.
void SpecEmitter::spec(CodeWriter &W, const NestPlan &Nest, const ViewGroup &G,
                       size_t Loop) const {
  const LoopPlan &P = Nest.Loops[Loop];
  const ViewFields &Own = G.Fields.at(Loop);
  bool Writes = llvm::any_of(Own, [](auto &F) { return F.second.Written; });
  W.line(fill(
      "// soaview: buffers of the view of '${Element}' at ${Where}",
      {{"Element", P.View.ElementType.getAsString(PrintingPolicy(Emit.Lang))},
       {"Where", Emit.Source.where(P.Annotation->ForLoc)}}));
  W.block(
      "struct " + Emit.Names.view(P) + "_spec",
      [&](CodeWriter &S) {
        S.line("using element = " + Emit.Types.name(P.View.ElementType) + ";");
        S.line("using view = " + viewName(Emit, G) + ";");
        S.line(std::string("[[maybe_unused]] static constexpr bool writes = ") +
               (Writes ? "true" : "false") + ";");
        specLayout(S, G, Own);
        if (Nest.Sweep)
          S.block("template <class F> static void fields(soa &s, F &&f)",
                  [&](CodeWriter &F) {
                    for (const SpecBuffer &B : specBuffers(G, Own))
                      F.line(fill("f(s.${Name}, \"${Field}\");",
                                  {{"Name", B.Name}, {"Field", B.Field}}));
                  });
        specCopies(S, G, Loop);
      },
      ";");
}

} // namespace soaview
