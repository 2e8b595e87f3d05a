// MPCD streaming (HOOMD-blue's mpcd::BulkStreamingMethodGPU with a constant
// force; Howard et al., CPC 230, 10 (2018), sec. 2.1): ballistic motion over
// the collision period, r += dt v + dt^2 g / 2, v += dt g, wrapped into the
// periodic box with image counts, or reflected at the slit walls
// (meso/physics/srd_slit.hpp), or across the sheared z faces under
// Lees-Edwards shear (meso/physics/srd_lees_edwards.hpp). One thread per particle; the image is read
// and written only by the few that cross a face, so the kernel moves three
// 4-vectors a particle (four with a body force).
// Reference: reference/src/mpcd/mpcd_stream.cpp.
#include "meso/cuda/check.hpp"
#include "mpcd/mpcd_kernels.cuh"

namespace meso::cuda {
namespace {

template <class S4, bool kForce, bool kWall, bool kShear>
__global__ void mpcd_stream_kernel(MpcdView<S4> p, Box box, double dt, double mass,
                                   physics::BodyForce bf, physics::SlitWall wall, physics::LeesEdwards le) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= solvent_count(p)) return;
  const S4 r4 = p.pos[i];
  Vec3d r = xyz(r4);
  const S4 v4 = p.vel[i];
  Vec3d v = xyz(v4);
  if constexpr (kWall) {
    // Bounce-back at the slit walls with the exact crossing time, as the
    // reference streams.
    const Vec3d g = kForce ? (1.0 / mass) * bf.force(r, type_of(r4), mass) : Vec3d{0.0, 0.0, 0.0};
    physics::slit_stream(r, v, g, dt, wall);
    p.vel[i] = make4<S4>(v, double(v4.w));
  } else if constexpr (kForce) {
    // The acceleration at the start of the period, formed as the reference does.
    const Vec3d g = (1.0 / mass) * bf.force(r, type_of(r4), mass);
    r += dt * v + (0.5 * dt * dt) * g;
    v += dt * g;
    p.vel[i] = make4<S4>(v, double(v4.w));  // keeps the cached cell index
  } else {
    r += dt * v;
  }
  Image d{0, 0, 0};
  bool jumped = false;  // the velocity took an image's jump
  if constexpr (kShear) {
    // Across a z face into the sheared image (lees_edwards.hpp), as the
    // reference streams; x and y are folded next.
    d.z = physics::le_wrap(r, v, box.lengths(), le);
    jumped = d.z != 0;
  }
  box.wrap(r, d);
  S4 out = make4<S4>(r, double(r4.w));
  const int32_t z_before = d.z;
  fold_stored(out, d, box);
  if constexpr (kShear) {
    if (d.z != z_before) {
      // Storage rounding carried the particle across a z face: it takes the
      // image's offset and velocity too.
      double x = double(out.x);
      physics::srd_le_carry(x, v.x, d.z - z_before, box.lo().x, box.lengths().x, le);
      out = make4<S4>(Vec3d{x, double(out.y), double(out.z)}, double(r4.w));
      fold_stored(out, d, box);
      jumped = true;
    }
    if (jumped) p.vel[i] = make4<S4>(v, double(v4.w));
  }
  p.pos[i] = out;
  if (d.x | d.y | d.z) {
    Image img = p.image[i];
    img.x += d.x;
    img.y += d.y;
    img.z += d.z;
    p.image[i] = img;
  }
}

}  // namespace

template <class S4>
void mpcd_stream(MpcdView<S4> p, const Box& box, double dt, double mass, const physics::BodyForce& bf,
                 const physics::SlitWall& wall, const physics::LeesEdwards& le, cudaStream_t s) {
  if (p.n == 0) return;
  const uint32_t blocks = (p.n + 255) / 256;
  // Walls and shear exclude each other (MpcdParams::validate).
  if (le.active() && bf.active())
    mpcd_stream_kernel<S4, true, false, true><<<blocks, 256, 0, s>>>(p, box, dt, mass, bf, wall, le);
  else if (le.active())
    mpcd_stream_kernel<S4, false, false, true><<<blocks, 256, 0, s>>>(p, box, dt, mass, bf, wall, le);
  else if (wall.active() && bf.active())
    mpcd_stream_kernel<S4, true, true, false><<<blocks, 256, 0, s>>>(p, box, dt, mass, bf, wall, le);
  else if (wall.active())
    mpcd_stream_kernel<S4, false, true, false><<<blocks, 256, 0, s>>>(p, box, dt, mass, bf, wall, le);
  else if (bf.active())
    mpcd_stream_kernel<S4, true, false, false><<<blocks, 256, 0, s>>>(p, box, dt, mass, bf, wall, le);
  else
    mpcd_stream_kernel<S4, false, false, false><<<blocks, 256, 0, s>>>(p, box, dt, mass, bf, wall, le);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void mpcd_stream<Double4>(MpcdView<Double4>, const Box&, double, double, const physics::BodyForce&,
                                   const physics::SlitWall&, const physics::LeesEdwards&, cudaStream_t);
template void mpcd_stream<float4>(MpcdView<float4>, const Box&, double, double, const physics::BodyForce&,
                                  const physics::SlitWall&, const physics::LeesEdwards&, cudaStream_t);

}  // namespace meso::cuda
