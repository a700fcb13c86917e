//===- soaview/omp.h - OpenMP device memory for soaview -------*- C++ -*-===//
//
// The OpenMP target-memory backend of the soaview pool: device buffers come
// from omp_target_alloc on the chosen device and are cached per (site,
// thread, depth) like host buffers, so after warm-up an offloaded loop site
// performs no device allocation. Included only by code built with -fopenmp.
//
// Contracts: device buffers are owned by the runtime and valid until the
// device_lease is destroyed; the host thread that acquired them must release
// them. Errors follow the runtime's one policy (message naming the site,
// std::bad_alloc). Covered by test/Unit/omp_pool_test.cpp.
//===----------------------------------------------------------------------===//
#ifndef SOAVIEW_OMP_H
#define SOAVIEW_OMP_H

#include "soaview/soaview.h"

#include <omp.h>

namespace soaview::omp {

inline void *allocate(std::size_t bytes, int device) {
  return omp_target_alloc(bytes, device);
}
inline void deallocate(void *p, int device) noexcept {
  omp_target_free(p, device);
}
inline const rt::backend backend = {"omp", allocate, deallocate};

/// RAII lease of device memory from the pool.
class device_lease {
public:
  device_lease(const site &s, std::size_t bytes,
               int device = omp_get_default_device())
      : site_(s), device_(device),
        data_(rt::acquire_on(backend, device, s, bytes)) {}
  ~device_lease() { rt::release_on(backend, device_, site_); }
  device_lease(const device_lease &) = delete;
  device_lease &operator=(const device_lease &) = delete;
  void *data() const noexcept { return data_; }
  int device() const noexcept { return device_; }

private:
  const site &site_;
  int device_;
  void *data_;
};

} // namespace soaview::omp

#endif
