// Linked into the CUDA builds that keep CUDA's own device malloc
// (soaview-translate --device-heap=off), for comparisons with soaview's
// device heap: before main, CUDA's malloc heap is given the size soaview's
// heap gets (SOAVIEW_DEVICE_HEAP, else 64 MiB) instead of CUDA's 8 MiB.
#include "soaview/heap.h"

#include <cuda_runtime.h>

#include <cstdio>

namespace {
const bool limit_set = [] {
  std::size_t bytes = soaview::heap::bytes();
  cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes);
  if (e != cudaSuccess)
    std::fprintf(stderr, "cuda_malloc_limit: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess;
}();
} // namespace
