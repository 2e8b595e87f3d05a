// The shared cells of the MPCD collision on several ranks (the CPU
// reference's mpcd_collide_decomposed, reference/src/mpcd/mpcd_collide.cpp, in
// the same phases; Howard et al., CPC 230, 10 (2018), sec. 4): a cell on the
// first or the last layer of a split axis has members on two or more ranks,
// so its properties are the combination over ranks of what each rank sums
// over its own members. Each phase is one kernel over the listed shared
// cells (kLanes lanes a cell, as mpcd_collide.cu), writing per cell what the
// host then combines over the ranks (Communicator::combine_layers) and copies
// back in place:
//
//   extents   count, the largest |v_alpha| and m |v_alpha|: the scales of
//             the fixed-point sums, which every rank must share;
//   momentum  the fixed-point momentum sums at the combined scale;
//   energy    the relative kinetic energy about the combined u (cell
//             thermostat) and the AT rule's draws, as fixed-point sums.
//
// Integer sums combine exactly, so mpcd_collide_shared, which updates the
// members with the combined values, gives every member bitwise the velocity
// of the one-rank collision. Every formula is meso/physics/srd.hpp.
#include "meso/cuda/check.hpp"
#include "mpcd/mpcd_kernels.cuh"
#include "mpcd/mpcd_lane_group.cuh"

namespace meso::cuda {
namespace {

// A listed cell's combined count, mass, momentum and centre-of-mass
// velocity; the mass is m n, as the one-rank kernel forms it (what the
// fixed-point sum of n equal masses gives).
struct Combined {
  uint32_t n = 0;
  double vmax = 0.0, pmax = 0.0, mass = 0.0;
  Vec3d momentum{0.0, 0.0, 0.0}, u{0.0, 0.0, 0.0};
};
__device__ Combined combined(const MpcdLayerArgs& l, uint32_t k, double m, bool with_u) {
  Combined c;
  c.n = uint32_t(l.v1[3 * k]);
  c.vmax = l.v1[3 * k + 1];
  c.pmax = l.v1[3 * k + 2];
  c.mass = m * double(c.n);
  if (with_u && c.n > 0) {
    const int ps = physics::fixed_point_shift(c.pmax, c.n);
    c.momentum = {physics::mpcd_cell_sum(l.q2[3 * k], ps, c.pmax), physics::mpcd_cell_sum(l.q2[3 * k + 1], ps, c.pmax),
                  physics::mpcd_cell_sum(l.q2[3 * k + 2], ps, c.pmax)};
    c.u = (1.0 / c.mass) * c.momentum;
  }
  return c;
}

template <class S4, MpcdLayerPhase kPhase>
__global__ void __launch_bounds__(256)
    mpcd_layer_kernel(MpcdView<S4> p, MpcdCellView c, MpcdLayerArgs l, MpcdCollideArgs a) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t k = t / kLanes, lane = t % kLanes;
  const bool in = k < l.n;
  const uint32_t cell = in ? l.list[k] : 0u;
  const uint32_t mine = in ? c.count[cell] : 0u;  // this rank's members of the cell
  const uint32_t* row = c.members + (in ? c.start[cell] : 0u);
  const double m = a.mass;

  if constexpr (kPhase == MpcdLayerPhase::extents) {
    double vmax = 0.0, pmax = 0.0;
    for (uint32_t s = lane; s < mine; s += kLanes) {
      const double vj = physics::mpcd_max_abs_component(xyz(ldg4(p.vel + row[s])));
      vmax = physics::nan_max(vmax, vj);
      pmax = physics::nan_max(pmax, m * vj);
    }
    vmax = lane_group_max(vmax);
    pmax = lane_group_max(pmax);
    if (in && lane == 0) {
      l.v1[3 * k] = double(mine);
      l.v1[3 * k + 1] = vmax;
      l.v1[3 * k + 2] = pmax;
    }
  } else if constexpr (kPhase == MpcdLayerPhase::momentum) {
    const Combined cc = in ? combined(l, k, m, false) : Combined{};
    long long q[3] = {0, 0, 0};
    if (cc.n > 0) {
      const int ps = physics::fixed_point_shift(cc.pmax, cc.n);
      for (uint32_t s = lane; s < mine; s += kLanes) {
        const Vec3d v = xyz(ldg4(p.vel + row[s]));
        q[0] += physics::to_fixed_point(m * v.x, ps);
        q[1] += physics::to_fixed_point(m * v.y, ps);
        q[2] += physics::to_fixed_point(m * v.z, ps);
      }
    }
    lane_group_sum(q);
    if (in && lane == 0)
      for (int d = 0; d < 3; ++d) l.q2[3 * k + d] = q[d];
  } else {
    const Combined cc = in ? combined(l, k, m, true) : Combined{};
    long long q[4] = {0, 0, 0, 0};
    if (cc.n > 0) {
      const int es = physics::fixed_point_shift(physics::mpcd_ke_rel_bound(m, cc.vmax), cc.n);
      const int xs = physics::fixed_point_shift(physics::mpcd_at_momentum_bound(a.kT, m), cc.n);
      const uint64_t step = a.w->step;
      for (uint32_t s = lane; s < mine; s += kLanes) {
        const uint32_t j = row[s];
        q[0] += physics::to_fixed_point(physics::mpcd_ke_rel_term(m, xyz(ldg4(p.vel + j)), cc.u), es);
        if (a.at) {
          const Vec3d w =
              physics::mpcd_at_random_momentum(a.kT, m, physics::mpcd_at_gaussian3(__ldg(p.tag + j), step, a.seed));
          q[1] += physics::to_fixed_point(w.x, xs);
          q[2] += physics::to_fixed_point(w.y, xs);
          q[3] += physics::to_fixed_point(w.z, xs);
        }
      }
    }
    lane_group_sum(q);
    if (in && lane == 0)
      for (int d = 0; d < 4; ++d) l.q3[4 * k + d] = q[d];
  }
}

// The members' new velocities from the combined properties: the one-rank
// kernel's update (mpcd_collide.cu), keyed by the global cell. A cell of
// fewer than two members over all ranks (with its virtual particles, where a
// slit wall cuts it) is left as it is.
template <class S4>
__global__ void __launch_bounds__(256)
    mpcd_collide_shared_kernel(MpcdView<S4> p, MpcdCellView c, MpcdLayerArgs l, MpcdCollideArgs a) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t k = t / kLanes, lane = t % kLanes;
  if (k >= l.n) return;
  const uint32_t cell = l.list[k];
  const uint32_t mine = c.count[cell];
  const Combined cc = combined(l, k, a.mass, true);
  if (cc.n == 0 || mine == 0) return;
  const uint32_t* row = c.members + c.start[cell];
  const uint64_t step = a.w->step;
  if (a.at) {  // never with slit walls (MpcdParams::validate)
    if (cc.n < 2) return;
    const int xs = physics::fixed_point_shift(physics::mpcd_at_momentum_bound(a.kT, a.mass), cc.n);
    const Vec3d mean = (1.0 / cc.mass) * Vec3d{physics::from_fixed_point(l.q3[4 * k + 1], xs),
                                               physics::from_fixed_point(l.q3[4 * k + 2], xs),
                                               physics::from_fixed_point(l.q3[4 * k + 3], xs)};
    for (uint32_t s = lane; s < mine; s += kLanes) {
      const uint32_t j = row[s];
      S4* q = p.vel + j;
      const Vec3d v = physics::mpcd_at_velocity(cc.u, a.kT, a.mass,
                                                physics::mpcd_at_gaussian3(__ldg(p.tag + j), step, a.seed), mean);
      *q = make4<S4>(v, double(q->w));
    }
    return;
  }
  const uint32_t key = a.range.global_of(cell);
  // Slit walls: a cut cell's virtual particles, drawn from the global cell
  // and the count over all ranks as the one-rank kernel draws them; they join
  // the centre of mass, and the thermostat leaves the cell alone.
  physics::SlitFill fill;
  const double shift_z = a.w->shift[2];
  const bool cut =
      a.wall.active() && physics::slit_cut(a.wall, physics::slit_cell_lower_z(a.grid, key, shift_z), a.grid.a) != 0;
  if (cut) fill = physics::slit_fill(a.wall, a.grid, key, shift_z, cc.n, a.mass, a.kT, step, a.seed);
  if (cc.n + fill.count < 2) return;
  const Vec3d u = cut ? physics::slit_cell_velocity(cc.momentum, cc.mass, fill) : cc.u;
  double f = 1.0;
  if (a.thermostat && !cut) {
    const double eb = physics::mpcd_ke_rel_bound(a.mass, cc.vmax);
    const double ke_rel = physics::mpcd_cell_sum(l.q3[4 * k], physics::fixed_point_shift(eb, cc.n), eb);
    f = physics::srd_thermostat_factor(cc.n, ke_rel, a.kT, key, step, a.seed);
  }
  const Vec3d axis = physics::srd_rotation_axis(key, step, a.seed);
  for (uint32_t s = lane; s < mine; s += kLanes) {
    S4* q = p.vel + row[s];
    const S4 v4 = *q;
    *q = make4<S4>(u + f * physics::srd_rotate(xyz(v4) - u, axis, a.cos_a, a.sin_a), double(v4.w));
  }
}

uint32_t blocks_for(uint32_t cells) { return static_cast<uint32_t>((uint64_t(cells) * kLanes + 255) / 256); }

}  // namespace

template <class S4>
void mpcd_layer_sums(MpcdLayerPhase phase, MpcdView<S4> p, const MpcdCellView& c, const MpcdLayerArgs& l,
                     const MpcdCollideArgs& a, cudaStream_t s) {
  if (l.n == 0) return;
  const uint32_t b = blocks_for(l.n);
  switch (phase) {
    case MpcdLayerPhase::extents:
      mpcd_layer_kernel<S4, MpcdLayerPhase::extents><<<b, 256, 0, s>>>(p, c, l, a);
      break;
    case MpcdLayerPhase::momentum:
      mpcd_layer_kernel<S4, MpcdLayerPhase::momentum><<<b, 256, 0, s>>>(p, c, l, a);
      break;
    case MpcdLayerPhase::energy:
      mpcd_layer_kernel<S4, MpcdLayerPhase::energy><<<b, 256, 0, s>>>(p, c, l, a);
      break;
  }
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void mpcd_collide_shared(MpcdView<S4> p, const MpcdCellView& c, const MpcdLayerArgs& l, const MpcdCollideArgs& a,
                         cudaStream_t s) {
  if (l.n == 0) return;
  mpcd_collide_shared_kernel<S4><<<blocks_for(l.n), 256, 0, s>>>(p, c, l, a);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                                   \
  template void mpcd_layer_sums<S4>(MpcdLayerPhase, MpcdView<S4>, const MpcdCellView&, const MpcdLayerArgs&, \
                                    const MpcdCollideArgs&, cudaStream_t);                                     \
  template void mpcd_collide_shared<S4>(MpcdView<S4>, const MpcdCellView&, const MpcdLayerArgs&,              \
                                        const MpcdCollideArgs&, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
