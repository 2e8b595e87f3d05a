// The MPCD collision, in two kernels (HOOMD-blue's mpcd::CellThermoComputeGPU
// and SRDCollisionMethodGPU / ATCollisionMethodGPU; Howard et al., CPC 230,
// 10 (2018), sec. 3.2 and 3.3):
//
// 1. cell properties: kLanes (8) threads per cell stride over the cell's
//    members (lane s takes members s, s + 8, ...; the row is in tag order)
//    and sum the momentum in fp64 (and, for MPC-AT, the cell's Gaussian
//    draws); an XOR butterfly of warp shuffles (offsets 4, 2, 1) combines the
//    lanes in a fixed order, so every run sums alike and every lane holds
//    the same totals. The mass is m n (one solvent mass). With the cell
//    thermostat a second pass sums m |v - u|^2 / 2 about the cell velocity u,
//    as the reference does, rather than sum m v^2 / 2 - M u^2 / 2, which
//    cancels when the flow is fast against the thermal speed. Lane 0 then
//    draws the cell's rotation axis and thermostat factor (SRD) or forms
//    the mean draw (AT): props[2c] = {u, factor}, props[2c + 1] = {axis or
//    mean draw, n}.
// 2. collide: one thread per particle reads its cell from vel.w and applies
//    v = u + factor R(v - u) (SRD: Malevanets & Kapral 1999, rotation about
//    the cell's random axis, Rodrigues' formula) or
//    v = u + sqrt(kT/m) (xi - mean xi) (MPC-AT: Allahyarov & Gompper 2002)
//    in fp64, stored in the storage precision. A lone particle is its own
//    centre of mass and is left bitwise as it is, as in the reference.
//
// Every formula is meso/physics/srd.hpp. Reference: reference/src/mpcd_collide.cpp.
#include "meso/cuda/check.hpp"
#include "mpcd_kernels.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kLanes = 8;  // threads per cell: ~10 members at rho = 10

// The butterfly sum over the kLanes lanes of a cell (all 32 lanes of the
// warp take part: callers keep every thread alive up to here).
template <uint32_t NV>
__device__ __forceinline__ void lane_group_sum(double (&s)[NV]) {
#pragma unroll
  for (uint32_t off = kLanes / 2; off > 0; off >>= 1)
#pragma unroll
    for (uint32_t v = 0; v < NV; ++v) s[v] += __shfl_xor_sync(0xffffffffu, s[v], off);
}

template <class S4, bool kAt>
__global__ void __launch_bounds__(256)
    mpcd_cell_properties_kernel(MpcdView<S4> p, MpcdCellView c, MpcdCollideArgs a) {
  if (*c.overflow) return;  // the same word for every thread: the warp stays whole
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t cell = t / kLanes, lane = t % kLanes;
  const uint32_t n = cell < c.ncells ? c.count[cell] : 0u;
  const uint32_t* row = c.members + size_t(cell) * c.cap;

  // Momentum, then (AT) the sum of the draws, in that order.
  double s[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (uint32_t k = lane; k < n; k += kLanes) {
    const uint32_t i = row[k];
    const Vec3d v = xyz(ldg4(p.vel + i));
    s[0] += a.mass * v.x;
    s[1] += a.mass * v.y;
    s[2] += a.mass * v.z;
    if constexpr (kAt) {
      const Vec3d xi = physics::mpcd_at_gaussian3(__ldg(p.tag + i), a.step, a.seed);
      s[3] += xi.x;
      s[4] += xi.y;
      s[5] += xi.z;
    }
  }
  lane_group_sum(s);
  const double mass = a.mass * double(n);
  const Vec3d u = n > 0 ? (1.0 / mass) * Vec3d{s[0], s[1], s[2]} : Vec3d{0.0, 0.0, 0.0};

  double ke_rel = 0.0;
  if (!kAt && a.thermostat) {  // the same for every thread of the launch
    double e[1] = {0.0};
    for (uint32_t k = lane; k < n; k += kLanes) {
      const Vec3d d = xyz(ldg4(p.vel + row[k])) - u;
      e[0] += dot(d, d);
    }
    lane_group_sum(e);
    ke_rel = 0.5 * a.mass * e[0];
  }
  if (lane != 0 || n == 0) return;

  Double4 pa, pb;
  if constexpr (kAt) {
    const Vec3d mean = (1.0 / double(n)) * Vec3d{s[3], s[4], s[5]};
    pa = {u.x, u.y, u.z, a.at_scale};
    pb = {mean.x, mean.y, mean.z, double(n)};
  } else {
    const Vec3d axis = physics::srd_rotation_axis(cell, a.step, a.seed);
    const double f =
        a.thermostat ? physics::srd_thermostat_factor(n, ke_rel, a.kT, cell, a.step, a.seed) : 1.0;
    pa = {u.x, u.y, u.z, f};
    pb = {axis.x, axis.y, axis.z, double(n)};
  }
  c.props[2 * size_t(cell)] = pa;
  c.props[2 * size_t(cell) + 1] = pb;
}

template <class S4, bool kAt>
__global__ void mpcd_collide_kernel(MpcdView<S4> p, MpcdCellView c, MpcdCollideArgs a) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || *c.overflow) return;
  const S4 v4 = p.vel[i];
  const uint32_t cell = static_cast<uint32_t>(v4.w);
  const Double4 pb = ldg4(c.props + 2 * size_t(cell) + 1);
  if (pb.w < 2.0) return;  // a lone particle keeps its velocity bitwise
  const Double4 pa = ldg4(c.props + 2 * size_t(cell));
  const Vec3d u{pa.x, pa.y, pa.z}, w{pb.x, pb.y, pb.z};
  Vec3d v;
  if constexpr (kAt) {
    const Vec3d xi = physics::mpcd_at_gaussian3(p.tag[i], a.step, a.seed);
    v = u + pa.w * (xi - w);
  } else {
    v = u + pa.w * physics::srd_rotate(xyz(v4) - u, w, a.cos_a, a.sin_a);
  }
  p.vel[i] = make4<S4>(v, double(v4.w));
}

}  // namespace

template <class S4>
void mpcd_cell_properties(MpcdView<S4> p, const MpcdCellView& c, const MpcdCollideArgs& a,
                          cudaStream_t s) {
  const uint64_t threads = uint64_t(c.ncells) * kLanes;
  const uint32_t blocks = static_cast<uint32_t>((threads + 255) / 256);
  if (a.at)
    mpcd_cell_properties_kernel<S4, true><<<blocks, 256, 0, s>>>(p, c, a);
  else
    mpcd_cell_properties_kernel<S4, false><<<blocks, 256, 0, s>>>(p, c, a);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void mpcd_collide_velocities(MpcdView<S4> p, const MpcdCellView& c, const MpcdCollideArgs& a,
                             cudaStream_t s) {
  if (p.n == 0) return;
  const uint32_t blocks = (p.n + 255) / 256;
  if (a.at)
    mpcd_collide_kernel<S4, true><<<blocks, 256, 0, s>>>(p, c, a);
  else
    mpcd_collide_kernel<S4, false><<<blocks, 256, 0, s>>>(p, c, a);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                  \
  template void mpcd_cell_properties<S4>(MpcdView<S4>, const MpcdCellView&,                   \
                                         const MpcdCollideArgs&, cudaStream_t);               \
  template void mpcd_collide_velocities<S4>(MpcdView<S4>, const MpcdCellView&,                \
                                            const MpcdCollideArgs&, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
