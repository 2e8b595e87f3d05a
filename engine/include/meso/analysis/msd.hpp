// Mean squared displacement from unwrapped positions: r + image * L, so that
// particles that crossed the periodic boundary count their true displacement.
// Both states are in tag order (Simulation::particles() returns that).
#pragma once

#include "meso/core/box.hpp"
#include "meso/core/particle_data.hpp"

namespace meso {

class MsdTracker {
 public:
  MsdTracker(const Box& box, const ParticleData<double>& reference);
  // <|r_i(t) - r_i(0)|^2> over particles; the box must not change.
  double operator()(const ParticleData<double>& now) const;

 private:
  Box box_;
  std::vector<Vec3d> origin_;  // unwrapped reference positions
};

}  // namespace meso
