// The kernel tables the drivers (main.cpp, mpi.cpp) choose their builds
// from: one per build and floating-point mode (examples/sph/CMakeLists.txt
// compiles kernels.cpp and manual.cpp once per namespace). A driver links
// the objects of the tables it names.
#ifndef SOAVIEW_SPH_TABLES_H
#define SOAVIEW_SPH_TABLES_H

#include "kernels.h"

SPH_DECLARE_TABLE(plain_strict)
SPH_DECLARE_TABLE(soaview_strict)
SPH_DECLARE_TABLE(manual_strict)
SPH_DECLARE_TABLE(plain_fast)
SPH_DECLARE_TABLE(soaview_fast)
SPH_DECLARE_TABLE(manual_fast)
SPH_DECLARE_TABLE(region_strict)
SPH_DECLARE_TABLE(region_fast)
#ifdef SPH_WITH_OFFLOAD
SPH_DECLARE_TABLE(offload_strict)
SPH_DECLARE_TABLE(offload_fast)
#endif
#ifdef SPH_WITH_CUDA
SPH_DECLARE_TABLE(cuda_strict)
SPH_DECLARE_TABLE(cuda_fast)
SPH_DECLARE_TABLE(cuda_manual_strict)
SPH_DECLARE_TABLE(cuda_manual_fast)
#endif

#endif
