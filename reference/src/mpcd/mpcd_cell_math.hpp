// Internal to the reference MPCD collision (mpcd_collide.cpp and
// mpcd_collide_decomposed.cpp): the members of a cell list, one cell's
// properties from its members, the AT rule's draw sums and mean, and the
// collision of one cell.
#pragma once

#include <algorithm>
#include <cstdint>

#include "meso/core/mpcd.hpp"
#include "meso/physics/srd.hpp"
#include "meso/physics/srd_lees_edwards.hpp"
#include "meso/physics/srd_slit.hpp"
#include "meso/reference/cpu_context.hpp"
#include "meso/reference/mpcd_collide.hpp"

namespace meso::reference::mpcd_detail {

// Member j of a cell list built over the solvent and the embedded MD
// particles: j < n is solvent particle j, j >= n is MD particle j - n. With
// Lees-Edwards shear a solvent particle's velocity is that of the image it
// joined its cell as (image[j], MpcdCellList::image_of_particle).
template <class Real>
struct Members {
  const CpuMpcd<Real>& s;
  const MpcdEmbedded<Real>* md;
  const int8_t* image = nullptr;
  double jump = 0.0;
  bool embedded(uint32_t j) const { return j >= s.size(); }
  Vec3d velocity(uint32_t j) const {
    if (embedded(j)) return vec_cast<double>(md->vel[j - s.size()]);
    const Vec3d v = vec_cast<double>(s.vel[j]);
    return image ? physics::srd_le_image_velocity(v, image[j], jump) : v;
  }
  // The velocity to store for solvent particle j whose image moves at v.
  Vec3d stored(uint32_t j, const Vec3d& v) const {
    return image ? physics::srd_le_own_velocity(v, image[j], jump) : v;
  }
  double mass(uint32_t j) const {
    return embedded(j) ? md->mass_of(j - s.size()) : s.params.mass;
  }
  Vec3d at_draw(uint32_t j, uint64_t step) const {
    return embedded(j) ? physics::mpcd_at_gaussian3(md->tag[j - s.size()], step, s.params.seed, true)
                       : physics::mpcd_at_gaussian3(s.tag[j], step, s.params.seed);
  }
};

// The properties of one cell from its members [first, last): fixed-point
// sums (physics::mpcd_cell_sum), so the members' order does not matter; the
// bounds are those of srd.hpp.
template <class Real>
MpcdCellProps cell_properties(const Members<Real>& mem, const uint32_t* first, const uint32_t* last) {
  MpcdCellProps p;
  p.n = uint32_t(last - first);
  if (p.n == 0) return p;
  double vmax = 0.0, pmax = 0.0, mmax = 0.0;
  for (const uint32_t* k = first; k != last; ++k) {
    const double vj = physics::mpcd_max_abs_component(mem.velocity(*k)), mj = mem.mass(*k);
    vmax = physics::nan_max(vmax, vj);
    pmax = physics::nan_max(pmax, mj * vj);
    mmax = std::max(mmax, mj);
  }
  const int ms = physics::fixed_point_shift(mmax, p.n);
  const int ps = physics::fixed_point_shift(pmax, p.n);
  int64_t qm = 0, q[3] = {0, 0, 0};
  for (const uint32_t* k = first; k != last; ++k) {
    const Vec3d v = mem.velocity(*k);
    const double mj = mem.mass(*k);
    qm += physics::to_fixed_point(mj, ms);
    q[0] += physics::to_fixed_point(mj * v.x, ps);
    q[1] += physics::to_fixed_point(mj * v.y, ps);
    q[2] += physics::to_fixed_point(mj * v.z, ps);
  }
  p.mass = physics::from_fixed_point(qm, ms);
  p.max_mass = mmax;
  p.momentum = {physics::mpcd_cell_sum(q[0], ps, pmax), physics::mpcd_cell_sum(q[1], ps, pmax),
                physics::mpcd_cell_sum(q[2], ps, pmax)};
  const Vec3d u = p.velocity();
  const double eb = physics::mpcd_ke_rel_bound(mmax, vmax);
  const int es = physics::fixed_point_shift(eb, p.n);
  int64_t e = 0;
  for (const uint32_t* k = first; k != last; ++k)
    e += physics::to_fixed_point(physics::mpcd_ke_rel_term(mem.mass(*k), mem.velocity(*k), u), es);
  p.ke_rel = physics::mpcd_cell_sum(e, es, eb);
  return p;
}

// The AT rule's mean random momentum per unit mass of a cell, from the
// integer sums q of its members' draws (scale: the cell's momentum bound).
inline Vec3d at_mean_of(const MpcdCellProps& p, double kT, const int64_t q[3]) {
  const int xs = physics::fixed_point_shift(physics::mpcd_at_momentum_bound(kT, p.max_mass), p.n);
  return (1.0 / p.mass) *
         Vec3d{physics::from_fixed_point(q[0], xs), physics::from_fixed_point(q[1], xs), physics::from_fixed_point(q[2], xs)};
}

// The integer sums of the AT draws of members [first, last) at the scale of
// a cell with properties p.
template <class Real>
void at_draw_sums(const Members<Real>& mem, const MpcdCellProps& p, double kT, uint64_t step, const uint32_t* first,
                  const uint32_t* last, int64_t q[3]) {
  const int xs = physics::fixed_point_shift(physics::mpcd_at_momentum_bound(kT, p.max_mass), p.n);
  for (const uint32_t* k = first; k != last; ++k) {
    const Vec3d w = physics::mpcd_at_random_momentum(kT, mem.mass(*k), mem.at_draw(*k, step));
    q[0] += physics::to_fixed_point(w.x, xs);
    q[1] += physics::to_fixed_point(w.y, xs);
    q[2] += physics::to_fixed_point(w.z, xs);
  }
}

// Whether a slit wall cuts cell c (global index) of grid g under the grid
// shift's z component; if so, `fill` gets its virtual particles for a cell of
// n members (the whole cell's count: on several ranks, summed over them).
// The draw is keyed by the global cell, so every rank that shares the cell
// draws the same fill.
inline bool wall_fill(const MpcdParams& prm, const physics::MpcdGrid& g, uint32_t c, double shift_z, uint32_t n,
                      uint64_t step, physics::SlitFill& fill) {
  if (physics::slit_cut(prm.wall, physics::slit_cell_lower_z(g, c, shift_z), g.a) == 0) return false;
  fill = physics::slit_fill(prm.wall, g, c, shift_z, n, prm.mass, prm.kT, step, prm.seed);
  return true;
}

// The collision of the members [first, last) of cell c (global index: it
// keys the rotation axis and the thermostat) with the cell's properties p.
// AT: the mean draw `at_mean`, or, when null, the sum over these members
// (the whole cell). A lone particle is its own centre of mass: both rules
// leave it as it is, skipped so that v stays bitwise unchanged rather than
// being rebuilt as (m v)/m + 0. `wall`: a cell cut by a slit wall, with its
// virtual particles (srd rule only): the rotation is about the centre of mass
// of the members and the virtual particles, and the cell thermostat leaves
// the cell alone (the virtual particles hold it at the wall's temperature).
template <class Real, class Store>
void collide_cell(const Members<Real>& mem, MpcdRule rule, const MpcdParams& prm, uint64_t step, uint32_t c,
                  const MpcdCellProps& p, const uint32_t* first, const uint32_t* last, const Vec3d* at_mean,
                  double cos_a, double sin_a, Store store, const physics::SlitFill* wall = nullptr) {
  if (p.n + (wall ? wall->count : 0u) < 2 || first == last) return;
  const Vec3d u = wall ? physics::slit_cell_velocity(p.momentum, p.mass, *wall) : p.velocity();
  if (rule == MpcdRule::srd) {
    const Vec3d axis = physics::srd_rotation_axis(c, step, prm.seed);
    const double f = prm.thermostat && !wall
                         ? physics::srd_thermostat_factor(p.n, p.ke_rel, prm.kT, c, step, prm.seed)
                         : 1.0;
    for (const uint32_t* k = first; k != last; ++k)
      store(*k, u + f * physics::srd_rotate(mem.velocity(*k) - u, axis, cos_a, sin_a));
    return;
  }
  // MPC-AT: fresh Maxwellian velocities keyed by tag; removing their
  // mass-weighted cell mean keeps the cell momentum. params.thermostat does
  // not apply: the rule is a thermostat itself. The draws are recomputed
  // rather than stored (Philox is cheap).
  Vec3d mean;
  if (at_mean) {
    mean = *at_mean;
  } else {
    int64_t q[3] = {0, 0, 0};
    at_draw_sums(mem, p, prm.kT, step, first, last, q);
    mean = at_mean_of(p, prm.kT, q);
  }
  for (const uint32_t* k = first; k != last; ++k)
    store(*k, physics::mpcd_at_velocity(u, prm.kT, mem.mass(*k), mem.at_draw(*k, step), mean));
}

}  // namespace meso::reference::mpcd_detail
