// The reference MPCD collision on one of several ranks (the solvent split by
// a communicator): the one-rank collision's phases with the shared cells'
// sums combined over ranks between them.
#include "mpcd_collide_decomposed.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "meso/core/error.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/ops/mpcd.hpp"
#include "meso/reference/cpu_context.hpp"
#include "mpcd_cell_math.hpp"

namespace meso::reference::mpcd_detail {

// One collision of the solvent, and of the rank's own embedded MD particles
// (md, or null), on one of several ranks. The cells are those of the shifted
// grid that the domain touches (a cell list over that range only, so that
// nothing a rank does grows with the global system). Inner cells hold only
// this rank's particles: their properties are summed in one pass, as on one
// rank. The shared cells (the first and the last layer along a split axis)
// go through the one-rank collision's phases with the layers combined over
// ranks between them (Communicator::combine_layers): the counts and the
// maxima that set the fixed-point scales, then the integer sums of momentum
// (and, with solutes, of mass; the solvent alone's is n m), then those of
// the relative kinetic energy (thermostat) and of the AT draws. Integer
// sums combine exactly, so every cell's properties, and the collision, are
// bitwise those of one rank; so are a cut cell's virtual particles (slit
// walls), drawn from its global index and its combined count. The inner
// cells' sums run while the first exchange is in flight and their
// collisions during the second (Howard et al.'s outer/inner split).
template <class Real>
void mpcd_collide_decomposed(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step, const Communicator& comm,
                             DecomposedScratch& x, const MpcdEmbedded<Real>* md) {
  const MpcdParams& prm = s.params;
  const physics::MpcdGrid& g = s.grid;
  const Vec3d shift = prm.grid_shift ? physics::srd_grid_shift(step, prm.seed, prm.cell_size) : Vec3d{0.0, 0.0, 0.0};
  const Domain& dom = comm.domain();
  const CellRange r = mpcd_touched_cells(g, dom, shift);
  // Members j < np are solvent particles, np + i the MD particle i (those
  // of the embed_types join; the others are in no cell).
  const std::size_t nr = r.cells(), np = s.size(), nm = np + (md ? md->n : 0);
  // The range's cell list (counting sort); a solvent particle outside the
  // range crossed more than a neighbouring domain in one collision period
  // (migration moves one domain per axis) and would miss its collision; an
  // MD particle outside it was not migrated before the collision.
  std::vector<uint32_t>&cell = x.cell, &start = x.start, &members = x.members;
  cell.resize(nm);
  start.assign(nr + 1, 0u);
  members.resize(nm);
  std::size_t outside = 0, md_outside = 0;
  for (std::size_t j = 0; j < nm; ++j) {
    const bool solute = j >= np;
    if (solute && !md->joins(j - np)) {
      cell[j] = uint32_t(nr);
      continue;
    }
    const uint32_t c = g.cell_of(vec_cast<double>(solute ? md->pos[j - np] : s.pos[j]), shift);
    const int cx = int(c % uint32_t(g.nx)), cy = int((c / uint32_t(g.nx)) % uint32_t(g.ny)),
              cz = int(c / (uint32_t(g.nx) * uint32_t(g.ny)));
    const int i = (cx - r.first[0] + r.n[0]) % r.n[0], k = (cy - r.first[1] + r.n[1]) % r.n[1],
              l = (cz - r.first[2] + r.n[2]) % r.n[2];
    if (i >= r.count[0] || k >= r.count[1] || l >= r.count[2]) {
      cell[j] = uint32_t(nr);
      ++(solute ? md_outside : outside);
      continue;
    }
    cell[j] = uint32_t(r.local(i, k, l));
    ++start[cell[j] + 1];
  }
  if (outside != 0)
    throw_input_error("MPCD: ", outside, " solvent particle(s) of rank ", comm.rank(),
                      " lie outside its domain's cells at collision ", step,
                      ": a particle crossed more than one domain in a collision period (dt = ", prm.dt,
                      "); use fewer ranks or a shorter period");
  if (md_outside != 0)
    throw std::logic_error("MPCD: " + std::to_string(md_outside) + " embedded MD particle(s) of rank " +
                           std::to_string(comm.rank()) + " lie outside its domain's cells at collision " +
                           std::to_string(step) + ": the MD particles were not migrated before it");
  for (std::size_t c = 0; c < nr; ++c) start[c + 1] += start[c];
  x.fill.assign(start.begin(), start.end() - 1);
  members.resize(start[nr]);
  for (std::size_t j = 0; j < nm; ++j)
    if (cell[j] != nr) members[x.fill[cell[j]]++] = uint32_t(j);
  // Shared: on the first or the last layer of a split axis.
  auto shared = [&](int i, int j, int k) {
    const int l[3] = {i, j, k};
    for (int a = 0; a < 3; ++a)
      if (dom.grid[a] > 1 && (l[a] == 0 || l[a] == r.count[a] - 1)) return true;
    return false;
  };
  // Over the shared or the inner cells; `progress` (the communicator's,
  // while layers are in flight) is called every 256 cells.
  auto each_cell = [&](bool on_shared, auto&& fn, const Communicator::Progress& progress = {}) {
    uint32_t since = 0;
    for (int k = 0; k < r.count[2]; ++k)
      for (int j = 0; j < r.count[1]; ++j)
        for (int i = 0; i < r.count[0]; ++i) {
          if (shared(i, j, k) != on_shared) continue;
          fn(r.local(i, j, k), r.global(i, j, k));
          if (progress && ++since == 256) {
            since = 0;
            progress();
          }
        }
  };
  const double m = prm.mass;
  const bool at = rule == MpcdRule::at;
  std::vector<MpcdCellProps>& props = x.props;
  props.assign(nr, MpcdCellProps{});
  std::vector<Vec3d>& at_mean = x.at_mean;
  at_mean.assign(at ? nr : 0, Vec3d{0.0, 0.0, 0.0});
  const Members<Real> mem{s, md};
  // With solutes a cell's masses differ: its largest travels with the
  // maxima (w1) and its mass sum with the momentum (w2). The solvent
  // alone's largest mass is m when a cell has members, and its mass sum n
  // times m's fixed-point term: neither travels.
  const bool solutes = md != nullptr;
  const int w1 = solutes ? 4 : 3, w2 = solutes ? 4 : 3;

  // Phase 1 (shared cells): counts (summed) and the maxima behind the
  // scales.
  std::vector<double>& p1 = x.p1;
  p1.assign(nr * w1, 0.0);
  each_cell(true, [&](std::size_t l, uint32_t) {
    double* v = &p1[l * w1];
    v[0] = start[l + 1] - start[l];
    for (uint32_t q = start[l]; q < start[l + 1]; ++q) {
      const double vj = physics::mpcd_max_abs_component(mem.velocity(members[q])), mj = mem.mass(members[q]);
      v[1] = physics::nan_max(v[1], vj);
      v[2] = physics::nan_max(v[2], mj * vj);
      if (solutes) v[3] = std::max(v[3], mj);
    }
  });
  // Inner cells: the one-rank cell properties, while the shared layers'
  // maxima travel (the outer/inner split of Howard et al.).
  comm.combine_layers(r, p1, w1, solutes ? 0b1110u : 0b110u, [&](const Communicator::Progress& progress) {
    each_cell(
        false,
        [&](std::size_t l, uint32_t) {
          props[l] = cell_properties(mem, members.data() + start[l], members.data() + start[l + 1]);
        },
        progress);
  });
  // Phase 2 (shared cells): momentum (and, with solutes, mass).
  std::vector<int64_t>& p2 = x.p2;
  p2.assign(nr * w2, 0);
  each_cell(true, [&](std::size_t l, uint32_t) {
    const uint32_t n = uint32_t(p1[l * w1]);
    if (n == 0) return;
    const int ps = physics::fixed_point_shift(p1[l * w1 + 2], n);
    const int ms = solutes ? physics::fixed_point_shift(p1[l * w1 + 3], n) : 0;
    int64_t* q = &p2[l * w2];
    for (uint32_t t = start[l]; t < start[l + 1]; ++t) {
      const Vec3d v = mem.velocity(members[t]);
      const double mj = mem.mass(members[t]);
      q[0] += physics::to_fixed_point(mj * v.x, ps);
      q[1] += physics::to_fixed_point(mj * v.y, ps);
      q[2] += physics::to_fixed_point(mj * v.z, ps);
      if (solutes) q[3] += physics::to_fixed_point(mj, ms);
    }
  });
  // The inner cells' collisions (their particles are no shared cell's)
  // while the sums travel.
  const double alpha = prm.angle_deg * (3.14159265358979323846 / 180.0);
  const double cos_a = std::cos(alpha), sin_a = std::sin(alpha);
  auto store = [&](uint32_t j, const Vec3d& v) {
    if (mem.embedded(j))
      md->vel[j - np] = vec_cast<Real>(v);
    else
      s.vel[j] = vec_cast<Real>(v);
  };
  comm.combine_layers(r, p2, w2, [&](const Communicator::Progress& progress) {
    // Inner cells sum their AT draws themselves (they hold the whole cell).
    each_cell(
        false,
        [&](std::size_t l, uint32_t c) {
          physics::SlitFill fill;
          const bool cut = wall_fill(prm, g, c, shift.z, props[l].n, step, fill);
          collide_cell(mem, rule, prm, step, c, props[l], members.data() + start[l], members.data() + start[l + 1],
                       nullptr, cos_a, sin_a, store, cut ? &fill : nullptr);
        },
        progress);
  });
  each_cell(true, [&](std::size_t l, uint32_t) {
    MpcdCellProps& p = props[l];
    p.n = uint32_t(p1[l * w1]);
    if (p.n == 0) return;
    const double pmax = p1[l * w1 + 2];
    p.max_mass = solutes ? p1[l * w1 + 3] : m;
    const int ms = physics::fixed_point_shift(p.max_mass, p.n), ps = physics::fixed_point_shift(pmax, p.n);
    const int64_t qm = solutes ? p2[l * w2 + 3] : int64_t(p.n) * physics::to_fixed_point(m, ms);  // n equal terms
    p.mass = physics::from_fixed_point(qm, ms);
    p.momentum = {physics::mpcd_cell_sum(p2[l * w2], ps, pmax), physics::mpcd_cell_sum(p2[l * w2 + 1], ps, pmax),
                  physics::mpcd_cell_sum(p2[l * w2 + 2], ps, pmax)};
  });
  // Phase 3 (shared cells): the relative kinetic energy (what the
  // thermostat reads) and the AT rule's draws.
  std::vector<int64_t>& p3 = x.p3;
  p3.assign(nr * 4, 0);
  each_cell(true, [&](std::size_t l, uint32_t) {
    const MpcdCellProps& p = props[l];
    if (p.n == 0) return;
    const Vec3d u = p.velocity();
    const int es = physics::fixed_point_shift(physics::mpcd_ke_rel_bound(p.max_mass, p1[l * w1 + 1]), p.n);
    int64_t* q = &p3[l * 4];
    for (uint32_t t = start[l]; t < start[l + 1]; ++t)
      q[0] += physics::to_fixed_point(physics::mpcd_ke_rel_term(mem.mass(members[t]), mem.velocity(members[t]), u), es);
    if (at) at_draw_sums(mem, p, prm.kT, step, members.data() + start[l], members.data() + start[l + 1], q + 1);
  });
  comm.combine_layers(r, p3, 4);
  each_cell(true, [&](std::size_t l, uint32_t) {
    MpcdCellProps& p = props[l];
    if (p.n == 0) return;
    const double eb = physics::mpcd_ke_rel_bound(p.max_mass, p1[l * w1 + 1]);
    p.ke_rel = physics::mpcd_cell_sum(p3[l * 4], physics::fixed_point_shift(eb, p.n), eb);
    if (at) at_mean[l] = at_mean_of(p, prm.kT, &p3[l * 4 + 1]);
  });
  // The shared cells' collisions with the combined properties (s.cells and
  // s.props, the one-rank collision's global-grid record, are not kept:
  // they would grow with the global system).
  s.props.clear();
  each_cell(true, [&](std::size_t l, uint32_t c) {
    physics::SlitFill fill;
    const bool cut = wall_fill(prm, g, c, shift.z, props[l].n, step, fill);
    collide_cell(mem, rule, prm, step, c, props[l], members.data() + start[l], members.data() + start[l + 1],
                 at ? &at_mean[l] : nullptr, cos_a, sin_a, store, cut ? &fill : nullptr);
  });
}

template void mpcd_collide_decomposed<double>(CpuMpcd<double>&, MpcdRule, uint64_t, const Communicator&,
                                              DecomposedScratch&, const MpcdEmbedded<double>*);
template void mpcd_collide_decomposed<float>(CpuMpcd<float>&, MpcdRule, uint64_t, const Communicator&,
                                             DecomposedScratch&, const MpcdEmbedded<float>*);

}  // namespace meso::reference::mpcd_detail
