//===- omp_pool_test.cpp - the OpenMP device-memory backend of the pool ---===//
//
// Built with -fopenmp and host offloading (-fopenmp-targets=x86_64) so that it
// runs without a GPU: device memory is then a separate address space in the
// same process. Checks: device buffers are usable from target regions, a site
// allocates on the device only while warming up, recursion gets one buffer
// per depth, threads do not share buffers, and pinned host memory survives
// many threads allocating and freeing at once (the lock around LLVM 19's
// racy pinned-buffer table; on the GPU node this failed without it).
//===----------------------------------------------------------------------===//
#include "soaview/omp.h"

#include <cstdio>
#include <thread>
#include <vector>

#include "check.h"

static double roundTrip(const soaview::site &s, std::size_t n, double v) {
  soaview::omp::device_lease l(s, n * sizeof(double));
  double *d = static_cast<double *>(l.data());
  std::vector<double> host(n, v);
  int dev = l.device(), init = omp_get_initial_device();
  omp_target_memcpy(d, host.data(), n * sizeof(double), 0, 0, dev, init);
#pragma omp target teams distribute parallel for is_device_ptr(d) device(dev)
  for (std::size_t i = 0; i < n; ++i)
    d[i] = d[i] * 2 + static_cast<double>(i);
  omp_target_memcpy(host.data(), d, n * sizeof(double), 0, 0, init, dev);
  double sum = 0;
  for (double x : host)
    sum += x;
  return sum;
}

int main() {
  if (omp_get_num_devices() < 1) {
    std::fprintf(stderr, "no OpenMP device (set OMP_TARGET_OFFLOAD)\n");
    return 1;
  }
  static soaview::site s("omp_pool_test:warm");
  for (int call = 0; call < 50; ++call) {
    double sum = roundTrip(s, 1000, 1.0);
    CHECK(sum == 1000 * 2.0 + 999.0 * 1000 / 2);
  }
  auto c = soaview::rt::counters(s);
  CHECK(c.device.calls == 50);
  CHECK(c.device.misses == 1); // allocated once, then reused
  // A larger request grows the block once more; smaller ones reuse it.
  roundTrip(s, 5000, 1.0);
  roundTrip(s, 10, 1.0);
  c = soaview::rt::counters(s);
  CHECK(c.device.misses == 2);

  // Nesting: distinct device buffers per depth.
  static soaview::site n("omp_pool_test:nest");
  {
    soaview::omp::device_lease a(n, 64), b(n, 64);
    CHECK(a.data() != b.data());
  }
  // Threads: each has its own buffers; results stay correct.
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([t] {
      static soaview::site st("omp_pool_test:threads");
      for (int k = 0; k < 20; ++k)
        if (roundTrip(st, 100 + t, 0.5) !=
            (100 + t) * 1.0 + (99.0 + t) * (100 + t) / 2)
          std::abort();
    });
  for (auto &t : ts)
    t.join();

  // Pinned memory from many threads at once, sizes varying so that freed
  // addresses are handed out again.
  std::vector<std::thread> ps;
  std::vector<int> bad(32, 0);
  for (int t = 0; t < 32; ++t)
    ps.emplace_back([t, &bad] {
      for (int k = 0; k < 300; ++k) {
        std::size_t bytes = 4096 * (1 + (t * 7 + k * 13) % 64);
        auto *p = static_cast<unsigned char *>(
            soaview::omp::pinned.allocate(bytes, 0));
        if (!p) {
          ++bad[t];
          continue;
        }
        p[0] = p[bytes - 1] = static_cast<unsigned char>(k);
        if (p[0] != p[bytes - 1])
          ++bad[t];
        soaview::omp::pinned.deallocate(p, 0);
      }
    });
  for (auto &t : ps)
    t.join();
  int pinnedFailures = 0;
  for (int b : bad)
    pinnedFailures += b;
  CHECK(pinnedFailures == 0);
  return checksDone("omp_pool_test");
}
