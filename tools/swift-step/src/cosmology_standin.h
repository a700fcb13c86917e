// swift-step stand-in (our code) for SWIFT's struct cosmology, used only when
// SWIFT_STEP_COSMOLOGY_STANDIN is defined (the CUDA build, every object of
// its binary). SWIFT's own struct holds interpolation-table pointers, and
// soaview's CUDA backend refuses to copy an object holding pointers into a
// kernel ("cannot offload loop to CUDA: it uses 'prm' ... pointers,
// references and objects holding them would refer to host memory"). The
// hydro functions of the schemes used here read only these fields.
#pragma once
#include "parser.h"
#include "physical_constants.h"
#include "timeline.h"
#include "units.h"
#define SWIFT_COSMOLOGY_H 1 // SWIFT's cosmology.h is skipped
struct cosmology {
  double a, a_inv, a2_inv, a3_inv;
  double a_factor_internal_energy, a_factor_pressure, a_factor_sound_speed;
  double a_factor_mu, a_factor_Balsara_eps, a_factor_grav_accel;
  double a_factor_hydro_accel;
  double z, H, time;
};
