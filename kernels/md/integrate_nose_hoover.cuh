// Nose-Hoover integration on the GPU, mirroring the reference term by term
// (reference/src/md/integrate_nose_hoover.cpp; the thermostat arithmetic of
// both is engine/include/meso/physics/thermostats.hpp). The Nose-Hoover
// variables live in StepControl (ctl->nh), so the whole step stays on the
// device.
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "md/integrate_verlet.cuh"
#include "core/step_control.cuh"
#include "md/thermostat_args.cuh"

namespace meso::cuda {

// Nose-Hoover, one kernel per half-step (the thermostat update is done by
// the last block of each, so there are no separate reduction launches):
// first:  xi, eta half update from ctl->nh.mv2 -> v = e^{-dt xi/2} v + dt/2 f/m,
//         r += dt v, the displacement check of max_displacement and, when
//         open.enabled, step_control's opening of the step (open_step);
// second: v = e^{-dt xi/2} (v + dt/2 f/m) -> sum m v^2 into ctl->nh.mv2 ->
//         eta, xi half update.
// ctl->nh.mv2 must hold sum m v^2 of the current velocities before a first
// half: a second half leaves it there; nose_hoover_store_mv2 puts it there at
// the start. ke_partials holds one double per block of 256 particles. The
// sums are those of the reference's order-independent formula in a fixed
// GPU order, the same for every run.
template <class S4>
void nose_hoover_store_mv2(ParticleView<S4> p, const double* type_mass, double* ke_partials,
                           StepControl* ctl, cudaStream_t s);
template <class S4>
void nose_hoover_first_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                            StepControl* ctl, const StepOpening& open, cudaStream_t s);
// `local` (several ranks): the second half leaves this rank's sum m v^2 in
// ctl->nh.mv2 and updates nothing; once the caller has summed it over the
// ranks, nose_hoover_finish_second_half updates eta and xi.
template <class S4>
void nose_hoover_second_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                             double* ke_partials, StepControl* ctl, bool local, cudaStream_t s);
void nose_hoover_finish_second_half(double dt, const ThermostatArgs& t, StepControl* ctl, cudaStream_t s);
uint32_t ke_blocks(uint32_t n);

}  // namespace meso::cuda
