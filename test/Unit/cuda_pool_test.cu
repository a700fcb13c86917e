//===- cuda_pool_test.cu - the CUDA backend of the pool -----------------===//
//
// Runs on a GPU (tools/gpu/run-gpu.sh); the test suite builds it with nvcc
// (test/Offload/cuda.test) and checks that, without a GPU, it stops with
// the runtime's message. Checks: a device frame round trip through a
// grid-stride launch (written fields back, read-only fields not), a site
// allocates device and pinned memory only while warming up, an empty range
// launches nothing, grids larger than one wave stride correctly, recursion
// gets one buffer per depth, threads (each on its own stream) do not share
// buffers, and a failing launch follows the error policy. Where there are
// two devices: buffers belong to the device they were leased for (pinned
// staging to the thread's current device), leasing for another device leaves
// the thread's current device as it was, threads on two devices and one
// thread on both in turn compute correctly, and each device's pool warms up
// once.
//===----------------------------------------------------------------------===//
#include "soaview/cuda.h"

#include <cstdio>
#include <thread>
#include <vector>

#include "check.h"

namespace {
struct Elem {
  double a, b;
};
// A hand-made spec of the shape soaview generates (in {a, b} out {a}).
struct View {
  double a, b;
  ::soaview::out_slot<double> out_a;
  template <class S>
  __host__ __device__ View(const S &s, std::size_t i)
      : a(s.a[i]), b(s.b[i]), out_a(&s.a[i]) {}
  __host__ __device__ ~View() {
    if (out_a.p)
      *out_a.p = a;
  }
};
struct Spec {
  using element = Elem;
  using view = View;
  static constexpr bool writes = true;
  struct soa {
    double *a, *b;
    const void *const *soaview_address;
  };
  static std::size_t bytes_for(std::size_t n) {
    return 2 * soaview::arena::round_up(sizeof(double) * n);
  }
  static void carve(soa &s, soaview::arena &ar, std::size_t n) {
    s.a = ar.take<double>(n);
    s.b = ar.take<double>(n);
  }
  static void gather(soa &s, std::size_t i, const element &e) {
    s.a[i] = e.a;
    s.b[i] = e.b;
  }
  template <class F> static void pairs(const soa &h, const soa &d, F &&f) {
    f(h.a, d.a, sizeof(double), true);
    f(h.b, d.b, sizeof(double), false);
  }
  static void scatter(const soa &s, std::size_t i, element &e) { e.a = s.a[i]; }
  static __host__ __device__ view at(const soa &s, std::size_t i) {
    return view(s, i);
  }
};

/// The generated shape of one offloaded loop: a[i] = 2 a[i] + b[i]; b is
/// also changed on the device but is read-only, so it must not come back.
void run(const soaview::site &s, std::vector<Elem> &es) {
  soaview::cuda::host_frame<Spec> frame(s, es);
  soaview::cuda::device_frame<Spec> dev(s, frame);
  const auto buf = dev.buffers();
  dev.launch([=] __device__(std::size_t i) {
    auto v = Spec::at(buf, i);
    v.a = 2 * v.a + v.b;
    buf.b[i] = -1; // not copied back: b is not written by the view
  });
}

soaview::site frame_site("cuda_pool_test:frame");

bool correct(std::size_t n, double scale) {
  const soaview::site &s = frame_site;
  std::vector<Elem> es(n);
  for (std::size_t i = 0; i < n; ++i)
    es[i] = {scale * i, 1.0};
  run(s, es);
  for (std::size_t i = 0; i < n; ++i)
    if (es[i].a != 2 * scale * i + 1 || es[i].b != 1.0)
      return false;
  return true;
}
/// Two devices (docs/runtime.md, "Several devices").
bool twoDevices() {
  bool ok = true;
  auto expect = [&](bool c, const char *what) {
    if (!c) {
      std::fprintf(stderr, "cuda_pool_test: two devices: %s\n", what);
      ok = false;
    }
  };
  static soaview::site other("cuda_pool_test:other-device");
  cudaSetDevice(0);
  void *p = soaview::rt::acquire_on(soaview::cuda::backend, 1, other, 4096);
  expect(soaview::cuda::current_device() == 0, "current device kept");
  cudaPointerAttributes at{};
  expect(cudaPointerGetAttributes(&at, p) == cudaSuccess && at.device == 1 &&
             at.type == cudaMemoryTypeDevice,
         "device memory on the device leased for");
  soaview::rt::release_on(soaview::cuda::backend, 1, other);
  {
    soaview::lease staging(other, 64, &soaview::cuda::pinned);
    expect(staging.device() == 0, "pinned staging of the current device");
  }
  // Threads on two devices at once, each with its own pools.
  std::vector<std::thread> ts;
  int bad = 0;
  for (int d = 0; d < 2; ++d)
    ts.emplace_back([d, &bad] {
      cudaSetDevice(d);
      {
        soaview::lease staging(frame_site, 64, &soaview::cuda::pinned);
        if (staging.device() != d)
          __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      }
      for (int k = 0; k < 20; ++k)
        if (!correct(3000 + d * 101, 0.5 * (d + 1)))
          __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      auto c = soaview::rt::counters(frame_site);
      if (c.device.misses != 3) // pinned (grown once) and device buffers
        __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    });
  for (auto &t : ts)
    t.join();
  expect(bad == 0, "threads on two devices");
  // One thread on both devices in turn: a pool per device.
  std::thread turn([&] {
    static soaview::site alt("cuda_pool_test:alternating");
    for (int k = 0; k < 20; ++k) {
      cudaSetDevice(k % 2);
      std::vector<Elem> es(777);
      for (std::size_t i = 0; i < es.size(); ++i)
        es[i] = {double(i), 1.0};
      run(alt, es);
      for (std::size_t i = 0; i < es.size(); ++i)
        if (es[i].a != 2.0 * i + 1)
          __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
    auto c = soaview::rt::counters(alt);
    if (c.device.calls != 40 || c.device.misses != 4)
      __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    soaview::rt::trim(); // frees each buffer on its own device
    if (cudaGetLastError() != cudaSuccess ||
        soaview::cuda::current_device() != 1)
      __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
  });
  turn.join();
  expect(bad == 0, "one thread on both devices");
  cudaSetDevice(0);
  return ok;
}
} // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
    std::fprintf(stderr, "cuda_pool_test: no CUDA device\n");
    return 1;
  }
  const soaview::site &warm = frame_site;
  for (int call = 0; call < 50; ++call)
    CHECK(correct(1000, 1.0));
  // Pinned host and device memory are both counted as non-host memory:
  // two leases per call, two allocations in all.
  auto c = soaview::rt::counters(warm);
  CHECK(c.device.calls == 100);
  CHECK(c.device.misses == 2); // allocated once each, then reused
  CHECK(c.host.calls == 0);
  CHECK(correct(0, 1.0)); // no elements: no launch, no copy
  // More elements than one wave of threads: the kernel strides.
  CHECK(correct(5000000, 0.5));
  c = soaview::rt::counters(warm);
  CHECK(c.device.misses == 4); // each grown once for the larger call

  // Nesting: distinct device buffers per depth.
  static soaview::site n("cuda_pool_test:nest");
  {
    void *a = soaview::rt::acquire_on(soaview::cuda::backend, 0, n, 64);
    void *b = soaview::rt::acquire_on(soaview::cuda::backend, 0, n, 64);
    CHECK(a != b);
    soaview::rt::release_on(soaview::cuda::backend, 0, n);
    soaview::rt::release_on(soaview::cuda::backend, 0, n);
  }
  // Threads: each has its own buffers and stream; results stay correct.
  std::vector<std::thread> ts;
  int bad = 0;
  for (int t = 0; t < 8; ++t)
    ts.emplace_back([t, &bad] {
      for (int k = 0; k < 20; ++k)
        if (!correct(100 + t * 37, 0.25 * (t + 1)))
          __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    });
  for (auto &t : ts)
    t.join();
  CHECK(bad == 0);
  if (devices >= 2)
    CHECK(twoDevices());
  else
    std::printf("cuda_pool_test: one device: two-device checks skipped\n");
  // The error policy: a failing launch reports the site and throws.
  {
    static soaview::site e("cuda_pool_test:error");
    std::vector<Elem> es(10, Elem{1, 1});
    soaview::cuda::host_frame<Spec> frame(e, es);
    soaview::cuda::device_frame<Spec> dev(e, frame);
    const auto buf = dev.buffers();
    bool threw = false;
    try {
      dev.launch([=] __device__(std::size_t i) {
        if (i == 3)
          __trap(); // the kernel fails
        buf.a[i] = 0;
      });
    } catch (const soaview::cuda::error &) {
      threw = true;
    }
    CHECK(threw);
  }
  return checksDone("cuda_pool_test");
}
