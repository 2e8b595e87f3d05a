// External body force per particle (gravity-like driving of flows), written
// once for every backend. A uniform acceleration g drives plain Poiseuille
// flow; with reverse_axis set, the sign flips between the two halves of the
// box along that axis (+g where r[axis] < 0, -g where r[axis] >= 0), which
// gives the reverse (double) Poiseuille flow of Backer et al. (J. Chem. Phys.
// 122, 154503 (2005)) in a fully periodic box. type_mask restricts the force
// to a group of bead types (bit t set: type t is driven).
#pragma once

#include <cstdint>

#include "meso_hd.hpp"
#include "vec3.hpp"

namespace meso::physics {

struct BodyForce {
  Vec3d g{0.0, 0.0, 0.0};  // acceleration: force on a particle is m g (times the sign)
  int reverse_axis = -1;    // -1: uniform; 0, 1, 2: sign flips at r[axis] = 0 (box centre)
  uint32_t type_mask = 0xffffffffu;

  MESO_HD bool active() const { return g.x != 0.0 || g.y != 0.0 || g.z != 0.0; }

  // r is the wrapped position (box centred on the origin, see box.hpp).
  MESO_HD Vec3d force(const Vec3d& r, uint32_t type, double mass) const {
    if (type >= 32u || ((type_mask >> type) & 1u) == 0u) return {0.0, 0.0, 0.0};
    double sign = 1.0;
    if (reverse_axis >= 0) {
      const double c = reverse_axis == 0 ? r.x : (reverse_axis == 1 ? r.y : r.z);
      sign = c < 0.0 ? 1.0 : -1.0;
    }
    const double s = sign * mass;
    return {s * g.x, s * g.y, s * g.z};
  }
};

}  // namespace meso::physics
