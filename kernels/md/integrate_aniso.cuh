// Translation and rotation of orientational particles on the GPU, the CUDA
// twin of reference/src/md/integrate_aniso.cpp term by term, over the shared
// rigid-body physics (engine/include/meso/physics/rigid_body.hpp: the
// torque kick and the exact or NO_SQUISH free rotor):
//   nve       B (v by the force, L by the torque), A (r by dt v, the free
//             rotor for dt);
//   langevin  B, A for dt/2, O (v and each body axis's L with its own drag
//             and Philox draws), A for dt/2 (BAOAB);
// the second half is B for both.
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "core/step_control.cuh"
#include "md/integrate_verlet.cuh"
#include "md/thermostat_args.cuh"

namespace meso::cuda {

enum class AnisoMethod { nve, langevin };

// The first half of step ctl->step + 1 (the step graph opens the step after
// it); gamma_r: the rotational drag of langevin.
template <class S4>
void aniso_first_half(ParticleView<S4> p, RotationalView<S4> rot, const IntegrateArgs& a, AnisoMethod method,
                      const ThermostatArgs& t, double gamma_r, const StepControl* ctl, cudaStream_t s);
template <class S4>
void aniso_second_half(ParticleView<S4> p, RotationalView<S4> rot, const IntegrateArgs& a, const StepControl* ctl,
                       cudaStream_t s);

}  // namespace meso::cuda
