// Velocity-Verlet / Groot-Warren integration kernels.
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "core/step_control.cuh"
#include "meso/physics/srd_slit.hpp"

namespace meso::cuda {

enum class FirstHalfMode {
  vv,        // v += dt/2 f/m; r += dt v (in place)
  vv_fused,  // as vv, but v(t + dt/2) goes to vel_pred: the fused force kernel finishes the step
  gw,        // as vv, plus vel_pred = v + (lambda - 1/2) dt f/m (Groot-Warren prediction)
};

struct IntegrateArgs {
  Box box;
  const double* type_mass;
  double dt;
  double lambda;
  uint32_t seed_whitening;  // TEA: signatures of the velocities the forces use
  bool tea;
  physics::SlitWall wall;   // slit walls: the drift reflects there (velocity Verlet only)
  double shear_rate = 0.0;  // Lees-Edwards: the drift wraps through the z faces (vv and gw)
};

// The first half-step, with the displacement check of max_displacement
// (the new position is in registers) and, when open.enabled, the opening of
// the step (open_step) in the block that finishes last: one kernel where the
// step used to start with three (first half, displacement_kernel,
// step_control), the same values in the same words.
template <class S4>
void integrate_first_half(ParticleView<S4> p, const IntegrateArgs& a, FirstHalfMode mode,
                          StepControl* ctl, const StepOpening& open, cudaStream_t s);
template <class S4>
void integrate_second_half(ParticleView<S4> p, const IntegrateArgs& a, const StepControl* ctl,
                           cudaStream_t s);
// TEA signatures from vel (or vel_pred when `predicted`), e.g. at t = 0.
template <class S4>
void tea_signatures(ParticleView<S4> p, bool predicted, uint32_t seed_whitening, cudaStream_t s);

}  // namespace meso::cuda
