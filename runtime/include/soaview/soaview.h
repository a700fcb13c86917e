//===- soaview/soaview.h - runtime used by soaview-generated code -*- C++
//-*-===//
//
// The header generated code includes (users normally never do): the pool
// (soaview/pool.h: sites, leases, arenas and the contracts of the runtime's
// memory), the spec contract and view helpers (soaview/spec.h), and frames
// (soaview/frame.h). Offloaded loops add soaview/omp.h or soaview/cuda.h.
// See docs/runtime.md. Covered by test/Unit/pool_test.cpp and every test in
// test/Exec.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_SOAVIEW_H
#define SOAVIEW_SOAVIEW_H

#include "soaview/frame.h"
#include "soaview/gate.h"
#include "soaview/pool.h"
#include "soaview/spec.h"

#include <cstring> // memcpy in generated gathers and scatters

#endif // SOAVIEW_SOAVIEW_H
