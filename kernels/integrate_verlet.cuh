// Velocity-Verlet / Groot-Warren integration kernels and the one-thread step
// control kernel of the device-resident step loop.
#pragma once

#include <cuda_runtime.h>

#include "device_views.cuh"
#include "physics/pair_noise.hpp"

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
// One thread; step_control launches it alone, the Nose-Hoover first half
// runs it in its last block.
__device__ __forceinline__ void open_step(StepControl* ctl, const ControlArgs& a,
                                          cudaGraphConditionalHandle hr, bool graph) {
  bool rebuild = false;
  if (!ctl->abort) {
    ctl->step += 1;
    const double d2 = __longlong_as_double(static_cast<long long>(ctl->max_disp_bits));
    ctl->max_disp_bits = 0;
    ctl->steps_since_build += 1;
    if (a.reorder) ctl->steps_since_sort += 1;
    const bool moved = d2 > a.half_skin_sq;
    if (ctl->force_rebuild) {
      rebuild = true;
      ctl->force_rebuild = 0;
    } else if (a.rebuild_every == 0) {
      rebuild = moved;
    } else {
      rebuild = ctl->steps_since_build >= a.rebuild_every;
      // A fixed period is the user's promise; count the builds that broke it.
      if (rebuild && moved) ctl->dangerous_builds += 1;
    }
    if (a.tea) {
      const physics::TeaPairKey k = physics::tea_pair_key(ctl->step, a.seed);
      for (int w = 0; w < 4; ++w) ctl->tea_key[w] = k.k[w];
    }
    ctl->cell_overflow = 0;
    ctl->nlist_overflow = 0;
    ctl->rebuild = rebuild;
    ctl->sort_due = rebuild && a.reorder && ctl->steps_since_sort >= a.sort_every;
  }
  if (graph) cudaGraphSetConditional(hr, rebuild ? 1u : 0u);
}

void step_control(StepControl* ctl, const ControlArgs& a, cudaGraphConditionalHandle rebuild,
                  bool graph, cudaStream_t s);

}  // namespace meso::cuda
