// Tests' orientational particles (meso/core/particle_data.hpp): one type, at rest
// at positions r with orientations q, each with the principal moments
// `inertia`, tags 0..n-1, in a cubic box of side L. The caller sets the
// pair style and its table.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/core/system.hpp"

namespace meso::testing {

inline System rotational_system(const std::vector<Vec3d>& r, const std::vector<Quatd>& q, double L,
                                const Vec3d& inertia) {
  System sys;
  sys.box = Box(L);
  auto& p = sys.particles;
  p.set_rotational(true);
  p.resize(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    p.position[i] = r[i];
    p.orientation[i] = q[i];
    p.tag[i] = uint32_t(i);
    p.type[i] = 0;
    p.velocity[i] = {0, 0, 0};
    p.image[i] = {0, 0, 0};
    p.inertia[i] = inertia;
  }
  return sys;
}

}  // namespace meso::testing
