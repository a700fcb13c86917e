//===- Views.cpp - the proxy view and the spec of a loop ------------------===//
#include "emit/Views.h"

#include "emit/RuntimeNames.h"
#include "frontend/Annotations.h"
#include "support/AstHelpers.h"
#include "support/Compat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace soaview {

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

namespace {

/// Name of the SoA buffer of a leaf: the path joined with '_' (identifiers
/// stay valid; nothing is stripped, so `p` and `p_` stay distinct).
std::string bufferName(const FieldPath &P) {
  std::string S;
  for (const FieldDecl *F : P)
    if (!F->isAnonymousStructOrUnion())
      S += (S.empty() ? "" : "_") + F->getName().str();
  return S;
}

/// Function templates receiving the proxy reach the element class's names
/// through it (`T::eos(u)`, `typename T::Real`, `q->Gamma`): every public
/// static function, constant, enumerator and nested type is forwarded.
/// Static variables only where a copied member function uses them:
/// forwarding one odr-uses it. ViewEmitter::forwarders spells each kind.
void publicStaticNames(const RecordDecl *RD,
                       std::vector<const NamedDecl *> &Found) {
  for (const Decl *D : RD->decls()) {
    const auto *ND = dyn_cast<NamedDecl>(D);
    if (!ND || ND->isImplicit() ||
        (ND->getAccess() != AS_public && ND->getAccess() != AS_none))
      continue;
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(ND))
      ND = FT->getTemplatedDecl();
    const auto *V = dyn_cast<VarDecl>(ND);
    const auto *MD = dyn_cast<CXXMethodDecl>(ND);
    if (isa<FieldDecl>(ND) || (MD && !MD->isStatic()) ||
        (V && !V->isConstexpr() && !V->getType().isConstQualified()))
      continue;
    Found.push_back(ND);
    if (const auto *ED = dyn_cast<EnumDecl>(ND); ED && !ED->isScoped())
      Found.insert(Found.end(), ED->enumerator_begin(), ED->enumerator_end());
  }
}

/// The names a copied member function uses: variables, static member
/// functions, typedefs and tags.
struct UsedNames : RecursiveASTVisitor<UsedNames> {
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
    Found.push_back(compat::typedefDecl(TL));
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    Found.push_back(TL.getDecl());
    return true;
  }
};

/// True when D is a name of class RD (or of one of its bases): a member,
/// or an unscoped enumerator of a member enumeration.
bool nameOfClass(const Decl *D, const RecordDecl *RD) {
  const DeclContext *DC = D->getDeclContext();
  if (isa<EnumConstantDecl>(D) && !cast<EnumDecl>(DC)->isScoped())
    DC = DC->getParent(); // unscoped enumerators are the class's names
  const auto *C = dyn_cast<CXXRecordDecl>(DC);
  if (!C)
    return false;
  const auto *Own = dyn_cast<CXXRecordDecl>(RD);
  return C->getCanonicalDecl() == RD->getCanonicalDecl() ||
         (Own && Own->isDerivedFrom(C));
}

} // namespace

//--- The proxy ----------------------------------------------------------------

std::string ViewEmitter::methodText(const NestPlan &Nest, const LoopPlan &P,
                                    const CXXMethodDecl *MD,
                                    const std::string &ProxyName) const {
  const SourceManager &SM = Emit.SM;
  CharSourceRange Range = Emit.Source.declRange(MD);
  TextEdits Edits;
  Emit.Source.unqualify(MD, Edits);
  if (TypeSourceInfo *TSI = MD->getTypeSourceInfo())
    if (auto FTL = TSI->getTypeLoc().getAsAdjusted<FunctionTypeLoc>()) {
      CharSourceRange Returned =
          recordTypeRange(FTL.getReturnLoc(), MD->getParent(), SM, Emit.Lang);
      if (Returned.isValid())
        Edits.push_back({Returned, ProxyName});
    }
  for (const VarDecl *V : P.View.Aliases)
    if (Emit.Source.inside(V->getLocation(), Range))
      if (TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
        CharSourceRange Alias =
            recordTypeRange(TSI->getTypeLoc(), MD->getParent(), SM, Emit.Lang);
        if (Alias.isValid())
          Edits.push_back({Alias, ProxyName});
      }
  Emit.copyEdits(Nest, Range, Edits);
  return Emit.Source.lineDirective(Range.getBegin()) + Emit.deviceMark(P) +
         Emit.Source.withEdits(Range, Edits) + "\n";
}

/// Names of the original class that copied member functions may use
/// unqualified: static members, enumerators, nested types, template
/// parameters. Each becomes a forward to the original.
void ViewEmitter::forwarders(CodeWriter &W, const LoopPlan &P,
                             const ProxyNode &N) const {
  const RecordDecl *RD =
      N.Field ? N.Field->getType()->getAsRecordDecl() : P.View.Element;
  std::string Class = Emit.Types.name(compat::recordType(Emit.Ast, RD));
  UsedNames Used;
  auto Methods = P.View.Methods.find(N.Path);
  if (Methods != P.View.Methods.end())
    for (const CXXMethodDecl *MD : Methods->second)
      Used.TraverseDecl(const_cast<CXXMethodDecl *>(MD));
  publicStaticNames(RD, Used.Found);
  std::set<std::string> Done;
  for (const NamedDecl *D : Used.Found) {
    if (!nameOfClass(D, RD) || !D->getIdentifier() ||
        !Done.insert(D->getName().str()).second)
      continue;
    std::string Name = D->getName().str();
    auto Forward = [&](StringRef Pattern) {
      W.line(fill(Pattern, {{"Name", Name}, {"Class", Class}}));
    };
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (!V->isStaticDataMember())
        continue;
      if (V->getType()->isArrayType()) // keeps its type: sizeof, extent
        Forward("static constexpr const auto &${Name} = ${Class}::${Name};");
      else if (V->isConstexpr() || V->getType().isConstQualified())
        Forward("static constexpr auto ${Name} = ${Class}::${Name};");
      else
        Forward("static inline auto &${Name} = ${Class}::${Name};");
    } else if (isa<EnumConstantDecl>(D)) {
      Forward("static constexpr auto ${Name} = ${Class}::${Name};");
    } else if (const auto *MD = dyn_cast<CXXMethodDecl>(D)) {
      if (MD->isStatic())
        W.line(fill(
            "template <class... A> static ${Mark}decltype(auto) "
            "${Name}(A &&...a) { return ${Class}::${Name}"
            "(static_cast<A &&>(a)...); }",
            {{"Mark", Emit.deviceMark(P)}, {"Name", Name}, {"Class", Class}}));
    } else if ((isa<TypeDecl>(D) && !isa<CXXRecordDecl>(D)) ||
               (isa<CXXRecordDecl>(D) && D != RD)) {
      Forward("using ${Name} = ${Class}::${Name};");
    }
  }
  templateArguments(W, RD);
}

/// The template parameters of a class template specialization, as the
/// names its copied member functions use.
void ViewEmitter::templateArguments(CodeWriter &W, const RecordDecl *RD) const {
  const auto *CTS = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!CTS)
    return;
  const TemplateParameterList *Params =
      CTS->getSpecializedTemplate()->getTemplateParameters();
  const TemplateArgumentList &Args = CTS->getTemplateArgs();
  for (unsigned I = 0; I < Params->size() && I < Args.size(); ++I) {
    const NamedDecl *Param = Params->getParam(I);
    if (!Param->getIdentifier())
      continue;
    std::string Name = Param->getName().str();
    if (Args[I].getKind() == TemplateArgument::Type)
      W.line(fill(
          "using ${Name} = ${Type};",
          {{"Name", Name}, {"Type", Emit.Types.name(Args[I].getAsType())}}));
    else if (Args[I].getKind() == TemplateArgument::Integral)
      W.line(fill("static constexpr ${Type} ${Name} = ${Value};",
                  {{"Type", Emit.Types.name(Args[I].getIntegralType())},
                   {"Name", Name},
                   {"Value", llvm::toString(Args[I].getAsIntegral(), 10)}}));
  }
}

/// The members of proxy node N (its leaves' values and nested proxies), and
/// what its constructor does with them.
void ViewEmitter::proxyMembers(CodeWriter &W, const NestPlan &Nest,
                               const LoopPlan &P, const ProxyNode &N,
                               ProxyParts &Parts) const {
  for (auto &Kid : N.Kids) {
    std::string Name = Kid->Field->getName().str();
    if (!Kid->Leaf) {
      proxy(W, Nest, P, *Kid, "soaview_" + Name + "_proxy", " " + Name + ";");
      Parts.Inits.push_back(Name + "(s, i)");
      continue;
    }
    QualType T = Kid->Field->getType();
    std::string Buffer = "s." + bufferName(Kid->Path);
    W.line(Emit.Types.declare(T.getUnqualifiedType(), Name) + ";");
    QualType Elem;
    if (unsigned Components = splitComponents(Emit.Ast, T, Elem)) {
      std::string List;
      for (unsigned C = 0; C < Components; ++C)
        List += (C ? ", " : "") + Buffer + "[" + std::to_string(C) + "][i]";
      Parts.Inits.push_back(Name + "{" + List + "}");
    } else if (T->isArrayType() && Emit.Target.copiesArrays(Emit.onDevice(P))) {
      Parts.Copies.push_back(
          fill("${Copy}(${Name}, ${Buffer}[i]);",
               {{"Copy", rt::CopyArray}, {"Name", Name}, {"Buffer", Buffer}}));
    } else if (T->isArrayType()) {
      Parts.Copies.push_back(
          fill("std::memcpy(&${Name}, &${Buffer}[i], sizeof ${Name});",
               {{"Name", Name}, {"Buffer", Buffer}}));
    } else {
      Parts.Inits.push_back(Name + "(" + Buffer + "[i])");
    }
  }
}

/// The top proxy remembers its element and the slots of its written
/// fields, which its destructor writes back.
void ViewEmitter::outSlots(CodeWriter &W, const LoopPlan &P,
                           ProxyParts &Parts) const {
  W.line("const void *soaview_address;");
  Parts.Inits.push_back(
      "soaview_address(s.soaview_address ? s.soaview_address[i] : nullptr)");
  auto Slot = [&](const std::string &Type, const std::string &Name,
                  const std::string &Buffer) {
    W.line(fill("${OutSlot}<${Type}> ${Name};",
                {{"OutSlot", rt::OutSlot}, {"Type", Type}, {"Name", Name}}));
    Parts.Inits.push_back(Name + "(&" + Buffer + "[i])");
  };
  for (auto &[Path, A] : P.View.orderedLeaves()) {
    if (!A.Written)
      continue;
    std::string Name = "soaview_out_" + bufferName(Path);
    std::string Buffer = "s." + bufferName(Path);
    std::string Member = dotted(Path);
    QualType FieldType = Path.back()->getType();
    QualType Elem;
    if (unsigned Components = splitComponents(Emit.Ast, FieldType, Elem)) {
      for (unsigned C = 0; C < Components; ++C) {
        std::string K = std::to_string(C);
        Slot(Emit.Types.name(Elem), Name + "_" + K, Buffer + "[" + K + "]");
        Parts.WriteBack.push_back(
            fill("if (${Slot}.p) *${Slot}.p = ${Member}[${K}];",
                 {{"Slot", Name + "_" + K}, {"Member", Member}, {"K", K}}));
      }
      continue;
    }
    Slot(Emit.Types.name(FieldType.getUnqualifiedType()), Name, Buffer);
    if (FieldType->isArrayType() && Emit.Target.copiesArrays(Emit.onDevice(P)))
      Parts.WriteBack.push_back(
          fill("if (${Slot}.p) ${Copy}(*${Slot}.p, ${Member});",
               {{"Slot", Name}, {"Copy", rt::CopyArray}, {"Member", Member}}));
    else if (FieldType->isArrayType())
      Parts.WriteBack.push_back(fill("if (${Slot}.p) std::memcpy(${Slot}.p, "
                                     "&${Member}, sizeof ${Member});",
                                     {{"Slot", Name}, {"Member", Member}}));
    else
      Parts.WriteBack.push_back(fill("if (${Slot}.p) *${Slot}.p = ${Member};",
                                     {{"Slot", Name}, {"Member", Member}}));
  }
}

/// The proxy of node N: it holds the values of its fields for one
/// iteration, built from slot i of the buffers and written back to the slot
/// by the destructor (written fields only). Copies of a proxy (`auto c =
/// *p`) write nothing back. Keeping values, not references into the
/// buffers, lets the compiler hold them in registers across an inner loop.
void ViewEmitter::proxy(CodeWriter &W, const NestPlan &Nest, const LoopPlan &P,
                        const ProxyNode &N, const std::string &Name,
                        StringRef Tail) const {
  std::string Mark = Emit.deviceMark(P);
  W.block(
      "struct " + Name,
      [&](CodeWriter &Body) {
        forwarders(Body, P, N);
        ProxyParts Parts;
        proxyMembers(Body, Nest, P, N, Parts);
        if (!N.Field)
          outSlots(Body, P, Parts);
        Body.constructor("template <class S> " + Mark + Name +
                             "(const S &s, std::size_t i)",
                         Parts.Inits, [&](CodeWriter &Ctor) {
                           for (const std::string &S : Parts.Copies)
                             Ctor.line(S);
                           Ctor.line("(void)s, (void)i;");
                         });
        if (!Parts.WriteBack.empty())
          Body.block(Mark + "~" + Name + "()", [&](CodeWriter &Dtor) {
            for (const std::string &S : Parts.WriteBack)
              Dtor.line(S);
          });
        auto Methods = P.View.Methods.find(N.Path);
        if (Methods == P.View.Methods.end())
          return;
        std::vector<const CXXMethodDecl *> Sorted(Methods->second.begin(),
                                                  Methods->second.end());
        llvm::sort(Sorted, [&](auto *A, auto *B) {
          return Emit.SM.isBeforeInTranslationUnit(A->getBeginLoc(),
                                                   B->getBeginLoc());
        });
        for (const CXXMethodDecl *MD : Sorted)
          Body.raw(methodText(Nest, P, MD, Name));
      },
      Tail);
}

/// The proxy tree of P's view: one node per field on the way to each leaf,
/// leaves in declaration order.
ViewEmitter::ProxyNode ViewEmitter::proxyTree(const LoopPlan &P) const {
  ProxyNode Root;
  for (auto &[Path, A] : P.View.orderedLeaves()) {
    ProxyNode *N = &Root;
    for (size_t I = 0; I < Path.size(); ++I) {
      // Members of anonymous structs and unions are the enclosing record's
      // names: the proxy declares them directly (same names, same access).
      if (Path[I]->isAnonymousStructOrUnion())
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

//--- The spec -----------------------------------------------------------------

std::string ViewEmitter::accessPath(const LoopPlan &P, const FieldPath &Path,
                                    StringRef Obj, std::string &Tags) const {
  std::string Access = Obj.str();
  std::string View = Emit.Names.view(P);
  for (size_t I = 0; I < Path.size(); ++I) {
    const FieldDecl *F = Path[I];
    if (F->isAnonymousStructOrUnion())
      continue; // `e.density.wcount` names the anonymous union's member
    if (F->getAccess() == AS_public || F->getAccess() == AS_none) {
      Access += "." + F->getName().str();
      continue;
    }
    // Private or protected: a member pointer obtained through explicit
    // instantiation, where access is not checked ([temp.spec.general]).
    // The member pointer's type is never spelt (C++17 `auto` parameter):
    // the field's type may itself be private or end in '>'.
    FieldPath Sub(Path.begin(), Path.begin() + I + 1);
    std::string Tag = View + "_tag_" + bufferName(Sub);
    std::string Field =
        Emit.Types.name(compat::recordType(Emit.Ast, F->getParent())) +
        "::" + F->getName().str();
    std::string Member = Emit.Names.memberFunction();
    if (Tags.find(Tag + " {") == std::string::npos)
      Tags += fill(
          "struct ${Tag} { friend constexpr auto ${Member}(${Tag}) "
          "noexcept; };\n"
          "template struct ${View}_expose<&${Field}, ${Tag}>;\n",
          {{"Tag", Tag}, {"Member", Member}, {"View", View}, {"Field", Field}});
    Access = "(" + Access + ".*" + Member + "(" + Tag + "{}))";
  }
  return Access;
}

/// Each buffer of P's spec, in the order of the view's leaves.
std::vector<ViewEmitter::SpecBuffer>
ViewEmitter::specBuffers(const LoopPlan &P) const {
  std::vector<SpecBuffer> Buffers;
  for (auto &[Path, A] : P.View.orderedLeaves()) {
    QualType Elem;
    if (unsigned N = splitComponents(Emit.Ast, Path.back()->getType(), Elem)) {
      for (unsigned C = 0; C < N; ++C) {
        std::string K = "[" + std::to_string(C) + "]";
        Buffers.push_back({bufferName(Path) + K, Emit.Types.name(Elem),
                           A.Written, dotted(Path) + K});
      }
      continue;
    }
    Buffers.push_back({bufferName(Path),
                       Emit.Types.name(Path.back()->getType()), A.Written,
                       dotted(Path)});
  }
  return Buffers;
}

/// The soa struct (one buffer per field, per component of a split array),
/// its size and how an arena is carved into it.
void ViewEmitter::specLayout(CodeWriter &W, const LoopPlan &P) const {
  W.block(
      "struct soa",
      [&](CodeWriter &Soa) {
        for (auto &[Path, A] : P.View.orderedLeaves()) {
          QualType Elem;
          if (unsigned N =
                  splitComponents(Emit.Ast, Path.back()->getType(), Elem))
            Soa.line(fill("${Type} *${Name}[${N}]; // one buffer per component",
                          {{"Type", Emit.Types.name(Elem)},
                           {"Name", bufferName(Path)},
                           {"N", std::to_string(N)}}));
          else
            Soa.line(Emit.Types.declare(
                         Emit.Ast.getPointerType(Path.back()->getType()),
                         bufferName(Path)) +
                     ";");
        }
        Soa.line("const void *const *soaview_address;");
      },
      ";");
  std::vector<SpecBuffer> Buffers = specBuffers(P);
  W.block("static std::size_t bytes_for(std::size_t n)", [&](CodeWriter &F) {
    std::vector<std::string> Terms;
    for (const SpecBuffer &B : Buffers)
      Terms.push_back(fill("${Arena}::round_up(sizeof(${Type}) * n)",
                           {{"Arena", rt::Arena}, {"Type", B.Type}}));
    F.spread("return 0", Terms, "+ ", ";");
  });
  W.block(fill("static void carve(soa &s, ${Arena} &a, std::size_t n)",
               {{"Arena", rt::Arena}}),
          [&](CodeWriter &F) {
            for (const SpecBuffer &B : Buffers)
              F.line(fill("s.${Name} = a.take<${Type}>(n);",
                          {{"Name", B.Name}, {"Type", B.Type}}));
          });
}

/// One field copied between an element and its slot: assignment for
/// scalars and components, memcpy for arrays and whole structs.
void ViewEmitter::copyField(const LoopPlan &P, const FieldPath &Path,
                            bool ToSlot, std::string &Tags,
                            std::vector<std::string> &Statements) const {
  std::string Slot = "s." + bufferName(Path) + "[i]";
  std::string Field = accessPath(P, Path, "e", Tags);
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
  if (Path.back()->getType()->isScalarType())
    Statements.push_back(To + " = " + From + ";");
  else
    Statements.push_back(fill("std::memcpy(&${To}, &${From}, sizeof ${Slot});",
                              {{"To", To}, {"From", From}, {"Slot", Slot}}));
}

/// gather and scatter (between elements and slots), the host/device buffer
/// pairs, and at().
void ViewEmitter::specCopies(CodeWriter &W, const LoopPlan &P,
                             std::string &Tags) const {
  auto Leaves = P.View.orderedLeaves();
  auto Copies = [&](bool ToSlot) {
    return [&, ToSlot](CodeWriter &F) {
      std::vector<std::string> Statements;
      for (auto &[Path, A] : Leaves)
        if (ToSlot || A.Written)
          copyField(P, Path, ToSlot, Tags, Statements);
      for (const std::string &S : Statements)
        F.line(S);
    };
  };
  W.block("static void gather(soa &s, std::size_t i, const element &e)",
          Copies(true));
  W.block(
      "template <class F> static void pairs(const soa &h, const soa &d, F &&f)",
      [&](CodeWriter &F) {
        for (const SpecBuffer &B : specBuffers(P))
          F.line(fill("f(h.${Name}, d.${Name}, sizeof(${Type}), ${Written});",
                      {{"Name", B.Name},
                       {"Type", B.Type},
                       {"Written", B.Written ? "true" : "false"}}));
      });
  W.block("static void scatter(const soa &s, std::size_t i, element &e)",
          Copies(false));
  W.line(fill("static ${Mark}view at(const soa &s, std::size_t i) { return "
              "view(s, i); }",
              {{"Mark", Emit.deviceMark(P)}}));
}

/// The spec of P's view: its head, buffers, fields() for a swept view (each
/// buffer with the element's field it holds, so that a sweep's inner view
/// can use the local view's buffers of the fields both views read:
/// soaview/sweep.h), and copies.
void ViewEmitter::spec(CodeWriter &W, const LoopPlan &P, bool Swept,
                       std::string &Tags) const {
  std::string View = Emit.Names.view(P);
  W.line(fill(
      "// soaview: buffers of the view of '${Element}' at ${Where}",
      {{"Element", P.View.ElementType.getAsString(PrintingPolicy(Emit.Lang))},
       {"Where", Emit.Source.where(P.Annotation->ForLoc)}}));
  W.block(
      "struct " + View + "_spec",
      [&](CodeWriter &S) {
        S.line("using element = " + Emit.Types.name(P.View.ElementType) + ";");
        S.line("using view = " + View + ";");
        S.line(std::string("static constexpr bool writes = ") +
               (P.View.writes() ? "true" : "false") + ";");
        specLayout(S, P);
        if (Swept)
          S.block("template <class F> static void fields(soa &s, F &&f)",
                  [&](CodeWriter &F) {
                    for (const SpecBuffer &B : specBuffers(P))
                      F.line(fill("f(s.${Name}, \"${Field}\");",
                                  {{"Name", B.Name}, {"Field", B.Field}}));
                  });
        specCopies(S, P, Tags);
      },
      ";");
}

//--- Both, in the element's namespace
//------------------------------------------

void ViewEmitter::emit(const NestPlan &Nest, const LoopPlan &P, Chunks &Forward,
                       Chunks &Main) {
  std::string View = Emit.Names.view(P);
  if (!DoneViews.insert(View).second)
    return;
  const DeclContext *ElementNS = namespaceOf(P.View.Element);
  // Views live in the element's namespace, in `soaview_gen` and in an
  // unnamed namespace inside it: each translation unit has its own, so a
  // file compiled twice into one program (say strict and fast-math builds)
  // does not define the same view twice. Both are inline, so that
  // argument-dependent lookup on a view also searches the element's
  // namespace (where clones of the loop's callees are declared).
  // nvcc cannot reopen an inline unnamed namespace (its own generated code
  // opens the unnamed namespace first, not inline): with the CUDA backend
  // the unnamed namespace is plain, and the clones that calls in templates
  // must find are declared there as well (Clones.cpp).
  const std::string Open =
      GeneratedNames::openGen() + Emit.Target.viewsNamespace();
  Forward.add(ElementNS, Open + " struct " + View + "; } }\n");

  std::string Tags;
  CodeWriter Spec;
  spec(Spec, P, Nest.Sweep.has_value(), Tags);
  CodeWriter Body;
  Body.line(fill(
      "// soaview: view of '${Element}' for the loop at ${Where}",
      {{"Element", P.View.ElementType.getAsString(PrintingPolicy(Emit.Lang))},
       {"Where", Emit.Source.where(P.Annotation->ForLoc)}}));
  proxy(Body, Nest, P, proxyTree(P), View, ";");
  if (!Tags.empty())
    Tags = fill("template <auto M, class Tag> struct ${View}_expose { friend "
                "constexpr auto ${Member}(Tag) noexcept { return M; } };\n",
                {{"View", View}, {"Member", Emit.Names.memberFunction()}}) +
           Tags;
  // Templates find their view's spec through this declaration, by
  // argument-dependent lookup on the element type: it lives in the inline
  // `soaview_gen`, outside the unnamed namespace.
  std::string Select;
  if (P.InTemplate)
    Select = fill("${View}_spec ${Selector}(${Element} *);\n",
                  {{"View", View},
                   {"Selector", Emit.Names.selector(P)},
                   {"Element", Emit.Types.name(P.View.ElementType)}});
  // The proxy and the spec's at() run where the loop runs.
  bool Device = Emit.onDevice(P);
  Main.add(ElementNS, Open + "\n" + Tags +
                          Emit.Target.declareTargetBegin(Device) + Body.take() +
                          Spec.take() + Emit.Target.declareTargetEnd(Device) +
                          "} // namespace\n" + Select + "} // namespace " +
                          GeneratedNames::GenNamespace + "\n");
}

} // namespace soaview
