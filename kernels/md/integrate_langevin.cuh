// BAOAB Langevin integration on the GPU (Leimkuhler & Matthews 2013),
// mirroring reference/src/md/integrate_langevin.cpp term by term; the O step's
// coefficients are physics::langevin_coeffs
// (engine/include/meso/physics/thermostats.hpp), the noise
// physics::langevin_gaussian3.
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "md/integrate_verlet.cuh"
#include "core/step_control.cuh"
#include "md/thermostat_args.cuh"

namespace meso::cuda {

// BAOAB first half (B, A, O, A) for step ctl->step + 1; the second half is the
// velocity-Verlet kick (integrate_second_half).
template <class S4>
void langevin_first_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                         const StepControl* ctl, cudaStream_t s);

}  // namespace meso::cuda
