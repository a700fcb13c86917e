//===- Clones.h - callees rewritten for the views ----------------*- C++
//-*-===//
//
// A function the loop passes elements to gets a clone per binding of its
// parameters to views: the same code with the element types replaced by
// the views' (declared in the callee's namespace, defined where the callee
// is). A function template simply instantiates again with the views; one
// whose type parameter receives two views gets a clone with one more type
// parameter. With the CUDA backend, the user functions the kernel reaches
// are marked __host__ __device__. Tests: test/Rewrite/callee-clone.cpp,
// test/Rewrite/template-views.cpp, test/Rewrite/cuda.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_CLONES_H
#define SOAVIEW_CLONES_H

#include "emit/Chunks.h"
#include "emit/EmitContext.h"

#include <set>

namespace soaview {

class CloneEmitter {
public:
  explicit CloneEmitter(EmitContext &Emit) : Emit(Emit) {}

  /// A definition to insert at a location (a clone defined after its
  /// callee).
  using LateDefinitions =
      std::vector<std::pair<clang::SourceLocation, std::string>>;

  /// The clones of Nest's callees, for generated code at At: declarations
  /// into Decls, definitions of callees defined before At into Early, the
  /// others into Late.
  bool emit(const NestPlan &Nest, clang::SourceLocation At, Chunks &Decls,
            Chunks &Early, LateDefinitions &Late);
  /// CUDA backend: marks the nest's device functions __host__ __device__.
  bool markDeviceFunctions(const NestPlan &Nest);

private:
  bool cloneEdits(const NestPlan &Nest, const CalleeUse &U,
                  clang::CharSourceRange Range, bool Device, TextEdits &Edits);
  bool clone(const NestPlan &Nest, const CalleeUse &U, clang::SourceLocation At,
             Chunks &Decls, Chunks &Early, LateDefinitions &Late);
  void lookup(const NestPlan &Nest, const CalleeUse &U, Chunks &Decls);
  void splitClone(const NestPlan &Nest, const CalleeUse &U, Chunks &Decls);
  std::string splitTemplateClone(const NestPlan &Nest, const CalleeUse &U);

  EmitContext &Emit;
  std::set<std::string> DoneSplitClones;
  /// Functions already marked __host__ __device__ (CUDA backend).
  std::set<const clang::FunctionDecl *> MarkedDevice;
};

} // namespace soaview

#endif
