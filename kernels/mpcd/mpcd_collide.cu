// The MPCD collision in one kernel (HOOMD-blue's mpcd::CellThermoComputeGPU
// followed by SRDCollisionMethodGPU / ATCollisionMethodGPU; Howard et al.,
// CPC 230, 10 (2018), sec. 3.2 and 3.3), fused: kLanes (8) threads per cell
// stride over the cell's members (lane s takes members s, s + 8, ...; the
// members are in the arbitrary order of the cell list's atomics) and
//
// 1. sum the cell: a butterfly of warp shuffles (offsets 4, 2, 1) first
//    finds the largest velocity component vmax of the cell (and, with
//    embedded MD members, the largest m |v_alpha| and m), which sets the
//    scale of fixed-point sums (meso/physics/fixed_point_sum.hpp); each lane
//    adds its members' fp64 terms as 64-bit integers and a second butterfly
//    adds the lanes'. Integer sums are exact, so the result does not depend
//    on the members' order or on which lane took which: it is bitwise the
//    reference's, run after run, sorted solvent or not. Summed: momentum,
//    (AT) the random momenta sqrt(kT m_j) xi_j, (embedded) the mass, and,
//    with the cell thermostat, in a second pass sum m |v - u|^2 / 2 about
//    the cell velocity u, as the reference does (not sum m v^2 / 2 -
//    M u^2 / 2, which cancels when the flow is fast against the thermal
//    speed);
// 2. every lane of the group forms the cell's rotation axis and thermostat
//    factor (SRD: the same instructions on 8 lanes cost what one lane would)
//    and updates its own members: v = u + factor R(v - u) (SRD: Malevanets &
//    Kapral 1999, Rodrigues' formula) or v = u + sqrt(kT/m_j) xi_j - mean
//    random velocity (MPC-AT: Allahyarov & Gompper 2002), in fp64, stored
//    in the storage precision. A lone member is its own centre of mass and
//    is left bitwise as it is, as in the reference.
//
// Fusing the two saves writing and reading back per-cell properties and a
// full pass over the velocities (the second kernel re-read every velocity
// and its cell); each member belongs to one cell, so the lanes that sum a
// cell own its members' updates and nothing races.
//
// Every formula is meso/physics/srd.hpp (slit walls: srd_slit.hpp; Lees-
// Edwards shear: srd_lees_edwards.hpp, the members of the first and last
// layers in their images' frames). Reference:
// reference/src/mpcd/mpcd_collide.cpp.
#include "meso/cuda/check.hpp"
#include "mpcd/mpcd_kernels.cuh"
#include "mpcd/mpcd_lane_group.cuh"

namespace meso::cuda {
namespace {

// Member j of a cell: solvent particle j (j < p.n) or embedded MD particle
// j - p.n, with its velocity, mass and AT draw. kEmbed = false (no MD
// particles join) compiles to the solvent alone.
template <class S4, bool kEmbed, bool kShear>
struct Member {
  const MpcdView<S4>& p;
  const MpcdEmbedView<S4>& md;
  const MpcdCollideArgs& a;
  __device__ bool embedded(uint32_t j) const { return kEmbed && j >= p.n; }
  // Lees-Edwards (kShear): the image (+1, -1, 0) solvent member j joined its
  // cell as, found again from its position as the cell list found it; only
  // the first and last layers (`edge`) hold images.
  __device__ int image(uint32_t j) const {
    if constexpr (kShear) {
      return edge ? physics::srd_le_image(a.grid, xyz(ldg4(p.pos + j)), shift) : 0;
    } else {
      return 0;
    }
  }
  __device__ Vec3d velocity(uint32_t j) const {
    if constexpr (kShear) return physics::srd_le_image_velocity(xyz(ldg4(p.vel + j)), image(j), jump);
    return embedded(j) ? xyz(ldg4(md.vel + (j - p.n))) : xyz(ldg4(p.vel + j));
  }
  __device__ double mass(uint32_t j) const {
    return embedded(j) ? __ldg(md.type_mass + type_of(ldg4(md.pos + (j - p.n)))) : a.mass;
  }
  uint64_t step;  // the collision's, from the step word
  bool edge = false;  // kShear: the cell is in the grid's first or last layer
  Vec3d shift{0.0, 0.0, 0.0};  // kShear: the collision's grid shift
  double jump = 0.0;  // kShear: the upper image's velocity gdot L_z
  // The update pass reads with plain loads (not the read-only path of the
  // sums): it writes these addresses.
  __device__ S4* at(uint32_t j) const { return embedded(j) ? md.vel + (j - p.n) : p.vel + j; }
  __device__ Vec3d at_draw(uint32_t j) const {
    return embedded(j) ? physics::mpcd_at_gaussian3(__ldg(md.tag + (j - p.n)), step, a.seed, true)
                       : physics::mpcd_at_gaussian3(__ldg(p.tag + j), step, a.seed);
  }
};

template <class S4, bool kAt, bool kEmbed, bool kShear>
__global__ void __launch_bounds__(256)
    mpcd_collide_kernel(MpcdView<S4> p, MpcdEmbedView<S4> md, MpcdCellView c, MpcdCollideArgs a) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t cell = t / kLanes, lane = t % kLanes;
  // Several ranks: the shared cells are mpcd_collide_shared's (their
  // properties need the other ranks' members), and the draws are keyed by
  // the global cell.
  const bool in = cell < c.ncells && !(a.ranged && a.range.shared(cell));
  const uint32_t key = a.ranged && in ? a.range.global_of(cell) : cell;
  const uint32_t n = in ? c.count[cell] : 0u;
  const uint32_t* row = c.members + (in ? c.start[cell] : 0u);
  Member<S4, kEmbed, kShear> mem{p, md, a, a.w->step};
  if constexpr (kShear) {
    const uint32_t layer = cell / (uint32_t(a.grid.nx) * uint32_t(a.grid.ny));
    mem.edge = layer == 0u || layer + 1u == uint32_t(a.grid.nz);
    mem.shift = Vec3d{a.w->shift[0], a.w->shift[1], a.w->shift[2]};
    mem.jump = a.sheared.at(mem.step).jump;
  }

  // The scales: the largest |v_alpha|, |m v_alpha| and m of the cell.
  double vmax = 0.0, pmax = 0.0, mmax = a.mass;
  if constexpr (kEmbed) mmax = 0.0;
  for (uint32_t k = lane; k < n; k += kLanes) {
    const uint32_t j = row[k];
    const double vj = physics::mpcd_max_abs_component(mem.velocity(j));
    vmax = physics::nan_max(vmax, vj);
    if constexpr (kEmbed) {
      const double mj = mem.mass(j);
      pmax = physics::nan_max(pmax, mj * vj);
      mmax = fmax(mmax, mj);
    }
  }
  vmax = lane_group_max(vmax);
  if constexpr (kEmbed) {
    pmax = lane_group_max(pmax);
    mmax = lane_group_max(mmax);
  } else {
    pmax = physics::mpcd_momentum_bound(a.mass, vmax);
  }
  const int ps = physics::fixed_point_shift(pmax, n);
  const int ms = physics::fixed_point_shift(mmax, n);
  const double xb = physics::mpcd_at_momentum_bound(a.kT, mmax);
  const int xs = physics::fixed_point_shift(xb, n);

  // Momentum, then (AT) the random momenta, then (embedded) the mass.
  long long q[7] = {0, 0, 0, 0, 0, 0, 0};
  for (uint32_t k = lane; k < n; k += kLanes) {
    const uint32_t j = row[k];
    const Vec3d v = mem.velocity(j);
    const double mj = mem.mass(j);
    q[0] += physics::to_fixed_point(mj * v.x, ps);
    q[1] += physics::to_fixed_point(mj * v.y, ps);
    q[2] += physics::to_fixed_point(mj * v.z, ps);
    if constexpr (kAt) {
      const Vec3d w = physics::mpcd_at_random_momentum(a.kT, mj, mem.at_draw(j));
      q[3] += physics::to_fixed_point(w.x, xs);
      q[4] += physics::to_fixed_point(w.y, xs);
      q[5] += physics::to_fixed_point(w.z, xs);
    }
    if constexpr (kEmbed) q[6] += physics::to_fixed_point(mj, ms);
  }
  lane_group_sum(q);
  // Without embedded particles the mass is m n: what the fixed-point sum of
  // n equal masses gives (exactly, for n <= 512; see the reference).
  const double mass = kEmbed ? physics::from_fixed_point(q[6], ms) : a.mass * double(n);
  const Vec3d mom{physics::mpcd_cell_sum(q[0], ps, pmax), physics::mpcd_cell_sum(q[1], ps, pmax),
                  physics::mpcd_cell_sum(q[2], ps, pmax)};
  // Slit walls: a cell they cut takes Lamura et al.'s virtual particles into
  // its centre of mass and skips the cell thermostat, as in the reference
  // (key: the global cell; on ranks the shared cells' are mpcd_collide_shared's).
  bool cut = false;
  physics::SlitFill fill;
  if (a.wall.active() && n > 0) {
    const double shift_z = a.w->shift[2];
    cut = physics::slit_cut(a.wall, physics::slit_cell_lower_z(a.grid, key, shift_z), a.grid.a) != 0;
    if (cut) fill = physics::slit_fill(a.wall, a.grid, key, shift_z, n, a.mass, a.kT, mem.step, a.seed);
  }
  const Vec3d u = n == 0 ? Vec3d{0.0, 0.0, 0.0}
                  : cut  ? physics::slit_cell_velocity(mom, mass, fill)
                         : (1.0 / mass) * mom;

  double ke_rel = 0.0;
  if (!kAt && a.thermostat) {  // the same for every thread of the launch
    const double eb = physics::mpcd_ke_rel_bound(mmax, vmax);
    const int es = physics::fixed_point_shift(eb, n);
    long long e[1] = {0};
    for (uint32_t k = lane; k < n; k += kLanes) {
      const uint32_t j = row[k];
      e[0] += physics::to_fixed_point(physics::mpcd_ke_rel_term(mem.mass(j), mem.velocity(j), u), es);
    }
    lane_group_sum(e);
    ke_rel = physics::mpcd_cell_sum(e[0], es, eb);
  }
  // Empty, or a lone member (without virtual partners) that keeps its
  // velocity bitwise.
  if (n == 0 || n + fill.count < 2) return;

  if constexpr (kAt) {
    const Vec3d mean = (1.0 / mass) * Vec3d{physics::from_fixed_point(q[3], xs),
                                            physics::from_fixed_point(q[4], xs),
                                            physics::from_fixed_point(q[5], xs)};
    for (uint32_t k = lane; k < n; k += kLanes) {
      const uint32_t j = row[k];
      S4* q = mem.at(j);
      const Vec3d v = physics::mpcd_at_velocity(u, a.kT, mem.mass(j), mem.at_draw(j), mean);
      *q = make4<S4>(v, double(q->w));
    }
  } else {
    const Vec3d axis = physics::srd_rotation_axis(key, mem.step, a.seed);
    const double f = a.thermostat && !cut
                         ? physics::srd_thermostat_factor(n, ke_rel, a.kT, key, mem.step, a.seed)
                         : 1.0;
    for (uint32_t k = lane; k < n; k += kLanes) {
      S4* q = mem.at(row[k]);
      const S4 v4 = *q;
      if constexpr (kShear) {
        // In the image's frame, stored in the particle's own.
        const int img = mem.image(row[k]);
        const Vec3d v = physics::srd_le_image_velocity(xyz(v4), img, mem.jump);
        const Vec3d w = u + f * physics::srd_rotate(v - u, axis, a.cos_a, a.sin_a);
        *q = make4<S4>(physics::srd_le_own_velocity(w, img, mem.jump), double(v4.w));
      } else {
        *q = make4<S4>(u + f * physics::srd_rotate(xyz(v4) - u, axis, a.cos_a, a.sin_a), double(v4.w));
      }
    }
  }
}

}  // namespace

template <class S4>
void mpcd_collide(MpcdView<S4> p, const MpcdEmbedView<S4>& md, const MpcdCellView& c,
                  const MpcdCollideArgs& a, cudaStream_t s) {
  const uint64_t threads = uint64_t(c.ncells) * kLanes;
  const uint32_t blocks = static_cast<uint32_t>((threads + 255) / 256);
  const bool embed = md.n > 0;
  // Shear: the srd rule without embedded members (MpcdParams::validate).
  if (a.sheared.active())
    mpcd_collide_kernel<S4, false, false, true><<<blocks, 256, 0, s>>>(p, md, c, a);
  else if (a.at && embed)
    mpcd_collide_kernel<S4, true, true, false><<<blocks, 256, 0, s>>>(p, md, c, a);
  else if (a.at)
    mpcd_collide_kernel<S4, true, false, false><<<blocks, 256, 0, s>>>(p, md, c, a);
  else if (embed)
    mpcd_collide_kernel<S4, false, true, false><<<blocks, 256, 0, s>>>(p, md, c, a);
  else
    mpcd_collide_kernel<S4, false, false, false><<<blocks, 256, 0, s>>>(p, md, c, a);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                  \
  template void mpcd_collide<S4>(MpcdView<S4>, const MpcdEmbedView<S4>&, const MpcdCellView&, \
                                 const MpcdCollideArgs&, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
