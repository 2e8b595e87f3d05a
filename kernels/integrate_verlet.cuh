// Velocity-Verlet / Groot-Warren integration kernels and the one-thread step
// control kernel of the device-resident step loop.
#pragma once

#include <cuda_runtime.h>

#include "device_views.cuh"

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
};

template <class S4>
void integrate_first_half(ParticleView<S4> p, const IntegrateArgs& a, FirstHalfMode mode,
                          const StepControl* ctl, cudaStream_t s);
template <class S4>
void integrate_second_half(ParticleView<S4> p, const IntegrateArgs& a, const StepControl* ctl,
                           cudaStream_t s);
// TEA signatures from vel (or vel_pred when `predicted`), e.g. at t = 0.
template <class S4>
void tea_signatures(ParticleView<S4> p, bool predicted, uint32_t seed_whitening, cudaStream_t s);

struct ControlArgs {
  double half_skin_sq;
  uint32_t rebuild_every;  // 0: displacement-triggered
  uint32_t sort_every;     // 0: never (or reorder=none)
  uint32_t seed;
  bool reorder;
  bool tea;
};
// Opens a step: step += 1, the TEA key of the step, the rebuild decision from
// the displacement (or the fixed period), the sort decision. With a non-null
// handle (graph mode) it also sets the conditional of the rebuild
// body (the sort body reads ctl->sort_due itself). Once ctl->abort is set
// it leaves the state of the failed step alone and only skips the rebuild.
void step_control(StepControl* ctl, const ControlArgs& a, cudaGraphConditionalHandle rebuild,
                  bool graph, cudaStream_t s);

}  // namespace meso::cuda
