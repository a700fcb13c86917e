// soaview-heap-bench: the device heap (soaview/heap_cuda.h) against CUDA's
// device malloc and a bump allocator (one atomic add, never frees: the
// lower bound), on the synthetic tests of [Vinkler2015], section 6
// (docs/references.md):
//   AD   every thread allocates a block, then frees it;
//   ACD  alloc cycle dealloc: every thread allocates 10 blocks, holding them
//        all (a word written in each), then frees them all;
//   AWD  every thread allocates a block, writes and sums every word of it,
//        then frees it (allocation with compute);
//   P    every thread makes 16 random steps: allocate a block while it holds
//        fewer than 4, else free one of them.
// Sizes 16 B to 8 KiB, threads 10^3 to 10^6 (--threads, --sizes). Each point
// is the median of --runs kernel times (cudaEvent), after one warm-up
// launch. Prints a CSV: test,allocator,threads,bytes,median_us,failures,
// then the heap's fragmentation after the P test (used slab bytes vs live
// bytes). docs/benchmarks.md "Device heap" has the H100 results.
#include "soaview/heap_cuda.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

enum class Alloc { soaview, cuda, bump };
enum class Test { AD, ACD, AWD, P };
constexpr int kCycles = 10; // ACD's blocks per thread ([Vinkler2015])

struct bump_state {
  unsigned long long base, offset, limit;
};

__device__ void *do_alloc(Alloc a, soaview::heap::state *h, bump_state *b,
                          std::size_t n) {
  switch (a) {
  case Alloc::soaview:
    return soaview::heap::allocate_in(h, n);
  case Alloc::cuda:
    return ::malloc(n);
  case Alloc::bump: {
    unsigned long long at =
        atomicAdd(&b->offset, (unsigned long long)((n + 15) & ~15ull));
    return at + n <= b->limit ? (void *)(b->base + at) : nullptr;
  }
  }
  return nullptr;
}
__device__ void do_free(Alloc a, soaview::heap::state *h, void *p) {
  if (a == Alloc::soaview)
    soaview::heap::free_in(h, p);
  else if (a == Alloc::cuda)
    ::free(p);
}

__global__ void kernel(Test t, Alloc a, soaview::heap::state *h, bump_state *b,
                       unsigned threads, std::size_t n,
                       unsigned long long *fails, unsigned long long *sink) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= threads)
    return;
  unsigned long long acc = 0, failed = 0;
  if (t == Test::P) {
    void *held[4];
    unsigned k = 0, rng = i * 2654435761u + 12345u;
    for (int step = 0; step < 16; ++step) {
      rng = rng * 1664525u + 1013904223u;
      if (k < 4 && (k == 0 || (rng >> 16) & 1)) {
        void *p = do_alloc(a, h, b, n);
        if (p) {
          *(volatile unsigned *)p = i;
          held[k++] = p;
        } else
          ++failed;
      } else {
        do_free(a, h, held[--k]);
      }
    }
    while (k > 0)
      do_free(a, h, held[--k]);
  } else if (t == Test::ACD) {
    void *held[kCycles];
    for (int k = 0; k < kCycles; ++k) {
      held[k] = do_alloc(a, h, b, n);
      if (held[k])
        *(volatile unsigned *)held[k] = i;
      else
        ++failed;
    }
    for (int k = 0; k < kCycles; ++k)
      do_free(a, h, held[k]);
  } else {
    unsigned *p = (unsigned *)do_alloc(a, h, b, n);
    if (!p) {
      ++failed;
    } else {
      if (t == Test::AWD) {
        unsigned words = (unsigned)(n / 4 ? n / 4 : 1);
        for (unsigned w = 0; w < words; ++w)
          p[w] = i ^ w;
        for (unsigned w = 0; w < words; ++w)
          acc += p[w];
      } else {
        *(volatile unsigned *)p = i;
      }
      do_free(a, h, p);
    }
  }
  if (failed)
    atomicAdd(fails, failed);
  if (acc == 0xffffffffffffull)
    *sink = acc; // keeps the AWD work
}

__global__ void hold(soaview::heap::state *h, void **held, unsigned threads,
                     std::size_t n, unsigned long long *sums) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= threads)
    return;
  std::size_t want = n / 2 + 1 + (i * 2654435761u) % (n - n / 2);
  void *p = soaview::heap::allocate_in(h, want);
  held[i] = p;
  if (p) {
    atomicAdd(&sums[0], (unsigned long long)want);
    atomicAdd(&sums[1],
              (unsigned long long)soaview::heap::usable_size_in(h, p));
  }
}
__global__ void release(soaview::heap::state *h, void **held,
                        unsigned threads) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < threads)
    soaview::heap::free_in(h, held[i]);
}

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "soaview-heap-bench: %s: %s\n", what,
                 cudaGetErrorString(e));
    std::exit(1);
  }
}

std::vector<unsigned long> list_of(const char *s) {
  std::vector<unsigned long> v;
  for (const char *p = s; *p;) {
    char *end;
    v.push_back(std::strtoul(p, &end, 10));
    p = *end == ',' ? end + 1 : end;
    if (end == p && *p)
      break;
  }
  return v;
}

const char *name(Alloc a) {
  return a == Alloc::soaview ? "soaview"
         : a == Alloc::cuda  ? "cuda-malloc"
                             : "bump";
}
const char *name(Test t) {
  return t == Test::AD    ? "AD"
         : t == Test::ACD ? "ACD"
         : t == Test::AWD ? "AWD"
                          : "P";
}

void usage() {
  std::printf(
      "soaview-heap-bench: device allocation inside CUDA kernels\n"
      "  soaview's device heap vs CUDA's device malloc vs a bump allocator\n"
      "  (one atomic add, no free: the lower bound), on [Vinkler2015]'s "
      "tests:\n"
      "    AD   allocate a block, then free it (every thread)\n"
      "    ACD  alloc cycle dealloc: allocate 10 blocks, holding them all\n"
      "         (a word written in each), then free them all\n"
      "    AWD  allocate, write and sum every word of the block, free it\n"
      "    P    16 random steps: allocate while holding fewer than 4 blocks,\n"
      "         else free one (probabilistic allocate/free)\n"
      "options:\n"
      "  --tests AD,ACD,AWD,P    (default all)\n"
      "  --threads 1000,10000,100000,1000000\n"
      "  --sizes 16,64,256,1024,4096,8192   block bytes\n"
      "  --heap-gib G            each allocator's memory (default 10)\n"
      "  --runs R                median of R timed launches (default 5)\n"
      "  --slow-ms M             time CUDA malloc once above M ms, skip "
      "larger\n"
      "                          thread counts of that test and size (2000)\n"
      "prints CSV: test,allocator,threads,bytes,median_us,failures\n"
      "then fragmentation of soaview's heap after each P point.\n");
}

} // namespace

int main(int argc, char **argv) {
  std::vector<unsigned long> threads = {1000, 10000, 100000, 1000000};
  std::vector<unsigned long> sizes = {16, 64, 256, 1024, 4096, 8192};
  std::vector<Test> tests = {Test::AD, Test::ACD, Test::AWD, Test::P};
  double gib = 10, slow_ms = 2000;
  int runs = 5;
  std::map<unsigned long, bool> slow[4];
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else if (a == "--threads")
      threads = list_of(next());
    else if (a == "--sizes")
      sizes = list_of(next());
    else if (a == "--heap-gib")
      gib = std::atof(next());
    else if (a == "--slow-ms")
      slow_ms = std::atof(next());
    else if (a == "--runs")
      runs = std::atoi(next());
    else if (a == "--tests") {
      tests.clear();
      std::string v = std::string(next()) + ",";
      for (std::size_t at = 0, c; (c = v.find(',', at)) != std::string::npos;
           at = c + 1) {
        std::string t = v.substr(at, c - at);
        if (t == "AD")
          tests.push_back(Test::AD);
        else if (t == "ACD")
          tests.push_back(Test::ACD);
        else if (t == "AWD")
          tests.push_back(Test::AWD);
        else if (t == "P")
          tests.push_back(Test::P);
        else {
          std::fprintf(stderr, "soaview-heap-bench: unknown test '%s'\n",
                       t.c_str());
          return 2;
        }
      }
    } else {
      std::fprintf(stderr, "soaview-heap-bench: unknown option '%s'\n",
                   a.c_str());
      usage();
      return 2;
    }
  }
  const std::size_t heap_bytes = (std::size_t)(gib * (1ull << 30));
  check(cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap_bytes),
        "CUDA heap size");
  soaview::heap::cuda_heap heap(heap_bytes);
  bump_state *bump;
  void *bump_mem;
  check(cudaMalloc(&bump, sizeof *bump), "bump state");
  check(cudaMalloc(&bump_mem, heap_bytes), "bump memory");
  unsigned long long *fails, *sink;
  check(cudaMalloc(&fails, 8), "counter");
  check(cudaMalloc(&sink, 8), "sink");
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::printf("test,allocator,threads,bytes,median_us,failures\n");
  for (Test t : tests)
    for (unsigned long n : sizes)
      for (unsigned long th : threads)
        for (Alloc a : {Alloc::soaview, Alloc::cuda, Alloc::bump}) {
          // CUDA's malloc can take minutes at 10^6 threads: once a point of
          // this test and size took over --slow-ms, larger thread counts are
          // skipped (printed with median -1), and a point slower than that
          // is timed once.
          if (a == Alloc::cuda && slow[(int)t][n]) {
            std::printf("%s,%s,%lu,%lu,-1,0\n", name(t), name(a), th, n);
            continue;
          }
          std::vector<float> us;
          unsigned long long failed = 0;
          for (int r = 0; r <= runs; ++r) {
            bump_state bs = {(unsigned long long)(std::uintptr_t)bump_mem, 0,
                             heap_bytes};
            check(cudaMemcpy(bump, &bs, sizeof bs, cudaMemcpyHostToDevice),
                  "bump reset");
            check(cudaMemset(fails, 0, 8), "counter reset");
            cudaEventRecord(e0);
            kernel<<<(unsigned)((th + 255) / 256), 256>>>(
                t, a, heap.get(), bump, (unsigned)th, n, fails, sink);
            cudaEventRecord(e1);
            check(cudaEventSynchronize(e1), "kernel");
            float ms;
            cudaEventElapsedTime(&ms, e0, e1);
            if (r > 0 || ms > slow_ms) // the first launch warms up
              us.push_back(ms * 1000);
            if (ms > slow_ms) {
              slow[(int)t][n] = true;
              check(cudaMemcpy(&failed, fails, 8, cudaMemcpyDeviceToHost),
                    "failures");
              break;
            }
            check(cudaMemcpy(&failed, fails, 8, cudaMemcpyDeviceToHost),
                  "failures");
          }
          std::sort(us.begin(), us.end());
          std::printf("%s,%s,%lu,%lu,%.1f,%llu\n", name(t), name(a), th, n,
                      us[us.size() / 2], failed);
          std::fflush(stdout);
        }
  // Fragmentation: every thread holds one block of a random size in
  // (n/2, n]; internal = 1 - requested / block bytes, external = 1 - block
  // bytes / bytes of the slabs the heap's classes hold.
  std::printf("# fragmentation,threads,bytes,internal,external\n");
  unsigned long long *sums;
  void **held;
  const unsigned long th = threads.back();
  check(cudaMalloc(&sums, 16), "sums");
  check(cudaMalloc(&held, th * sizeof(void *)), "held");
  for (unsigned long n : sizes) {
    check(cudaMemset(sums, 0, 16), "sums");
    hold<<<(unsigned)((th + 255) / 256), 256>>>(heap.get(), held, (unsigned)th,
                                                n, sums);
    check(cudaDeviceSynchronize(), "hold");
    unsigned long long sm[2];
    check(cudaMemcpy(sm, sums, 16, cudaMemcpyDeviceToHost), "sums");
    soaview::heap::state st;
    check(cudaMemcpy(&st, heap.get(), sizeof st, cudaMemcpyDeviceToHost),
          "state");
    std::vector<std::uint32_t> states(st.slabs);
    check(cudaMemcpy(states.data(), st.slab_state, 4 * st.slabs,
                     cudaMemcpyDeviceToHost),
          "slab states");
    unsigned long long slab_bytes = 0;
    for (auto s : states)
      if (s != soaview::heap::kFree)
        slab_bytes += soaview::heap::kSlabBytes;
    std::printf("# fragmentation,%lu,%lu,%.3f,%.3f\n", th, n,
                1 - (double)sm[0] / sm[1], 1 - (double)sm[1] / slab_bytes);
    release<<<(unsigned)((th + 255) / 256), 256>>>(heap.get(), held,
                                                   (unsigned)th);
    check(cudaDeviceSynchronize(), "release");
  }
  return 0;
}
