//===- View.h - what the analysis hands on: the views of a nest -*- C++ -*-===//
//
// The analysis's product: per loop, the fields its view reads and writes
// (ViewModel), its element address comparisons, the functions it reaches with
// elements, and the uses of element objects that come from elsewhere.
// Written by analysis/ (analyseNest) only; checks, planning and emission read
// it (docs/design.md, "Stages and their products").
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_VIEW_H
#define SOAVIEW_VIEW_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <string>
#include <vector>

namespace soaview {

/// A chain of fields from the element: {kin, v} is `kin.v`.
using FieldPath = std::vector<const clang::FieldDecl *>;

/// The path as the user writes it (`kin.v`; anonymous members skipped; an
/// anonymous union held whole as `union {density, force}`).
std::string dotted(const FieldPath &P);

/// How a loop uses one field.
struct LeafAccess {
  bool Read = false;
  bool Written = false;
  /// Some use would mean something else if the view reached the field
  /// through a reference member (fields in place, sharedFields): its
  /// declared type is taken (`decltype(p->f)`), or it is passed on (to a
  /// call, a reference, a member function) through a const object, where a
  /// reference member would not be const.
  bool RefSensitive = false;
  clang::SourceLocation FirstUse;

  /// Adds the uses of A (the first use stays the earlier one found).
  void join(const LeafAccess &A) {
    Read |= A.Read;
    Written |= A.Written;
    RefSensitive |= A.RefSensitive;
    if (FirstUse.isInvalid())
      FirstUse = A.FirstUse;
  }
};

/// An anonymous union (its field) that a view can hold whole: named public
/// members in a named class.
bool holdableUnion(const clang::FieldDecl *U);
/// The path ends at an anonymous union held whole.
inline bool isUnionLeaf(const FieldPath &P) {
  return !P.empty() && P.back()->isAnonymousStructOrUnion() &&
         P.back()->getType()->isUnionType();
}

/// Pre is a proper prefix of P: P is a field inside the record at Pre.
inline bool isPrefixOf(const FieldPath &Pre, const FieldPath &P) {
  return Pre.size() < P.size() && std::equal(Pre.begin(), Pre.end(), P.begin());
}

/// The first anonymous union on the path P below which P goes on: the
/// length of the path up to and including it, or 0.
size_t unionEnd(const FieldPath &P);
/// Two different members of one anonymous union below a common prefix
/// (`density.wcount` and `force.f` of SWIFT's particle): they share storage.
bool unionSiblings(const FieldPath &A, const FieldPath &B);
/// The storage of the fields at A and B overlaps (one contains the other,
/// or they are unionSiblings).
bool overlaps(const FieldPath &A, const FieldPath &B);

/// Fields by path in declaration order (a map keyed by pointers is not:
/// messages and generated code use this order).
std::vector<std::pair<FieldPath, LeafAccess>>
inDeclarationOrder(const std::map<FieldPath, LeafAccess> &Fields);

/// The view of one element type for one loop: which leaves are read and
/// written, which member functions are reached (per sub-object path) and so
/// must exist on the proxy.
struct ViewModel {
  const clang::CXXRecordDecl *Element = nullptr;
  clang::QualType ElementType;
  std::map<FieldPath, LeafAccess> Leaves;
  /// Record-typed fields used as a whole (copied, passed on, assigned).
  std::map<FieldPath, LeafAccess> Wholes;
  /// Member functions reached with `this` = the sub-object at the path.
  std::map<FieldPath, llvm::SetVector<const clang::CXXMethodDecl *>> Methods;
  /// Local variables (anywhere in analysed code) that alias the element:
  /// their written element type must become the proxy type.
  llvm::SetVector<const clang::VarDecl *> Aliases;
  /// Of each anonymous union held whole because its members are used apart
  /// (holdUnions): those members and how they are used. A view writes back
  /// only the members written, and two views of a nest share such a union
  /// when one writes members the other does not use (analysis/Shared.cpp).
  /// No entry: the union is used whole, all of its bytes count.
  std::map<FieldPath, std::map<FieldPath, LeafAccess>> HeldMembers;

  /// Folds leaves below whole records into the whole record; an anonymous
  /// union whose members the loop uses apart, writing one, becomes one
  /// whole leaf (holdableUnion). RegionSweep: every holdable union the
  /// loop uses becomes one whole leaf (a view region's sweeps share buffers
  /// by field name, so all of them must name the union's bytes alike).
  void normalise(bool RegionSweep = false);
  void holdUnions(bool RegionSweep);
  /// Leaves in declaration order.
  std::vector<std::pair<FieldPath, LeafAccess>> orderedLeaves() const;
  /// The leaves read and those written, as the user writes them, in
  /// declaration order: {"x, h", "rho"}.
  std::pair<std::string, std::string> inOutNames() const;
  /// True when the loop writes some leaf (the view has fields to scatter).
  bool writes() const;
  /// Adds what Other uses: a symmetric pair loop's view to the view it
  /// walks (RecognisedLoop::WalksViewOf), which gathers and scatters for
  /// both.
  void absorb(const ViewModel &Other);
};

/// What the analysis finds about one loop of the nest.
struct LoopAnalysis {
  ViewModel View;
  /// Comparisons of element addresses, rewritten to compare the original
  /// objects' addresses: the operand expressions to wrap.
  std::vector<const clang::Expr *> Identities;
  /// Members of the element named with a qualifier (`p->Base::x`): the
  /// qualifier is taken out where the element is a view, which knows its
  /// members by name (checked to name the same member).
  std::vector<const clang::MemberExpr *> Qualified;
};

/// A free function reached with at least one element argument.
struct CalleeUse {
  const clang::FunctionDecl *FD = nullptr;
  /// Per parameter: index of the view (loop of the nest) whose element it
  /// receives, or -1. Two calls binding differently get two clones.
  std::vector<int> ParamViews;
  /// False for template instantiations whose element parameter is dependent:
  /// the template simply instantiates again with the proxy type.
  bool NeedsClone = true;
  /// A lambda's parameters taking the element by its own type, which become
  /// `auto` where it is written (analysis/TypedLambdas.cpp).
  std::vector<unsigned> AutoParams;
};

/// An access to a field of an element-type object that is not one of the
/// loops' elements (or to such an object as a whole): it conflicts with a
/// view that writes that field, or it writes a viewed field.
struct ForeignAccess {
  clang::SourceLocation Loc;
  const clang::FieldDecl *Field; ///< null: the whole object
  bool Write;
  const clang::RecordDecl *Record;
};

/// A virtual member function the nest's own code calls with an element, on
/// an object whose dynamic type is checked when the nest starts: the
/// converted nest runs when it is the static type (whose override the
/// analysis followed), the nest as written otherwise.
struct DispatchGuard {
  /// The variable naming the object (a reference or an object), or a
  /// pointer to it that the nest does not change; or a reference member of
  /// the nest's own object (`this->functor`), which nothing can reseat.
  const clang::ValueDecl *Object = nullptr;
  bool IsPointer = false;
  /// The object's static type, and the method called on it.
  const clang::CXXRecordDecl *Class = nullptr;
  const clang::CXXMethodDecl *Method = nullptr;
  clang::SourceLocation Call;
  /// `this->Object` in the check: Object is a member.
  bool isMember() const { return clang::isa<clang::FieldDecl>(Object); }
};

/// A field that one loop of a nest writes through its view and another
/// loop's view over the same element type (or a base) holds: their
/// containers may share elements, so two copies of the field could
/// disagree ([Radtke2025], section 3.3).
struct SharedField {
  FieldPath Path;        ///< as the writing loop's view holds it
  size_t Writer, Holder; ///< indices of the loops
  clang::SourceLocation WriteUse;
  /// Every view of the nest can reach the field in the element itself,
  /// through a reference member, so that they share it as the original
  /// loops do: a field of the element itself (not of a member, not in an
  /// anonymous union), every loop of its type holding exactly it, none
  /// using it where a reference would mean something else (RefSensitive),
  /// no loop over copies of its elements.
  bool InPlace = false;
};

/// The analysis of a nest: one LoopAnalysis per loop of the RecognisedNest,
/// in the same order.
struct AnalysedNest {
  std::vector<LoopAnalysis> Loops;
  std::vector<CalleeUse> Callees;
  std::vector<ForeignAccess> Foreign;
  std::vector<DispatchGuard> Guards;
};

} // namespace soaview

#endif
