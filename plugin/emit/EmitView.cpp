//===- EmitView.cpp - the proxy view and spec structs ----------------------===//
//
// One proxy per view (the values of one element's fields, written back by its
// destructor; copied member functions, forwards of the class's static names) and one spec (SoA buffers, gather, scatter,
// at). Private fields are reached through member pointers named in explicit
// instantiations, where access is not checked. Tests: test/Rewrite/*.
//===----------------------------------------------------------------------===//
#include "support/Compat.h"
#include "emit/EmitImpl.h"

namespace soaview {
using namespace detail;

std::string Emitter::Impl::methodText(const LoopPlan &P,
                                      const CXXMethodDecl *MD,
                                      const std::string &ProxyName) {
  CharSourceRange CR = declRange(MD);
  std::vector<std::pair<CharSourceRange, std::string>> Ed;
  unqualify(MD, Ed);
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
  heapEdits(CR, Ed);
  return lineDirective(CR.getBegin()) + hd(P) + withEdits(CR, Ed) + "\n";
}

/// Function templates receiving the proxy reach the element class's names
/// through it (`T::eos(u)`, `typename T::Real`, `q->Gamma`): every public
/// static function, constant, enumerator and nested type is forwarded.
/// Static variables only where a copied member function uses them:
/// forwarding one odr-uses it. forwarders() spells each kind.
static void publicStaticNames(const RecordDecl *RD,
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

std::string Emitter::Impl::forwarders(const LoopPlan &P, const ProxyNode &N,
                                      int Indent) {
  // Names of the original class that copied member functions may use
  // unqualified: static members, enumerators, nested types, template
  // parameters. Each becomes a forward to the original.
  const RecordDecl *RD = N.Field ? N.Field->getType()->getAsRecordDecl()
                                 : P.View.Element;
  auto MIt = P.View.Methods.find(N.Path);
  std::string In(Indent, ' ');
  std::string Q = typeName(compat::recordType(Ctx, RD));
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
      Found.push_back(compat::typedefDecl(TL));
      return true;
    }
    bool VisitTagTypeLoc(TagTypeLoc TL) {
      Found.push_back(TL.getDecl());
      return true;
    }
  } F;
  if (MIt != P.View.Methods.end())
    for (const CXXMethodDecl *MD : MIt->second)
      F.TraverseDecl(const_cast<CXXMethodDecl *>(MD));
  publicStaticNames(RD, F.Found);
  auto InRecord = [&](const Decl *D) {
    const DeclContext *DC = D->getDeclContext();
    if (isa<EnumConstantDecl>(D) && !cast<EnumDecl>(DC)->isScoped())
      DC = DC->getParent(); // unscoped enumerators are the class's names
    const auto *C = dyn_cast<CXXRecordDecl>(DC);
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
      if (V->getType()->isArrayType()) // keeps its type: sizeof, extent
        Out += In + "static constexpr const auto &" + Name + " = " + Q + "::" + Name + ";\n";
      else if (V->isConstexpr() || V->getType().isConstQualified())
        Out += In + "static constexpr auto " + Name + " = " + Q + "::" + Name + ";\n";
      else
        Out += In + "static inline auto &" + Name + " = " + Q + "::" + Name + ";\n";
    } else if (isa<EnumConstantDecl>(D)) {
      Out += In + "static constexpr auto " + Name + " = " + Q + "::" + Name + ";\n";
    } else if (const auto *MD = dyn_cast<CXXMethodDecl>(D)) {
      if (MD->isStatic())
        Out += In + "template <class... A> static " + hd(P) + "decltype(auto) " + Name +
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
  // The proxy holds the values of its fields for one iteration: built from
  // slot i of the buffers, written back to the slot by the destructor
  // (written fields only). Copies of a proxy (`auto c = *p`) write nothing
  // back. Keeping values, not references into the buffers, lets the
  // compiler hold them in registers across an inner loop.
  std::string In(Indent, ' ');
  std::string Out = "struct " + Name + " {\n";
  Out += forwarders(P, N, Indent + 2);
  std::string Inits, Copies;
  auto AddInit = [&](const std::string &I) {
    Inits += (Inits.empty() ? "\n" + In + "      : " : ",\n" + In + "        ") + I;
  };
  for (auto &K : N.Kids) {
    std::string KName = K->Field->getName().str();
    if (K->Leaf) {
      QualType T = K->Field->getType();
      Out += In + "  " + declare(T.getUnqualifiedType(), KName) + ";\n";
      QualType E;
      if (unsigned N = splitComponents(Ctx, T, E)) {
        std::string List;
        for (unsigned C = 0; C < N; ++C)
          List += (C ? ", s." : "s.") + bufName(K->Path) + "[" +
                  std::to_string(C) + "][i]";
        AddInit(KName + "{" + List + "}");
      } else if (T->isArrayType() && B.copiesArrays(onDevice(P)))
        Copies += In + "    " + rt::CopyArray + "(" + KName + ", s." +
                  bufName(K->Path) + "[i]);\n";
      else if (T->isArrayType())
        Copies += In + "    std::memcpy(&" + KName + ", &s." + bufName(K->Path) +
                  "[i], sizeof " + KName + ");\n";
      else
        AddInit(KName + "(s." + bufName(K->Path) + "[i])");
    } else {
      Out += In + "  " + viewStruct(P, *K, "soaview_" + KName + "_proxy",
                                    Indent + 2) +
             " " + KName + ";\n";
      AddInit(KName + "(s, i)");
    }
  }
  std::string Dtor;
  if (!N.Field) { // the top proxy remembers its element and its slots
    Out += In + "  const void *soaview_address;\n";
    AddInit("soaview_address(s.soaview_address ? s.soaview_address[i] : nullptr)");
    for (auto &[Path, A] : P.View.orderedLeaves()) {
      if (!A.Written)
        continue;
      std::string Slot = "soaview_out_" + bufName(Path);
      std::string Member = dotted(Path);
      QualType E;
      if (unsigned N = splitComponents(Ctx, Path.back()->getType(), E)) {
        for (unsigned C = 0; C < N; ++C) {
          std::string K = std::to_string(C);
          Out += In + "  " + rt::OutSlot + "<" + typeName(E) + "> " + Slot +
                 "_" + K + ";\n";
          AddInit(Slot + "_" + K + "(&s." + bufName(Path) + "[" + K + "][i])");
          Dtor += In + "    if (" + Slot + "_" + K + ".p) *" + Slot + "_" + K +
                  ".p = " + Member + "[" + K + "];\n";
        }
        continue;
      }
      std::string T = typeName(Path.back()->getType().getUnqualifiedType());
      Out += In + "  " + rt::OutSlot + "<" + T + "> " + Slot + ";\n";
      AddInit(Slot + "(&s." + bufName(Path) + "[i])");
      if (Path.back()->getType()->isArrayType() && B.copiesArrays(onDevice(P)))
        Dtor += In + "    if (" + Slot + ".p) " + rt::CopyArray + "(*" + Slot +
                ".p, " + Member + ");\n";
      else if (Path.back()->getType()->isArrayType())
        Dtor += In + "    if (" + Slot + ".p) std::memcpy(" + Slot + ".p, &" +
                Member + ", sizeof " + Member + ");\n";
      else
        Dtor += In + "    if (" + Slot + ".p) *" + Slot + ".p = " + Member + ";\n";
    }
  }
  Out += In + "  template <class S> " + hd(P) + Name + "(const S &s, std::size_t i)" +
         Inits + " {\n" + Copies + In + "    (void)s, (void)i;\n" + In + "  }\n";
  if (!Dtor.empty())
    Out += In + "  " + hd(P) + "~" + Name + "() {\n" + Dtor + In + "  }\n";
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
    if (F->isAnonymousStructOrUnion())
      continue; // `e.density.wcount` names the anonymous union's member
    bool Public = F->getAccess() == AS_public || F->getAccess() == AS_none;
    if (Public) {
      X += "." + F->getName().str();
      continue;
    }
    // Private or protected: a member pointer obtained through explicit
    // instantiation, where access is not checked ([temp.spec.general]).
    FieldPath Sub(Path.begin(), Path.begin() + I + 1);
    std::string Tag = viewName(P) + "_tag_" + bufName(Sub);
    // The member pointer's type is never spelt (C++17 `auto` parameter):
    // the field's type may itself be private or end in '>'.
    std::string Field = typeName(compat::recordType(Ctx, F->getParent())) +
                        "::" + F->getName().str();
    if (Tags.find(Tag + " {") == std::string::npos)
      Tags += "struct " + Tag + " { friend constexpr auto " + memberFn() + "(" +
              Tag + ") noexcept; };\n" + "template struct " + viewName(P) +
              "_expose<&" + Field + ", " + Tag + ">;\n";
    X = "(" + X + ".*" + memberFn() + "(" + Tag + "{}))";
  }
  return X;
}

/// The proxy tree of P's view: one node per field on the way to each leaf,
/// leaves in declaration order.
ProxyNode Emitter::Impl::proxyTree(const LoopPlan &P) {
  ProxyNode Root;
  for (auto &[Path, A] : P.View.orderedLeaves()) {
    ProxyNode *N = &Root;
    for (size_t I = 0; I < Path.size(); ++I) {
      // Members of anonymous structs and unions are the enclosing record's
      // names: the proxy declares them directly (same names, same access).
      if (Path[I]->isAnonymousStructOrUnion())
        continue;
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
  return Root;
}

/// The spec's head and buffers: element and view types, the soa struct
/// (one buffer per field, per component of a split array), its size and
/// how an arena is carved into it.
std::string Emitter::Impl::specBuffers(const LoopPlan &P, const std::string &VName) {
  auto Leaves = P.View.orderedLeaves();
  std::string ElemName = typeName(P.View.ElementType);
  std::string Spec;
  std::string SName = VName + "_spec";
  std::string ElemShown = P.View.ElementType.getAsString(PrintingPolicy(LO));
  Spec += "// soaview: buffers of the view of '" + ElemShown + "' at " +
          siteWhere(P) + "\n";
  Spec += "struct " + SName + " {\n";
  Spec += "  using element = " + ElemName + ";\n";
  Spec += "  using view = " + VName + ";\n";
  Spec += std::string("  static constexpr bool writes = ") +
          (P.View.writes() ? "true" : "false") + ";\n";
  Spec += "  struct soa {\n";
  for (auto &[Path, A] : Leaves) {
    QualType E;
    if (unsigned N = splitComponents(Ctx, Path.back()->getType(), E)) {
      Spec += "    " + typeName(E) + " *" + bufName(Path) + "[" +
              std::to_string(N) + "]; // one buffer per component\n";
      continue;
    }
    Spec += "    " +
            declare(Ctx.getPointerType(Path.back()->getType()), bufName(Path)) +
            ";\n";
  }
  std::vector<SpecBuffer> Buffers = specBufferList(P);
  Spec += "    const void *const *soaview_address;\n";
  Spec += "  };\n";
  Spec += "  static std::size_t bytes_for(std::size_t n) {\n    return 0";
  for (const SpecBuffer &Buf : Buffers)
    Spec += "\n      + " + std::string(rt::Arena) + "::round_up(sizeof(" + Buf.Type + ") * n)";
  Spec += ";\n  }\n";
  Spec += "  static void carve(soa &s, " + std::string(rt::Arena) + " &a, std::size_t n) {\n";
  for (const SpecBuffer &Buf : Buffers)
    Spec += "    s." + Buf.Name + " = a.take<" + Buf.Type + ">(n);\n";
  Spec += "  }\n";
  return Spec;
}

/// Each buffer of P's spec: its name in the soa (a component of a split
/// array is `x[1]`), its element type, and whether the loop writes it.
std::vector<Emitter::Impl::SpecBuffer>
Emitter::Impl::specBufferList(const LoopPlan &P) {
  std::vector<SpecBuffer> Buffers;
  for (auto &[Path, A] : P.View.orderedLeaves()) {
    QualType E;
    if (unsigned N = splitComponents(Ctx, Path.back()->getType(), E)) {
      for (unsigned C = 0; C < N; ++C) {
        std::string K = "[" + std::to_string(C) + "]";
        Buffers.push_back({bufName(Path) + K, typeName(E), A.Written, dotted(Path) + K});
      }
      continue;
    }
    Buffers.push_back({bufName(Path), typeName(Path.back()->getType()), A.Written,
                       dotted(Path)});
  }
  return Buffers;
}

/// The spec's copies between elements and slots (gather, scatter), the
/// host/device buffer pairs, and at().
std::string Emitter::Impl::specCopies(const LoopPlan &P, std::string &Tags) {
  auto Leaves = P.View.orderedLeaves();
  std::vector<SpecBuffer> Buffers = specBufferList(P);
  std::string Spec;
  // One field copied between an element and its slot: assignment for
  // scalars, memcpy for arrays and whole structs.
  auto Copy = [&](const FieldPath &Path, bool ToSlot) {
    std::string Buf = "s." + bufName(Path) + "[i]";
    std::string Elem = accessPath(P, Path, "e", Tags);
    QualType E;
    if (unsigned N = splitComponents(Ctx, Path.back()->getType(), E)) {
      std::string Out;
      for (unsigned C = 0; C < N; ++C) {
        std::string K = "[" + std::to_string(C) + "]";
        std::string Slot = "s." + bufName(Path) + K + "[i]", Field = Elem + K;
        Out += "    " + (ToSlot ? Slot : Field) + " = " +
               (ToSlot ? Field : Slot) + ";\n";
      }
      return Out;
    }
    const std::string &Dst = ToSlot ? Buf : Elem, &Src = ToSlot ? Elem : Buf;
    if (Path.back()->getType()->isScalarType())
      return "    " + Dst + " = " + Src + ";\n";
    return "    std::memcpy(&" + Dst + ", &" + Src + ", sizeof " + Buf + ");\n";
  };
  Spec += "  static void gather(soa &s, std::size_t i, const element &e) {\n";
  for (auto &[Path, A] : Leaves)
    Spec += Copy(Path, /*ToSlot=*/true);
  Spec += "  }\n";
  // pairs(): each field's host and device buffers, element size, written.
  Spec += "  template <class F> static void pairs(const soa &h, const soa &d, "
          "F &&f) {\n";
  for (const SpecBuffer &Buf : Buffers)
    Spec += "    f(h." + Buf.Name + ", d." + Buf.Name + ", sizeof(" + Buf.Type +
            "), " + (Buf.Written ? "true" : "false") + ");\n";
  Spec += "  }\n";
  Spec += "  static void scatter(const soa &s, std::size_t i, element &e) {\n";
  for (auto &[Path, A] : Leaves)
    if (A.Written)
      Spec += Copy(Path, /*ToSlot=*/false);
  Spec += "  }\n";
  Spec += "  static " + hd(P) + "view at(const soa &s, std::size_t i) { return view(s, i); }\n";
  Spec += "};\n";
  return Spec;
}

/// fields(): each buffer with the element's field it holds, so that a
/// sweep's inner view can use the local view's buffers of the fields both
/// views read (soaview/sweep.h).
std::string Emitter::Impl::specFields(const LoopPlan &P) {
  std::string Spec = "  template <class F> static void fields(soa &s, F &&f) {\n";
  for (const SpecBuffer &Buf : specBufferList(P))
    Spec += "    f(s." + Buf.Name + ", \"" + Buf.Field + "\");\n";
  return Spec + "  }\n";
}

bool Emitter::Impl::viewChunks(const LoopPlan &P, bool Swept, Chunks &Fwd,
                               Chunks &Main) {
  std::string VName = viewName(P);
  if (!DoneSpecs.insert(VName).second)
    return true;
  const DeclContext *ElemNS = namespaceOf(P.View.Element);
  ProxyNode Root = proxyTree(P);
  // Views live in the element's namespace, in `soaview_gen` and in an
  // unnamed namespace inside it: each translation unit has its own, so a
  // file compiled twice into one program (say strict and fast-math builds)
  // does not define the same view twice. Both are inline, so that
  // argument-dependent lookup on a view also searches the element's
  // namespace (where clones of the loop's callees are declared).
  // nvcc cannot reopen an inline unnamed namespace (its own generated code
  // opens the unnamed namespace first, not inline): with the CUDA backend
  // the unnamed namespace is plain, and the clones that calls in templates
  // must find are declared there as well (Emit.cpp).
  const std::string Open = openGen() + B.viewsNamespace();
  Fwd.add(ElemNS, Open + " struct " + VName + "; } }\n");

  std::string ElemName = typeName(P.View.ElementType);
  std::string ElemShown = P.View.ElementType.getAsString(PrintingPolicy(LO));
  std::string SName = VName + "_spec";
  std::string Tags;
  std::string Spec = specBuffers(P, VName) + (Swept ? specFields(P) : "") +
                     specCopies(P, Tags);
  // Templates find their view's spec through this declaration, by
  // argument-dependent lookup on the element type: it lives in the inline
  // `soaview_gen`, outside the unnamed namespace.
  std::string Select;
  if (P.InTemplate)
    Select = SName + " " + selectName(P) + "(" + ElemName +
             " *);\n";

  std::string Body;
  Body += "// soaview: view of '" + ElemShown + "' for the loop at " +
          siteWhere(P) + "\n";
  Body += viewStruct(P, Root, VName, 0) + ";\n";
  if (!Tags.empty())
    Tags = "template <auto M, class Tag> struct " + VName +
           "_expose { friend constexpr auto " + memberFn() + "(Tag) noexcept { "
           "return M; } };\n" +
           Tags;
  // The proxy and the spec's at() run where the loop runs.
  Main.add(ElemNS, Open + "\n" + Tags + B.declareTargetBegin(onDevice(P)) +
                       Body + Spec + B.declareTargetEnd(onDevice(P)) +
                       "} // namespace\n" + Select + "} // namespace " +
                       GenNamespace + "\n");
  return true;
}

} // namespace soaview
