// Device-side Nose-Hoover thermostat state (StepControl::nh), so that the
// nvt step stays on the device: xi and eta, the sum m v^2 the last second
// half left for the next first half, and the last-block counter of the
// fused half-step kernels (integrate_nose_hoover.cu).
#pragma once

namespace meso::cuda {

struct NoseHooverState {
  double xi;
  double eta;
  double mv2;                // sum m v^2 of the current velocities, left by the last second half
  unsigned int blocks_done;  // last-block counter of the half-step kernels, Nose-Hoover's and the
                             // Verlet first half's (0 between kernels)
};

}  // namespace meso::cuda
