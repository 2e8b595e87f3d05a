// The momentum of an NVE run at round-off (nve-drift's short form and the
// rigid-body drift gates). Each step's net force is a sum of pair forces
// rounded in the force precision with no preferred sign, so P/N walks: its
// largest change over S steps is held to u sqrt(S) sqrt(m kT), u the unit
// round-off (2^-24 in single and mixed, 2^-53 in double). A force that
// breaks Newton's third law moves P by its own error and linearly in S.
#pragma once

#include <cmath>
#include <limits>

namespace meso::validation {

// u sqrt(steps) momentum_unit, momentum_unit = sqrt(m kT) of the liquid.
inline double momentum_walk_limit(bool single, double steps, double momentum_unit) {
  const double u = single ? 0.5 * std::numeric_limits<float>::epsilon() : 0.5 * std::numeric_limits<double>::epsilon();
  return u * std::sqrt(steps) * momentum_unit;
}

}  // namespace meso::validation
