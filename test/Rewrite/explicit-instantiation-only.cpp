// A main file of includes and an explicit instantiation definition only
// (AutoPas's md-flexible instantiation files): the library templates come
// from one header, the element type from a later one. The views of the
// instantiated loop go into the main file before the explicit
// instantiation, after both headers. Before: before the library template
// in its header, ahead of the element type (an internal error).
// RUN: %soaview_dump %s | %nochecks | FileCheck %s
#include "Inputs/late-element/lists.h"
#include "Inputs/late-element/particle.h"

// CHECK: #include "Inputs/late-element/particle.h"
// CHECK: struct Cluster_{{(md_)?}}Molecule_lists_h_{{[0-9]+}}_5 {
// CHECK: using soaview_element = ::lib::Cluster<{{ ?(::)?}}md::Molecule>;
// CHECK: {{^}}template bool lib::Container<md::Molecule>::compute(int);
template bool lib::Container<md::Molecule>::compute(int);
