//===- cuda_heap_test.cu - the device heap on a CUDA device ---------------===//
//
// Run on the GPU node (test/GPU/cuda.test); built in CI (test/Offload/
// cuda.test). Threads allocate blocks of random sizes through
// soaview::heap::malloc, fill and check them, free them; objects and arrays
// through create / destroy; a heap too small gives null on the device and
// a report naming the loop on the host. `held` drives the warp groups
// (heap.h): threads of a warp hold several blocks of mixed classes at once,
// allocate and free from divergent branches, and every block is checked to
// be its owner's alone.
//===----------------------------------------------------------------------===//
#include "soaview/heap_cuda.h"

#include <cstdio>

#include "check.h"

namespace {

struct Obj {
  unsigned tag;
  double v[3];
  __device__ Obj() : tag(7), v{1, 2, 3} {}
  __device__ explicit Obj(unsigned t) : tag(t), v{0, 0, 0} {}
  __device__ ~Obj() { tag = 0; }
};

__global__ void blocks(unsigned threads, unsigned rounds, unsigned *bad,
                       unsigned *nulls) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= threads)
    return;
  unsigned rng = i * 2654435761u + 1;
  for (unsigned r = 0; r < rounds; ++r) {
    rng = rng * 1664525u + 1013904223u;
    std::size_t n = 1 + (rng >> 8) % 5000;
    auto *p = (unsigned char *)soaview::heap::malloc(n);
    if (!p) {
      atomicAdd(nulls, 1u);
      continue;
    }
    for (std::size_t k = 0; k < n; ++k)
      p[k] = (unsigned char)(i + k);
    for (std::size_t k = 0; k < n; ++k)
      if (p[k] != (unsigned char)(i + k))
        atomicAdd(bad, 1u);
    soaview::heap::free(p);
  }
  auto *z = (unsigned *)soaview::heap::calloc(8, sizeof(unsigned));
  if (!z)
    atomicAdd(nulls, 1u);
  else {
    for (int k = 0; k < 8; ++k)
      if (z[k])
        atomicAdd(bad, 1u);
    soaview::heap::free(z);
  }
}

/// Every thread holds 1 to 6 blocks of sizes drawn from a few classes
/// (some lanes allocating in a branch the others skip), stamps each with
/// its id, checks all of them after the whole block has stamped, then frees
/// them in an order that differs between odd and even threads.
__global__ void held(unsigned threads, unsigned *bad, unsigned *nulls) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *p[6] = {};
  std::size_t n[6] = {};
  const unsigned k = 1 + i % 6;
  if (i < threads) {
    unsigned rng = i * 2246822519u + 7;
    for (unsigned j = 0; j < k; ++j) {
      rng = rng * 1664525u + 1013904223u;
      if (j == 2 && (i & 1)) // a branch half the warp takes
        n[j] = 3000;
      else
        n[j] = std::size_t(16) << ((rng >> 20) % 5); // 16 B .. 256 B
      p[j] = (unsigned *)soaview::heap::malloc(n[j]);
      if (!p[j]) {
        atomicAdd(nulls, 1u);
        continue;
      }
      for (std::size_t w = 0; w < n[j] / 4; ++w)
        p[j][w] = i * 8 + j;
    }
  }
  __syncthreads();
  if (i >= threads)
    return;
  for (unsigned j = 0; j < k; ++j) {
    const unsigned at = (i & 1) ? k - 1 - j : j;
    if (!p[at])
      continue;
    for (std::size_t w = 0; w < n[at] / 4; ++w)
      if (p[at][w] != i * 8 + at)
        atomicAdd(bad, 1u);
    soaview::heap::free(p[at]);
  }
}

__global__ void objects(unsigned threads, unsigned *bad) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= threads)
    return;
  Obj *o = soaview::heap::create<Obj>(i);
  Obj *a = soaview::heap::create_array<Obj>(1 + i % 5);
  if (!o || !a || o->tag != i || a[i % 5].tag != 7 || a[0].v[2] != 3)
    atomicAdd(bad, 1u);
  soaview::heap::destroy(o);
  soaview::heap::destroy_array(a);
}

__global__ void too_much(unsigned threads, unsigned *nulls) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < threads && !soaview::heap::malloc(60000)) // never freed
    atomicAdd(nulls, 1u);
}

unsigned *counter() {
  unsigned *c;
  cudaMalloc(&c, sizeof *c);
  cudaMemset(c, 0, sizeof *c);
  return c;
}
unsigned value(unsigned *c) {
  unsigned v = 0;
  cudaMemcpy(&v, c, sizeof v, cudaMemcpyDeviceToHost);
  return v;
}

} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
    std::fprintf(stderr, "cuda_heap_test: no CUDA device\n");
    return 1;
  }
  static soaview::site loop("cuda_heap_test:blocks"),
      over("cuda_heap_test:too_much");
  {
    soaview::heap::cuda_heap heap(512 << 20);
    heap.bind();
    unsigned *bad = counter(), *nulls = counter();
    const unsigned threads = 20000;
    blocks<<<(threads + 255) / 256, 256, 0, cudaStreamPerThread>>>(threads, 8,
                                                                   bad, nulls);
    objects<<<(threads + 255) / 256, 256, 0, cudaStreamPerThread>>>(threads,
                                                                    bad);
    for (int round = 0; round < 4; ++round) // slabs emptied and taken again
      held<<<(100000 + 255) / 256, 256, 0, cudaStreamPerThread>>>(
          100000 - 37 * round, bad, nulls);
    CHECK(cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess);
    CHECK(value(bad) == 0);
    CHECK(value(nulls) == 0);
    CHECK(!heap.check(loop)); // nothing failed, nothing reported
  }
  {
    soaview::heap::cuda_heap small(4 << 20); // 15 slabs: 60 blocks of 64 KiB
    small.bind();
    unsigned *nulls = counter();
    too_much<<<4, 256, 0, cudaStreamPerThread>>>(1000, nulls);
    CHECK(cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess);
    CHECK(value(nulls) > 900);
    CHECK(small.check(over));  // prints the report naming the loop
    CHECK(!small.check(over)); // the record was cleared
  }
  return checksDone("cuda_heap_test");
}
