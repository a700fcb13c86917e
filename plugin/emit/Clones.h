//===- Clones.h - the user's functions, for the views ------------*- C++
//-*-===//
//
// A function the loops pass elements to gets one clone: a function template
// whose parameters that received elements take any view instead
// (`template <class soaview_E0, ...,
// ::soaview::if_views<::soaview::stands_for<soaview_E0, P>, ...> = 0>`),
// declared right after the function's first declaration and defined right
// after its definition, so that every lookup that finds the function (by
// name, by argument-dependent lookup, from any template at any depth, from
// out-of-line definitions and friends) finds the clone beside it, and
// overload resolution picks the clone exactly when a view of the element
// the parameter takes is passed (each overload has its own clone). A
// member function of another class (a functor's) gets a member template of
// its class the same way. One clone serves every nest and view type.
// Function templates instantiate with the views as they are; what they need
// (element address comparisons, the element type named in an alias) is
// edited in their own text, in a form that means the same for the user's
// objects; a lambda's parameters taking the element by its own type become
// `auto` there (analysis/TypedLambdas.cpp). With the CUDA backend, the user
// functions a kernel reaches are marked __host__ __device__. Tests:
// test/Rewrite/callee-clone.cpp, test/Rewrite/template-views.cpp,
// test/Exec/constructs/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_CLONES_H
#define SOAVIEW_CLONES_H

#include "emit/EmitContext.h"

#include <map>
#include <set>

namespace soaview {

class CloneEmitter {
public:
  explicit CloneEmitter(EmitContext &Emit) : Emit(Emit) {}

  /// Records what Nest needs of the functions it passes elements to, and
  /// edits the function templates it instantiates with its views in place.
  bool collect(const NestPlan &Nest);
  /// Writes every clone recorded (after the last nest).
  bool finish();
  /// CUDA backend: marks the nest's device functions __host__ __device__.
  bool markDeviceFunctions(const NestPlan &Nest);

private:
  /// One function to clone, from every nest that reaches it.
  struct Request {
    const clang::FunctionDecl *Text; ///< the definition whose text is copied
    /// The parameters that receive elements, with the element type of each.
    std::map<unsigned, const clang::CXXRecordDecl *> ElementParams;
    std::vector<const clang::Expr *> Identities;
    std::vector<const clang::MemberExpr *> Qualified;
    std::vector<HeapRoute> Routes;
    std::vector<const clang::DeclRefExpr *> TableRefs;
    std::vector<std::pair<const clang::VarDecl *, const clang::RecordDecl *>>
        Aliases;
    bool Device = false;
    /// The nests (numbered by collect) whose edits (identities, routes,
    /// aliases) are recorded.
    std::set<unsigned> Nests;
  };
  bool inPlace(const NestPlan &Nest, const CalleeUse &U);
  void autoParams(const NestPlan &Nest, const CalleeUse &U,
                  TextEdits &Edits) const;
  bool write(const Request &Wanted);
  std::string keepOriginal(const clang::FunctionDecl *Def) const;
  std::string
  templateParams(const std::vector<std::pair<unsigned, std::string>> &Params,
                 bool Default) const;
  void headEdit(const clang::FunctionDecl *Decl, const std::string &Params,
                bool Device, TextEdits &Edits) const;
  bool copy(const Request &Wanted, const clang::FunctionDecl *Decl,
            bool Definition, bool WithDefault, std::string &Text) const;
  void memberEdits(const clang::FunctionDecl *Decl, TextEdits &Edits) const;
  bool insertAfter(const clang::FunctionDecl *Decl, const std::string &Text,
                   bool Device);

  EmitContext &Emit;
  std::vector<Request> Requests;
  unsigned CollectedNests = 0;
  std::map<const clang::FunctionDecl *, size_t> RequestOf;
  std::set<unsigned> EditedInPlace; ///< file locations already edited
  /// Functions already marked __host__ __device__ (CUDA backend).
  std::set<const clang::FunctionDecl *> MarkedDevice;
};

} // namespace soaview

#endif
