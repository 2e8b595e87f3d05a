// Leapfrog with Berendsen scaling on the GPU, the CUDA twin of
// reference/src/md/integrate_berendsen.cpp term by term (the scale is
// physics::berendsen_scale of meso/physics/thermostats.hpp): one step is
//   1. the sums of the half-step velocities and angular momenta: block
//      partials of sum m v^2, sum L_k^2 / I_k and the rotational degrees of
//      freedom, then one block adds them in a fixed order (the same sums in
//      every run), into sums[0..2];
//   2. (several ranks) sums[] added over the ranks by the caller;
//   3. the update: v = lambda (v + dt F/m), r += dt v, and with rotation
//      L = lambda_r (L + dt R(q)^T tau), then the free rotor for dt.
// The sums are taken at the start of every step rather than kept from the
// last: no state survives a step, so reorders, restarts and set_system need
// no care.
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "core/step_control.cuh"
#include "md/integrate_verlet.cuh"

namespace meso::cuda {

struct BerendsenArgs {
  double kT;
  double tau;
  double tau_r;   // of rotation
  double dof;     // translational degrees of freedom of every rank's particles (3N - 3)
  bool rotation;  // integrate/berendsen/aniso: rot holds the orientational arrays
};

// The partials need 3 doubles per block of berendsen_blocks(n).
uint32_t berendsen_blocks(uint32_t n);
template <class S4>
void berendsen_sums(ParticleView<S4> p, RotationalView<S4> rot, const IntegrateArgs& a, const BerendsenArgs& b,
                    double* partials, double* sums, const StepControl* ctl, cudaStream_t s);
template <class S4>
void berendsen_update(ParticleView<S4> p, RotationalView<S4> rot, const IntegrateArgs& a, const BerendsenArgs& b,
                      const double* sums, const StepControl* ctl, cudaStream_t s);

}  // namespace meso::cuda
