// The Lees-Edwards minimum image of the device kernels (docs/walls.md):
// physics::le_min_image in the pair arithmetic A, behind the MinImage
// interface the pair traversals call (pe.box().apply), so the DPD evaluator
// takes the sheared image without a kernel instantiation of its own. A run
// without shear takes MinImage::apply itself, bit for bit as before; the
// branch is uniform over the launch.
#pragma once

#include "core/device_views.cuh"
#include "meso/physics/lees_edwards.hpp"

namespace meso::cuda {

template <class A>
struct ShearedImage : MinImage<A> {
  A offset = A(0);  // delta(t): x of the upper image's origin
  A jump = A(0);    // gdot L_z: the upper image's velocity along x; 0 without shear

  __host__ __device__ ShearedImage(const Box& b, const physics::LeesEdwards& le)
      : MinImage<A>(b), offset(A(le.offset)), jump(A(le.jump)) {}

  __device__ bool sheared() const { return jump != A(0); }

  // The image index n of the partner along z (the nearest image), from a
  // raw separation's z.
  __device__ A image_of(A z) const { return this->rnd(z * this->ilz); }

  // physics::le_min_image: the nearest image along z, shifted by n delta
  // along x, then the nearest along x and y.
  __device__ void apply(A& x, A& y, A& z) const {
    if (!sheared()) return MinImage<A>::apply(x, y, z);
    const A n = image_of(z);
    z -= n * this->lz;
    x -= n * offset;
    x -= this->lx * this->rnd(x * this->ilx);
    y -= this->ly * this->rnd(y * this->ily);
  }
};

}  // namespace meso::cuda
