/* config.h for the soaview swift-step driver (our own file, not SWIFT's).
 * SWIFT's hydro headers read their configuration from <config.h>; this one
 * selects a 3D, pure-hydro build: one SPH scheme (chosen by SWIFT_STEP_SCHEME
 * on the command line), the cubic spline kernel (SWIFT's default), an ideal
 * gas with gamma = 5/3 (SWIFT's default) and "none" for every other module. */
#ifndef SWIFT_STEP_CONFIG_H
#define SWIFT_STEP_CONFIG_H

#define PACKAGE_NAME "SWIFT"
#define PACKAGE_VERSION "swift-step"

#define HYDRO_DIMENSION_3D 3
#define CUBIC_SPLINE_KERNEL 1
#define HYDRO_GAMMA_5_3 (5. / 3.)
#define EOS_IDEAL_GAS 1

/* Scheme: -DSWIFT_STEP_SCHEME_MINIMAL | _PRESSURE_ENERGY | _SPHENIX */
#if defined(SWIFT_STEP_SCHEME_MINIMAL)
#define MINIMAL_SPH 1
#elif defined(SWIFT_STEP_SCHEME_PRESSURE_ENERGY)
#define HOPKINS_PU_SPH 1
#elif defined(SWIFT_STEP_SCHEME_SPHENIX)
#define SPHENIX_SPH 1
#else
#error "define one of SWIFT_STEP_SCHEME_MINIMAL, _PRESSURE_ENERGY, _SPHENIX"
#endif

#define NONE_MHD 1
#define DEFAULT_GRAVITY 1
#define RIEMANN_SOLVER_NONE 1
#define CHEMISTRY_NONE 1
#define COOLING_NONE 1
#define TRACERS_NONE 1
#define EXTRA_IO_NONE 1
#define STARS_NONE 1
#define FEEDBACK_NONE 1
#define BLACK_HOLES_NONE 1
#define SINK_NONE 1
#define FORCING_NONE 1
#define EXTERNAL_POTENTIAL_NONE 1
#define ENTROPY_FLOOR_NONE 1
#define PRESSURE_FLOOR_NONE 1
#define STAR_FORMATION_NONE 1
#define RT_NONE 1
#define RT_RIEMANN_SOLVER_NONE 1
#define POWER_SPECTRUM_NONE 1
#define NEUTRINO_NONE 1
#define SELF_GRAVITY_NONE 1

/* SWIFT is C99; its headers use the C keyword `restrict`, which C++ spells
 * __restrict. */
#ifdef __cplusplus
#define restrict __restrict
#endif

/* SWIFT declares its hydro functions `INLINE static` (inline.h defines INLINE
 * unless it is defined already). Under nvcc they are marked for the device
 * too, so that soaview's CUDA backend can call them from kernels. */
#if defined(__CUDACC__)
#define INLINE inline __host__ __device__
#endif

#endif
