//===- Instances.cpp - one template loop, several instantiations --------===//
#include "driver/Instances.h"

#include "frontend/Annotations.h"
#include "plan/InstanceKey.h"
#include "support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace soaview {

namespace {

/// What a loop's view uses: `in {x, h} out {rho}` and the member functions
/// copied into it.
std::string viewUses(const ViewModel &V) {
  auto [In, Out] = V.inOutNames();
  std::string Methods;
  for (auto &[Path, Ms] : V.Methods)
    for (const CXXMethodDecl *MD : Ms)
      Methods += (Methods.empty() ? "" : ", ") +
                 (Path.empty() ? "" : dotted(Path) + ".") +
                 MD->getNameAsString();
  for (auto &[Path, A] : V.Wholes)
    Methods += (Methods.empty() ? "" : ", ") + dotted(Path) + " (whole)";
  return "in {" + In + "} out {" + Out + "}" +
         (Methods.empty() ? "" : " with {" + Methods + "}");
}

/// How the loop's text reaches the element: it is shared by instantiations.
std::string formTag(const LoopPlan &P) {
  if (P.Form.ElementBinding) // the text picks the binding by position
    return " through binding " + P.Form.ElementBinding->getName().str();
  if (P.Form.Wrapped) // the text unwraps the range's elements
    return " through std::reference_wrapper";
  if (P.Form.Kind == LoopFormKind::Range && P.Form.VarIsPointer)
    return " through a pointer"; // `auto &e` over pointers and over structs
  return "";
}

/// What a nest's views use, loop by loop, with their element types.
std::string nestUses(ASTContext &Ctx, const NestPlan &Nest) {
  std::string Uses;
  for (const LoopPlan &P : Nest.Loops)
    Uses += qualifiedName(Ctx, P.View.ElementType) + " " + viewUses(P.View) +
            formTag(P) + "; ";
  return Uses;
}

unsigned locOf(const LoopPlan &P) {
  return P.Annotation->ForLoc.getRawEncoding();
}

} // namespace

void TemplateInstances::survey(const std::vector<NestPlan> &Plans) {
  // By the nest's outer loop and element types: the uses met.
  std::map<std::pair<unsigned, std::string>, std::set<std::string>> Seen;
  std::map<unsigned, std::set<unsigned>> LoopsOf; // by outer loop
  for (const NestPlan &Nest : Plans) {
    std::string Elements;
    for (const LoopPlan &P : Nest.Loops) {
      Elements += qualifiedName(Ctx, P.View.ElementType) + formTag(P) + ";";
      LoopsOf[locOf(Nest.Loops[0])].insert(locOf(P));
    }
    Seen[{locOf(Nest.Loops[0]), Elements}].insert(nestUses(Ctx, Nest));
  }
  for (auto &[Key, Uses] : Seen)
    if (Uses.size() > 1)
      KeyedLoops.insert(LoopsOf[Key.first].begin(), LoopsOf[Key.first].end());
}

bool TemplateInstances::place(NestPlan &Nest, DiagStore &D) {
  if (!Nest.InTemplate || !llvm::any_of(Nest.Loops, [&](const LoopPlan &P) {
        return KeyedLoops.count(locOf(P));
      }))
    return sameAsOthers(Nest, D);
  if (!keyable(Nest, D) || !sameAsOthers(Nest, D, true))
    return false;
  std::string Uses = nestUses(Ctx, Nest);
  for (LoopPlan &P : Nest.Loops) {
    std::vector<std::string> &Met = UsesAt[locOf(P)];
    P.Use = llvm::find(Met, Uses) - Met.begin();
    if (P.Use == Met.size())
      Met.push_back(Uses);
    P.Keyed = true;
  }
  return true;
}

/// A keyed nest names its template's arguments after the translation unit;
/// offloaded code does not pick views so.
bool TemplateInstances::keyable(const NestPlan &Nest, DiagStore &D) const {
  const LoopPlan &First = Nest.Loops[0];
  std::string Element = qualifiedName(Ctx, First.View.ElementType);
  if (Nest.Sweep || Nest.offloads()) {
    StoredDiag &E = D.report(First.Annotation->ForLoc,
                             {diag::err_loop_instances_offloaded, {Element}});
    D.note(E, First.Annotation->ForLoc, diag::note_loop_instances_offloaded);
    return false;
  }
  for (const LoopPlan &P : Nest.Loops)
    if (auto U = unspellableKey(instanceKeyParts(P.Form.Function))) {
      StoredDiag &E = D.report(P.Annotation->ForLoc,
                               {diag::err_loop_instance_key,
                                {qualifiedName(Ctx, P.View.ElementType),
                                 U->Param->getNameAsString(), U->What}});
      D.note(E, U->At, diag::note_loop_instance_key);
      return false;
    }
  return true;
}

/// Instantiations of an unkeyed loop must use the same fields and member
/// functions of each element type; those of a keyed one (FormOnly) reach
/// the element the same way.
bool TemplateInstances::sameAsOthers(const NestPlan &Nest, DiagStore &D,
                                     bool FormOnly) {
  if (!Nest.InTemplate)
    return true;
  for (const LoopPlan &P : Nest.Loops) {
    std::string Element = qualifiedName(Ctx, P.View.ElementType);
    std::string Uses =
        (FormOnly ? std::string("the element") : viewUses(P.View)) + formTag(P);
    SourceLocation Made = P.Form.Function->getPointOfInstantiation();
    auto [It, New] =
        ViewsAt.insert({{locOf(P), Element},
                        {Uses, Made.isValid() ? Made : P.Annotation->ForLoc}});
    if (New || It->second.first == Uses)
      continue;
    StoredDiag &E =
        D.report(P.Annotation->ForLoc,
                 {diag::err_loop_instances_differ, {Element, Uses}});
    D.note(E, It->second.second,
           {diag::note_loop_instances_differ, {It->second.first}});
    return false;
  }
  return true;
}

} // namespace soaview
