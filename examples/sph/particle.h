// The SPH particle and the smoothing kernel shared by every build of the
// demonstrator ([Radtke2025], section 7; ../../docs/benchmarks.md).
//
// One particle is one 272-byte struct, as in a real 2D SPH code; each kernel
// touches only a few of its fields, which is what makes views pay.
#ifndef SOAVIEW_SPH_PARTICLE_H
#define SOAVIEW_SPH_PARTICLE_H

#include <cmath>
#include <cstdint>
#include <vector>

namespace sph {

struct Particle {
  double x[2];       // position
  double v[2];       // velocity
  double a[2];       // acceleration (force kernel output)
  double v_full[2];  // predicted velocity
  double mass;
  double h;          // smoothing length (kernel support radius)
  double rho;        // density (density kernel output)
  double pressure;
  double u;          // internal energy per mass
  double u_dt;       // its rate (force kernel output)
  double u_full;     // predicted internal energy
  double soundspeed;
  double wcount;     // neighbour weight
  double wcount_dh;
  double rho_dh;
  double div_v;      // velocity divergence
  double rot_v;      // velocity curl (a scalar in 2D)
  double balsara;    // Balsara switch
  double v_sig;      // maximal signal velocity (force kernel output)
  double h_dt;       // smoothing length rate (force kernel output)
  double f_grad;     // grad-h correction factor
  double entropy;
  std::int64_t id;
  std::int32_t flags;
  std::int32_t cell;
  double time_bin[4]; // administrative data no kernel touches
  char tag[16];
};
static_assert(sizeof(Particle) == 272, "[Radtke2025]'s particle is 272 bytes");

/// The pointer lists a kernel runs over: the cell's own particles (local)
/// and those of the cell and its neighbours (active). Local is a subset of
/// active; kernels write only local particles.
using ParticleList = std::vector<Particle *>;

/// The spline functions run in CUDA kernels too (soaview-translate
/// --backend=cuda): a header soaview does not rewrite marks them for the
/// device itself, with a macro that is empty for every other compiler.
#ifdef __CUDACC__
#define SPH_HD __host__ __device__
#else
#define SPH_HD
#endif

/// Constants of the physics (an ideal gas with artificial viscosity). The
/// offloaded kernels use them on the device, which OpenMP asks to be said
/// (Clang 22 warns otherwise, -Wopenmp-target).
#ifdef _OPENMP
#pragma omp declare target
#endif
constexpr double kDt = 1e-4;
constexpr double kGamma = 5.0 / 3.0;
constexpr double kAlpha = 0.8; // artificial viscosity
#ifdef _OPENMP
#pragma omp end declare target
#endif

// The M5 quartic spline in 2D with support radius H (= 2.5 h of the usual
// notation): W(r, H) = norm(H) * w(q), q = 2.5 r / H. Branch-free, so that
// masked kernels vectorise.
SPH_HD inline double quarticW(double q) {
  double a = std::fmax(2.5 - q, 0.0), b = std::fmax(1.5 - q, 0.0),
         c = std::fmax(0.5 - q, 0.0);
  a *= a, b *= b, c *= c;
  return a * a - 5 * b * b + 10 * c * c;
}
/// dw/dq of quarticW.
SPH_HD inline double quarticDW(double q) {
  double a = std::fmax(2.5 - q, 0.0), b = std::fmax(1.5 - q, 0.0),
         c = std::fmax(0.5 - q, 0.0);
  return -4 * (a * a * a - 5 * b * b * b + 10 * c * c * c);
}
/// 96 / (1199 pi h^2) with h = H / 2.5.
SPH_HD inline double quarticNorm(double H) {
  return 96.0 * 6.25 / (1199.0 * 3.14159265358979323846 * H * H);
}

} // namespace sph

#endif
