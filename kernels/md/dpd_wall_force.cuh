// The DPD slit walls' force on the GPU (meso/physics/dpd_wall.hpp): one
// thread per local particle adds the walls' conservative, dissipative and
// random force to the net force the pair kernel stored, from the velocities
// the pair dissipation read. Mirrors DpdEvaluator::add_particle_forces of
// reference/src/md/pair_dpd.cpp.
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "core/step_control.cuh"
#include "meso/physics/dpd_wall.hpp"

namespace meso::cuda {

// predicted: the dissipation reads vel_pred (Groot-Warren after t = 0), as
// the pair kernel did; the noise is keyed by ctl->step.
template <class S4>
void add_dpd_wall_force(ParticleView<S4> p, const physics::DpdWall& w, bool predicted, double inv_sqrt_dt,
                        uint32_t seed, const StepControl* ctl, cudaStream_t s);

}  // namespace meso::cuda
