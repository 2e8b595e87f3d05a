// The relative L2 difference of two vector fields, |a - b| / |b| over all
// entries: how GPU forces and velocities are compared with the reference's.
#pragma once

#include <cmath>
#include <vector>

#include "meso/physics/vec3.hpp"

namespace meso::test {

inline double rel_l2(const std::vector<Vec3d>& a, const std::vector<Vec3d>& b) {
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Vec3d d = a[i] - b[i];
    num += dot(d, d);
    den += dot(b[i], b[i]);
  }
  return std::sqrt(num / den);
}

}  // namespace meso::test
