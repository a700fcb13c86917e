//===- heap.cpp - the device heap's host side
//-------------------------------===//
//
// Its size (SOAVIEW_DEVICE_HEAP) and the report of allocations that failed
// on the device. The allocator itself is header-only (soaview/heap.h): it
// runs where the offloaded code runs.
//===----------------------------------------------------------------------===//
#include "soaview/heap.h"
#include "options.h"
#include "soaview/pool.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

namespace soaview::heap {

std::size_t configured_bytes(std::size_t fallback) {
  const char *v = rt::option_text(rt::option::device_heap);
  if (!v)
    return fallback;
  char *end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  unsigned shift = 0;
  if (*end == 'K' || *end == 'k')
    shift = 10;
  else if (*end == 'M' || *end == 'm')
    shift = 20;
  else if (*end == 'G' || *end == 'g')
    shift = 30;
  if (shift)
    ++end;
  if (end == v || *end || n == 0 || (n << shift) >> shift != n) {
    std::fprintf(stderr,
                 "soaview: SOAVIEW_DEVICE_HEAP='%s' is not a size: give bytes, "
                 "or a number with K, M or G\n",
                 v);
    throw std::invalid_argument("soaview: bad SOAVIEW_DEVICE_HEAP");
  }
  return (std::size_t)(n << shift);
}

namespace {
std::atomic<std::size_t> chosen{0};
}

std::size_t bytes() {
  std::size_t n = chosen.load(std::memory_order_relaxed);
  return n ? n : configured_bytes(kDefaultBytes);
}
void set_bytes(std::size_t n) { chosen.store(n, std::memory_order_relaxed); }

bool report(const site &s, const state &snapshot, std::size_t heap_bytes) {
  if (snapshot.failures == 0)
    return false;
  std::fprintf(stderr,
               "soaview: the device heap ran out in the loop at %s: %llu "
               "allocation(s) returned null, the largest request %llu bytes "
               "(heap %zu bytes; set SOAVIEW_DEVICE_HEAP or "
               "soaview::heap::set_bytes)\n",
               s.where(), snapshot.failures, snapshot.fail_bytes_max,
               heap_bytes);
  return true;
}

unsigned long long plan_owned(void *mem, std::size_t bytes, state &heap_state,
                              std::size_t &zero, void (*release)(void *, int),
                              int device) {
  if (!mem) {
    std::fprintf(
        stderr, "soaview: cannot allocate a device heap of %zu bytes\n", bytes);
    throw std::bad_alloc();
  }
  auto at =
      plan((unsigned long long)(std::uintptr_t)mem, bytes, heap_state, zero);
  if (!at) {
    release(mem, device);
    std::fprintf(stderr,
                 "soaview: a device heap of %zu bytes holds no slab "
                 "(at least 1 MiB)\n",
                 bytes);
    throw std::bad_alloc();
  }
  return at;
}

} // namespace soaview::heap
