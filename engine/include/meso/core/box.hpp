// Orthorhombic periodic simulation box centred on the origin, as in HOOMD-blue:
// coordinates live in [-L/2, L/2) along each axis. Host+device so that kernels
// use the same minimum-image and wrapping rules as the reference.
#pragma once

#include <cmath>
#include <cstdint>

#include "meso/physics/meso_hd.hpp"
#include "meso/physics/vec3.hpp"

namespace meso {

struct Image {
  int32_t x, y, z;
};

class Box {
 public:
  Box() = default;
  MESO_HD Box(double lx, double ly, double lz)
      : L_{lx, ly, lz}, inv_L_{1.0 / lx, 1.0 / ly, 1.0 / lz} {}
  MESO_HD explicit Box(double l) : Box(l, l, l) {}

  MESO_HD Vec3d lengths() const { return L_; }
  MESO_HD Vec3d lo() const { return {-0.5 * L_.x, -0.5 * L_.y, -0.5 * L_.z}; }
  MESO_HD double volume() const { return L_.x * L_.y * L_.z; }
  MESO_HD double min_length() const { return fmin(L_.x, fmin(L_.y, L_.z)); }

  // Nearest periodic image of a separation vector. rint is symmetric
  // (rint(-t) == -rint(t)), so min_image(-d) == -min_image(d) exactly: pair
  // forces computed from either side are bitwise opposite.
  MESO_HD Vec3d min_image(Vec3d d) const {
    d.x -= L_.x * rint(d.x * inv_L_.x);
    d.y -= L_.y * rint(d.y * inv_L_.y);
    d.z -= L_.z * rint(d.z * inv_L_.z);
    return d;
  }

  // Folds a position back into [-L/2, L/2) and counts the crossings in img.
  MESO_HD void wrap(Vec3d& r, Image& img) const {
    wrap1(r.x, img.x, L_.x, inv_L_.x);
    wrap1(r.y, img.y, L_.y, inv_L_.y);
    wrap1(r.z, img.z, L_.z, inv_L_.z);
  }

  // Position unwrapped with its image counters (for displacements, MSD).
  MESO_HD Vec3d unwrap(Vec3d r, Image img) const {
    return {r.x + img.x * L_.x, r.y + img.y * L_.y, r.z + img.z * L_.z};
  }

 private:
  MESO_HD static void wrap1(double& x, int32_t& img, double l, double inv_l) {
    const double shift = floor((x + 0.5 * l) * inv_l);
    if (shift != 0.0) {
      x -= shift * l;
      img += static_cast<int32_t>(shift);
    }
    // Rounding can leave x == +L/2 after the subtraction; fold it explicitly so
    // that the half-open interval invariant holds for cell binning.
    if (x >= 0.5 * l) {
      x -= l;
      img += 1;
    }
    if (x < -0.5 * l) {
      x += l;
      img -= 1;
    }
  }

  Vec3d L_{1.0, 1.0, 1.0};
  Vec3d inv_L_{1.0, 1.0, 1.0};
};

}  // namespace meso
