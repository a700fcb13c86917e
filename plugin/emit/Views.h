//===- Views.h - the proxy view and the specs of a nest ---------*- C++ -*-===//
//
// One view (proxy) per element type and nest, standing in for the element
// wherever it stood: the values of one element's fields for one iteration
// (written back by its destructor), copies of the member functions the
// loops reach, forwards of the class's static names. Every loop of the nest
// over that type builds it from its own spec (a constructor per loop); the
// fields the other loops use stay unset. One spec per loop: the SoA
// buffers, gather, scatter, and at(). Private fields are reached through
// member pointers named in explicit instantiations, where access is not
// checked. docs/generated-code.md shows both; tests: test/Rewrite/*.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_VIEWS_H
#define SOAVIEW_VIEWS_H

#include "emit/Chunks.h"
#include "emit/CodeWriter.h"
#include "emit/EmitContext.h"
#include "plan/ViewGroups.h"

#include <set>

namespace soaview {

/// Name of the SoA buffer of a leaf: the path joined with '_'
/// (Proxy.cpp; the proxy and the specs name buffers alike).
std::string bufferName(const FieldPath &P);

/// The pointers of the soa of loop Loop of group G (its spec's buffers,
/// Specs.cpp), in the soa's order, as member names: `rho`, `x[1]` for a
/// component of a split array, and last `soaview_address`.
std::vector<std::string> soaPointers(const EmitContext &Emit,
                                     const ViewGroup &G, size_t Loop);

/// The entry point: each view group of a nest through the pieces of
/// emit/ViewParts.h (the specs, the proxy, the member functions it copies),
/// in the element's namespace, once per view.
class ViewEmitter {
public:
  explicit ViewEmitter(EmitContext &Emit) : Emit(Emit) {}

  /// The views and specs of Nest (once per view): the forward declarations
  /// into Forward, the definitions into Main.
  void emit(const NestPlan &Nest, Chunks &Forward, Chunks &Main);

private:
  void keyedSelectors(const NestPlan &Nest, Chunks &Main);
  void emitGroup(const NestPlan &Nest, const ViewGroup &G, Chunks &Forward,
                 Chunks &Main);
  std::string selectors(const NestPlan &Nest, const ViewGroup &G) const;
  void breakForTest(CodeWriter &Body, const NestPlan &Nest,
                    const ViewGroup &G) const;

  EmitContext &Emit;
  std::set<std::string> DoneViews;
  std::set<std::string> DoneSelectors;
};

} // namespace soaview

#endif
