// The enqueue functions of the MPCD solvent's kernels (one file each, beside
// the CPU reference by stem): streaming (mpcd_stream.cu), the cell list
// (mpcd_cell_list.cu), cell properties and the collision (mpcd_collide.cu),
// the cell-order sort (mpcd_sort.cu). None waits for the stream.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "meso/core/box.hpp"
#include "meso/physics/body_force.hpp"
#include "meso/physics/srd.hpp"
#include "meso/physics/srd_lees_edwards.hpp"
#include "meso/physics/srd_slit.hpp"
#include "mpcd/mpcd_context.cuh"

namespace meso::cuda {

// r += dt v + dt^2 g / 2, v += dt g (g: the body force's acceleration, on
// particles of mass m, at the position before the move; none when
// inactive), wrapped into the box with image counts. With slit walls
// (wall.active()): bounce-back at the walls (physics::slit_stream). With
// Lees-Edwards shear (le.active(), the images at the period's end): across
// the sheared z faces (physics::le_wrap).
template <class S4>
void mpcd_stream(MpcdView<S4> p, const Box& box, double dt, double mass, const physics::BodyForce& bf,
                 const physics::SlitWall& wall, const physics::LeesEdwards& le, cudaStream_t s);

// The next collision: w->step += 1 and its grid shift (zero without
// grid_shift), on the device.
void mpcd_advance_step(MpcdStepWord* w, uint32_t seed, double cell_size, bool grid_shift,
                       cudaStream_t s);

// The cells of the shifted grid that one rank's domain touches (several
// ranks; meso::CellRange, from mpcd_touched_cells, on the device): along
// each axis count[a] cells from first[a], wrapping at n[a]; local index
// (k * count[1] + j) * count[0] + i. Along a split axis (bit a of split)
// the first and the last layer are shared with the neighbours.
struct MpcdRangeView {
  int n[3], first[3], count[3];
  uint32_t split;
  uint32_t ncells;

  // The local index of global cell c, or kMpcdNoCell outside the range.
  __host__ __device__ uint32_t local_of(uint32_t c) const {
    const int g[3] = {int(c % uint32_t(n[0])), int((c / uint32_t(n[0])) % uint32_t(n[1])),
                      int(c / (uint32_t(n[0]) * uint32_t(n[1])))};
    int l[3];
    for (int a = 0; a < 3; ++a) {
      l[a] = g[a] - first[a];
      if (l[a] < 0) l[a] += n[a];
      if (l[a] >= count[a]) return kMpcdNoCell;
    }
    return uint32_t((l[2] * count[1] + l[1]) * count[0] + l[0]);
  }
  // The global cell index (grid order) of local cell l: keys the rotation
  // axis and the thermostat, as on one rank.
  __host__ __device__ uint32_t global_of(uint32_t l) const {
    const int i = int(l % uint32_t(count[0])), j = int((l / uint32_t(count[0])) % uint32_t(count[1])),
              k = int(l / (uint32_t(count[0]) * uint32_t(count[1])));
    const int x = (first[0] + i) % n[0], y = (first[1] + j) % n[1], z = (first[2] + k) % n[2];
    return uint32_t((z * n[1] + y) * n[0] + x);
  }
  // On the first or the last layer of a split axis.
  __host__ __device__ bool shared(uint32_t l) const {
    const int c[3] = {int(l % uint32_t(count[0])), int((l / uint32_t(count[0])) % uint32_t(count[1])),
                      int(l / (uint32_t(count[0]) * uint32_t(count[1])))};
    for (int a = 0; a < 3; ++a)
      if (((split >> a) & 1u) && (c[a] == 0 || c[a] == count[a] - 1)) return true;
    return false;
  }
};

// Lees-Edwards shear of the solvent (one rank): the images of the collision
// numbered `step` are at time step dt_c, found on the device from the step
// word, so that a captured collision graph holds no time.
struct MpcdShearView {
  physics::SrdShear shear{};
  Vec3d L{0.0, 0.0, 0.0};  // the box's lengths
  double dt = 0.0;         // the collision period

  __host__ __device__ bool active() const { return shear.active(); }
  __host__ __device__ physics::LeesEdwards at(uint64_t step) const { return shear.at(L, double(step) * dt); }
};

// Cell of every particle on the grid shifted by w->shift (cached in vel.w),
// then the CSR cell list: counts, their exclusive scan, members (in no fixed
// order within a cell). Cannot overflow. Sheared (`sh` active, solvent
// only): a particle beyond the shifted grid's first or last layer joins the
// cell of its sheared image (physics::srd_le_cell_of).
template <class S4>
void mpcd_build_cells(MpcdView<S4> p, const MpcdEmbedView<S4>& md, const physics::MpcdGrid& grid,
                      const MpcdStepWord* w, const MpcdCellView& c, cudaStream_t s,
                      const MpcdShearView& sh = {});

// The same over the cells of `r` (several ranks; c.ncells = r.ncells): a
// particle outside them adds one to *outside (it crossed more than one
// domain in a collision period) and joins no cell. Solvent only.
template <class S4>
void mpcd_build_range_cells(MpcdView<S4> p, const physics::MpcdGrid& grid, const MpcdStepWord* w,
                            const MpcdRangeView& r, const MpcdCellView& c, uint32_t* outside, cudaStream_t s);

struct MpcdCollideArgs {
  const MpcdStepWord* w;  // the collision number: keys axes, thermostat and AT draws
  uint32_t seed;
  double mass, kT;
  double cos_a, sin_a;  // SRD rotation angle
  bool thermostat;      // SRD: Maxwell-Boltzmann cell thermostat
  bool at;              // the MPC-AT rule instead of SRD
  // Several ranks: the cell list is over `range`, whose shared cells are
  // skipped here (mpcd_collide_shared takes them) and whose local indices
  // map to the global cells that key the draws.
  bool ranged = false;
  MpcdRangeView range{};
  // Slit walls: the cells they cut get virtual particles (physics::slit_fill)
  // and no cell thermostat; the (global) grid places the cells.
  physics::SlitWall wall{};
  physics::MpcdGrid grid{};
  // Lees-Edwards shear (one rank, srd, no embedded members): the members of
  // the first and last layers collide with their images' velocities.
  MpcdShearView sheared{};
};

// The collision of every cell (one fused kernel): momentum and mass as
// order-independent fixed-point sums over its members (and the kinetic
// energy about u_cm with the thermostat, the random momenta for AT), then
// per member (solvent and embedded MD) v = u_cm + factor R(v - u_cm) (SRD)
// or u_cm + sqrt(kT/m_j) xi_j - mean random velocity (AT), in fp64, stored
// in S4.
template <class S4>
void mpcd_collide(MpcdView<S4> p, const MpcdEmbedView<S4>& md, const MpcdCellView& c,
                  const MpcdCollideArgs& a, cudaStream_t s);

// The shared cells of a decomposed collision (several ranks; the CPU
// reference's mpcd_collide_decomposed, in the same phases): list[0, n) are
// their local indices in the range. Between the phases the host combines
// each phase's per-cell values over the ranks (Communicator::
// combine_layers) and copies them back, in the same compact layout:
//   phase 1 -> v1[3k] = {count, max |v_alpha|, max m |v_alpha|}  (doubles)
//   phase 2 -> q2[3k] = fixed-point momentum sums at the scale of the
//              combined v1                                     (int64)
//   phase 3 -> q3[4k] = {relative kinetic energy about the combined u,
//              AT draws x, y, z}                               (int64)
// and mpcd_collide_shared updates the members with the combined values:
// the cell's collision is bitwise the one-rank collision's.
struct MpcdLayerArgs {
  const uint32_t* list;
  uint32_t n;
  double* v1;
  long long* q2;
  long long* q3;
};
enum class MpcdLayerPhase { extents, momentum, energy };
template <class S4>
void mpcd_layer_sums(MpcdLayerPhase phase, MpcdView<S4> p, const MpcdCellView& c, const MpcdLayerArgs& l,
                     const MpcdCollideArgs& a, cudaStream_t s);
template <class S4>
void mpcd_collide_shared(MpcdView<S4> p, const MpcdCellView& c, const MpcdLayerArgs& l, const MpcdCollideArgs& a,
                         cudaStream_t s);

// Solvent migration (several ranks; mpcd_domain.cu): records of
// MpcdDomainOp::kRecord doubles (r, v, image, type, tag), exact for every
// storage precision.
template <class S4>
void mpcd_pack_migrants(MpcdView<S4> p, const uint32_t* list, uint32_t m, double* out, cudaStream_t s);
// Particle from[k] into slot to[k], k < *h (closing the leavers' holes; *h
// may be a count the host never read, bound >= *h sizes the launch).
template <class S4>
void mpcd_move_slots(MpcdView<S4> p, const uint32_t* from, const uint32_t* to, const uint32_t* h, uint32_t bound,
                     cudaStream_t s);
// Records in[0, m) into slots [at, at + m).
template <class S4>
void mpcd_unpack_migrants(MpcdView<S4> p, const double* in, uint32_t m, uint32_t at, cudaStream_t s);

// The solvent in cell order (unshifted grid) through the shared radix sort
// and gather (sort_permute.cuh); `scratch` holds mpcd_sort_bytes<S4>(n).
template <class S4>
std::size_t mpcd_sort_bytes(uint32_t n);
template <class S4>
void mpcd_sort(MpcdView<S4> p, const physics::MpcdGrid& grid, unsigned char* scratch,
               cudaStream_t s);

}  // namespace meso::cuda
