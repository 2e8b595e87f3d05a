// Parameters of the thermostatted integrators (integrate_nose_hoover.cuh,
// integrate_langevin.cuh), one struct for both so that the backend fills it
// once.
#pragma once

#include <cstdint>

namespace meso::cuda {

struct ThermostatArgs {
  double kT;
  double tau;    // Nose-Hoover
  double gamma;  // Langevin drag
  double dof;    // Nose-Hoover degrees of freedom (3N - 3)
  uint32_t seed;
};

}  // namespace meso::cuda
