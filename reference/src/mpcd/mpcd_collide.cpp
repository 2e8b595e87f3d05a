#include "meso/reference/mpcd_collide.hpp"

#include <algorithm>
#include <cmath>

#include "meso/error.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/ops/mpcd.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

template <class Real>
void MpcdCellList::build(const physics::MpcdGrid& grid, const Vec3<Real>* pos, std::size_t n,
                         const Vec3d& shift, const MpcdEmbedded<Real>* md) {
  shift_ = shift;
  const uint32_t nc = grid.ncells();
  const std::size_t n_md = md ? md->n : 0;
  cell_start_.assign(std::size_t{nc} + 1, 0u);
  cell_of_.resize(n + n_md);
  for (std::size_t j = 0; j < n + n_md; ++j) {
    uint32_t c = kNoCell;
    if (j < n)
      c = grid.cell_of(vec_cast<double>(pos[j]), shift);
    else if (md->joins(j - n))
      c = grid.cell_of(vec_cast<double>(md->pos[j - n]), shift);
    cell_of_[j] = c;
    if (c != kNoCell) ++cell_start_[c + 1];
  }
  for (uint32_t c = 0; c < nc; ++c) cell_start_[c + 1] += cell_start_[c];
  particles_.resize(cell_start_[nc]);
  std::vector<uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t j = 0; j < n + n_md; ++j)
    if (cell_of_[j] != kNoCell) particles_[fill[cell_of_[j]]++] = static_cast<uint32_t>(j);
}

template void MpcdCellList::build<double>(const physics::MpcdGrid&, const Vec3<double>*,
                                          std::size_t, const Vec3d&, const MpcdEmbedded<double>*);
template void MpcdCellList::build<float>(const physics::MpcdGrid&, const Vec3<float>*,
                                         std::size_t, const Vec3d&, const MpcdEmbedded<float>*);

namespace {

// Member j of a cell list built over the solvent and the embedded MD
// particles: j < n is solvent particle j, j >= n is MD particle j - n.
template <class Real>
struct Members {
  const CpuMpcd<Real>& s;
  const MpcdEmbedded<Real>* md;
  bool embedded(uint32_t j) const { return j >= s.size(); }
  Vec3d velocity(uint32_t j) const {
    return embedded(j) ? vec_cast<double>(md->vel[j - s.size()]) : vec_cast<double>(s.vel[j]);
  }
  double mass(uint32_t j) const {
    return embedded(j) ? md->mass_of(j - s.size()) : s.params.mass;
  }
  Vec3d at_draw(uint32_t j, uint64_t step) const {
    return embedded(j) ? physics::mpcd_at_gaussian3(md->tag[j - s.size()], step, s.params.seed, true)
                       : physics::mpcd_at_gaussian3(s.tag[j], step, s.params.seed);
  }
};

}  // namespace

namespace {

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

// The collision of the members [first, last) of cell c (global index: it
// keys the rotation axis and the thermostat) with the cell's properties p.
// AT: the mean draw `at_mean`, or, when null, the sum over these members
// (the whole cell). A lone particle is its own centre of mass: both rules
// leave it as it is, skipped so that v stays bitwise unchanged rather than
// being rebuilt as (m v)/m + 0.
template <class Real, class Store>
void collide_cell(const Members<Real>& mem, MpcdRule rule, const MpcdParams& prm, uint64_t step, uint32_t c,
                  const MpcdCellProps& p, const uint32_t* first, const uint32_t* last, const Vec3d* at_mean,
                  double cos_a, double sin_a, Store store) {
  if (p.n < 2 || first == last) return;
  const Vec3d u = p.velocity();
  if (rule == MpcdRule::srd) {
    const Vec3d axis = physics::srd_rotation_axis(c, step, prm.seed);
    const double f = prm.thermostat ? physics::srd_thermostat_factor(p.n, p.ke_rel, prm.kT, c, step, prm.seed) : 1.0;
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

}  // namespace

template <class Real>
void mpcd_cell_properties(const CpuMpcd<Real>& s, const MpcdCellList& cells,
                          std::vector<MpcdCellProps>& out, const MpcdEmbedded<Real>* md) {
  const uint32_t nc = cells.num_cells();
  const auto& start = cells.cell_start();
  const uint32_t* members = cells.particles().data();
  const Members<Real> mem{s, md};
  out.assign(nc, MpcdCellProps{});
  // The number of threads does not matter (fixed-point sums).
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < int64_t{nc}; ++c) out[c] = cell_properties(mem, members + start[c], members + start[c + 1]);
}

template <class Real>
void mpcd_collide(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step, const Vec3d& shift,
                  const MpcdEmbedded<Real>* md) {
  s.cells.build(s.grid, s.pos.data(), s.size(), shift, md);
  mpcd_cell_properties(s, s.cells, s.props, md);
  const MpcdParams& prm = s.params;
  const double alpha = prm.angle_deg * (3.14159265358979323846 / 180.0);
  const double cos_a = std::cos(alpha), sin_a = std::sin(alpha);
  const auto& start = s.cells.cell_start();
  const uint32_t* members = s.cells.particles().data();
  const uint32_t nc = s.cells.num_cells();
  const Members<Real> mem{s, md};
  auto store = [&](uint32_t j, const Vec3d& v) {
    if (mem.embedded(j))
      md->vel[j - s.size()] = vec_cast<Real>(v);
    else
      s.vel[j] = vec_cast<Real>(v);
  };
#pragma omp parallel for schedule(static)
  for (int64_t ci = 0; ci < int64_t{nc}; ++ci) {
    const uint32_t c = static_cast<uint32_t>(ci);
    collide_cell(mem, rule, prm, step, c, s.props[c], members + start[c], members + start[c + 1], nullptr, cos_a,
                 sin_a, store);
  }
}

template <class Real>
void mpcd_collide(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step, const MpcdEmbedded<Real>* md) {
  const Vec3d shift = s.params.grid_shift
                          ? physics::srd_grid_shift(step, s.params.seed, s.params.cell_size)
                          : Vec3d{0.0, 0.0, 0.0};
  mpcd_collide(s, rule, step, shift, md);
}

namespace {

// Per-collision arrays, kept between collisions (their capacity is reused).
struct DecomposedScratch {
  std::vector<uint32_t> cell, start, members, fill;
  std::vector<double> p1;
  std::vector<int64_t> p2, p3;
  std::vector<MpcdCellProps> props;
  std::vector<Vec3d> at_mean;
};

// One collision of the solvent on one of several ranks (no embedded MD).
// The cells are those of the shifted grid that the domain touches (a cell
// list over that range only, so that nothing a rank does grows with the
// global system). Inner cells hold only this rank's particles: their
// properties are summed in one pass, as on one rank. The shared cells (the
// first and the last layer along a split axis) go through the one-rank
// collision's phases with the layers combined over ranks between them
// (Communicator::combine_layers): the counts and the maxima that set the
// fixed-point scales, then the integer sums of momentum (the mass is n m), then
// those of the relative kinetic energy (thermostat) and of the AT draws.
// Integer sums combine exactly, so every cell's properties, and the
// collision, are bitwise those of one rank. The inner cells' sums run while
// the first exchange is in flight and their collisions during the second
// (Howard et al.'s outer/inner split).
template <class Real>
void mpcd_collide_decomposed(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step, const Communicator& comm,
                             DecomposedScratch& x) {
  const MpcdParams& prm = s.params;
  const physics::MpcdGrid& g = s.grid;
  const Vec3d shift = prm.grid_shift ? physics::srd_grid_shift(step, prm.seed, prm.cell_size) : Vec3d{0.0, 0.0, 0.0};
  const Domain& dom = comm.domain();
  const CellRange r = mpcd_touched_cells(g, dom, shift);
  const std::size_t nr = r.cells(), np = s.size();
  // The range's cell list (counting sort); a particle outside the range
  // crossed more than a neighbouring domain in one collision period
  // (migration moves one domain per axis) and would miss its collision.
  std::vector<uint32_t>&cell = x.cell, &start = x.start, &members = x.members;
  cell.resize(np);
  start.assign(nr + 1, 0u);
  members.resize(np);
  std::size_t outside = 0;
  for (std::size_t j = 0; j < np; ++j) {
    const uint32_t c = g.cell_of(vec_cast<double>(s.pos[j]), shift);
    const int cx = int(c % uint32_t(g.nx)), cy = int((c / uint32_t(g.nx)) % uint32_t(g.ny)),
              cz = int(c / (uint32_t(g.nx) * uint32_t(g.ny)));
    const int i = (cx - r.first[0] + r.n[0]) % r.n[0], k = (cy - r.first[1] + r.n[1]) % r.n[1],
              l = (cz - r.first[2] + r.n[2]) % r.n[2];
    if (i >= r.count[0] || k >= r.count[1] || l >= r.count[2]) {
      cell[j] = uint32_t(nr);
      ++outside;
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
  for (std::size_t c = 0; c < nr; ++c) start[c + 1] += start[c];
  x.fill.assign(start.begin(), start.end() - 1);
  for (std::size_t j = 0; j < np; ++j) members[x.fill[cell[j]]++] = uint32_t(j);
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
  auto vel = [&](uint32_t j) { return vec_cast<double>(s.vel[j]); };
  const bool at = rule == MpcdRule::at;
  std::vector<MpcdCellProps>& props = x.props;
  props.assign(nr, MpcdCellProps{});
  std::vector<Vec3d>& at_mean = x.at_mean;
  at_mean.assign(at ? nr : 0, Vec3d{0.0, 0.0, 0.0});
  const Members<Real> mem{s, nullptr};

  // Phase 1 (shared cells): counts (summed) and the maxima behind the
  // scales. Every solvent particle has mass m, so a cell's largest mass is
  // m when it has members, and its mass sum n times m's fixed-point term:
  // neither travels.
  std::vector<double>& p1 = x.p1;
  p1.assign(nr * 3, 0.0);
  each_cell(true, [&](std::size_t l, uint32_t) {
    double* v = &p1[l * 3];
    v[0] = start[l + 1] - start[l];
    for (uint32_t q = start[l]; q < start[l + 1]; ++q) {
      const double vj = physics::mpcd_max_abs_component(vel(members[q]));
      v[1] = physics::nan_max(v[1], vj);
      v[2] = physics::nan_max(v[2], m * vj);
    }
  });
  // Inner cells: the one-rank cell properties, while the shared layers'
  // maxima travel (the outer/inner split of Howard et al.).
  comm.combine_layers(r, p1, 3, 0b110u, [&](const Communicator::Progress& progress) {
    each_cell(
        false,
        [&](std::size_t l, uint32_t) {
          props[l] = cell_properties(mem, members.data() + start[l], members.data() + start[l + 1]);
        },
        progress);
  });
  // Phase 2 (shared cells): momentum.
  std::vector<int64_t>& p2 = x.p2;
  p2.assign(nr * 3, 0);
  each_cell(true, [&](std::size_t l, uint32_t) {
    const uint32_t n = uint32_t(p1[l * 3]);
    if (n == 0) return;
    const int ps = physics::fixed_point_shift(p1[l * 3 + 2], n);
    int64_t* q = &p2[l * 3];
    for (uint32_t t = start[l]; t < start[l + 1]; ++t) {
      const Vec3d v = vel(members[t]);
      q[0] += physics::to_fixed_point(m * v.x, ps);
      q[1] += physics::to_fixed_point(m * v.y, ps);
      q[2] += physics::to_fixed_point(m * v.z, ps);
    }
  });
  // The inner cells' collisions (their particles are no shared cell's)
  // while the sums travel.
  const double alpha = prm.angle_deg * (3.14159265358979323846 / 180.0);
  const double cos_a = std::cos(alpha), sin_a = std::sin(alpha);
  auto store = [&](uint32_t j, const Vec3d& v) { s.vel[j] = vec_cast<Real>(v); };
  comm.combine_layers(r, p2, 3, [&](const Communicator::Progress& progress) {
    // Inner cells sum their AT draws themselves (they hold the whole cell).
    each_cell(
        false,
        [&](std::size_t l, uint32_t c) {
          collide_cell(mem, rule, prm, step, c, props[l], members.data() + start[l], members.data() + start[l + 1],
                       nullptr, cos_a, sin_a, store);
        },
        progress);
  });
  each_cell(true, [&](std::size_t l, uint32_t) {
    MpcdCellProps& p = props[l];
    p.n = uint32_t(p1[l * 3]);
    if (p.n == 0) return;
    const double pmax = p1[l * 3 + 2];
    const int ms = physics::fixed_point_shift(m, p.n), ps = physics::fixed_point_shift(pmax, p.n);
    p.mass = physics::from_fixed_point(int64_t(p.n) * physics::to_fixed_point(m, ms), ms);  // the sum of n equal terms
    p.max_mass = m;
    p.momentum = {physics::mpcd_cell_sum(p2[l * 3], ps, pmax), physics::mpcd_cell_sum(p2[l * 3 + 1], ps, pmax),
                  physics::mpcd_cell_sum(p2[l * 3 + 2], ps, pmax)};
  });
  // Phase 3 (shared cells): the relative kinetic energy (what the
  // thermostat reads) and the AT rule's draws.
  std::vector<int64_t>& p3 = x.p3;
  p3.assign(nr * 4, 0);
  each_cell(true, [&](std::size_t l, uint32_t) {
    const MpcdCellProps& p = props[l];
    if (p.n == 0) return;
    const Vec3d u = p.velocity();
    const int es = physics::fixed_point_shift(physics::mpcd_ke_rel_bound(p.max_mass, p1[l * 3 + 1]), p.n);
    int64_t* q = &p3[l * 4];
    for (uint32_t t = start[l]; t < start[l + 1]; ++t)
      q[0] += physics::to_fixed_point(physics::mpcd_ke_rel_term(m, vel(members[t]), u), es);
    if (at) at_draw_sums(mem, p, prm.kT, step, members.data() + start[l], members.data() + start[l + 1], q + 1);
  });
  comm.combine_layers(r, p3, 4);
  each_cell(true, [&](std::size_t l, uint32_t) {
    MpcdCellProps& p = props[l];
    if (p.n == 0) return;
    const double eb = physics::mpcd_ke_rel_bound(p.max_mass, p1[l * 3 + 1]);
    p.ke_rel = physics::mpcd_cell_sum(p3[l * 4], physics::fixed_point_shift(eb, p.n), eb);
    if (at) at_mean[l] = at_mean_of(p, prm.kT, &p3[l * 4 + 1]);
  });
  // The shared cells' collisions with the combined properties (s.cells and
  // s.props, the one-rank collision's global-grid record, are not kept:
  // they would grow with the global system).
  s.props.clear();
  each_cell(true, [&](std::size_t l, uint32_t c) {
    collide_cell(mem, rule, prm, step, c, props[l], members.data() + start[l], members.data() + start[l + 1],
                 at ? &at_mean[l] : nullptr, cos_a, sin_a, store);
  });
}

template <class Real>
class CpuMpcdCollide final : public MpcdCollideOp {
 public:
  CpuMpcdCollide(CpuContext<Real>& c, MpcdRule rule) : c_(c), rule_(rule) {}
  void collide(uint64_t step) override {
    const char* name = rule_ == MpcdRule::srd ? "mpcd/collide/srd" : "mpcd/collide/at";
    c_.mpcd.require_loaded(name);
    const uint32_t embed = c_.mpcd.params.embed_types;
    if (comm_ && comm_->size() > 1) {
      if (embed != 0)
        throw_input_error("MPCD embed_types = ", embed, " (solute coupling) is not decomposed over ranks yet: run it on one rank");
      mpcd_collide_decomposed(c_.mpcd, rule_, step, *comm_, scratch_);
      return;
    }
    if (embed == 0) {
      mpcd_collide(c_.mpcd, rule_, step);
      return;
    }
    // HOOMD-blue's embedded group: the MD particles of the embed_types join
    // the collision with their own masses.
    require_embeddable(c_.mpcd.box, c_.mpcd.params, c_.sys, name);
    MpcdEmbedded<Real> md;
    md.pos = c_.p.position.data();
    md.vel = c_.p.velocity.data();
    md.type = c_.p.type.data();
    md.tag = c_.p.tag.data();
    md.n = c_.p.n_local;
    md.type_mass = c_.sys.type_mass.data();
    md.types = embed;
    mpcd_collide(c_.mpcd, rule_, step, &md);
  }
  void set_communicator(const Communicator* comm) override { comm_ = comm; }

 private:
  CpuContext<Real>& c_;
  MpcdRule rule_;
  const Communicator* comm_ = nullptr;
  DecomposedScratch scratch_;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_mpcd_collide(CpuContext<Real>& c, MpcdRule rule) {
  return std::make_unique<CpuMpcdCollide<Real>>(c, rule);
}

#define MESO_INSTANTIATE(R)                                                                     \
  template void mpcd_cell_properties<R>(const CpuMpcd<R>&, const MpcdCellList&,                 \
                                        std::vector<MpcdCellProps>&, const MpcdEmbedded<R>*);   \
  template void mpcd_collide<R>(CpuMpcd<R>&, MpcdRule, uint64_t, const Vec3d&,                  \
                                const MpcdEmbedded<R>*);                                        \
  template void mpcd_collide<R>(CpuMpcd<R>&, MpcdRule, uint64_t, const MpcdEmbedded<R>*);       \
  template std::unique_ptr<Operation> make_mpcd_collide<R>(CpuContext<R>&, MpcdRule);
MESO_INSTANTIATE(double)
MESO_INSTANTIATE(float)
#undef MESO_INSTANTIATE

}  // namespace meso::reference
