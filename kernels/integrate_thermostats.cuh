// Thermostatted integrators on the GPU, mirroring the reference term by term:
// Nose-Hoover (reference/src/integrate_nose_hoover.cpp) and BAOAB Langevin
// (reference/src/integrate_langevin.cpp). The Nose-Hoover variables live in
// StepControl, so the whole step stays on the device.
#pragma once

#include <cuda_runtime.h>

#include "device_views.cuh"
#include "integrate_verlet.cuh"

namespace meso::cuda {

struct ThermostatArgs {
  double kT;
  double tau;    // Nose-Hoover
  double gamma;  // Langevin drag
  double dof;    // Nose-Hoover degrees of freedom (3N - 3)
  uint32_t seed;
};

// Nose-Hoover: KE of vel -> xi, eta half update -> v = e^{-dt xi/2} v + dt/2 f/m,
// r += dt v. ke_partials holds one double per block of 256 particles.
template <class S4>
void nose_hoover_first_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                            double* ke_partials, StepControl* ctl, cudaStream_t s);
// v = e^{-dt xi/2} (v + dt/2 f/m) -> KE -> eta, xi half update.
template <class S4>
void nose_hoover_second_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                             double* ke_partials, StepControl* ctl, cudaStream_t s);
uint32_t ke_blocks(uint32_t n);

// BAOAB first half (B, A, O, A) for step ctl->step + 1; the second half is the
// velocity-Verlet kick (integrate_second_half).
template <class S4>
void langevin_first_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                         const StepControl* ctl, cudaStream_t s);

}  // namespace meso::cuda
