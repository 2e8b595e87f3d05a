#include "meso/reference/mpcd_collide.hpp"

#include <algorithm>
#include <cmath>

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

template <class Real>
void mpcd_cell_properties(const CpuMpcd<Real>& s, const MpcdCellList& cells,
                          std::vector<MpcdCellProps>& out, const MpcdEmbedded<Real>* md) {
  const uint32_t nc = cells.num_cells();
  const auto& start = cells.cell_start();
  const auto& members = cells.particles();
  const Members<Real> mem{s, md};
  out.assign(nc, MpcdCellProps{});
  // Fixed-point sums (physics::mpcd_cell_sum): the members' order, and the
  // number of threads, do not matter; the bounds are those of srd.hpp.
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < int64_t{nc}; ++c) {
    MpcdCellProps& p = out[c];
    p.n = start[c + 1] - start[c];
    if (p.n == 0) continue;
    double vmax = 0.0, pmax = 0.0, mmax = 0.0;
    for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
      const uint32_t j = members[k];
      const double vj = physics::mpcd_max_abs_component(mem.velocity(j)), mj = mem.mass(j);
      vmax = physics::nan_max(vmax, vj);
      pmax = physics::nan_max(pmax, mj * vj);
      mmax = std::max(mmax, mj);
    }
    const int ms = physics::fixed_point_shift(mmax, p.n);
    const int ps = physics::fixed_point_shift(pmax, p.n);
    int64_t qm = 0, q[3] = {0, 0, 0};
    for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
      const uint32_t j = members[k];
      const Vec3d v = mem.velocity(j);
      const double mj = mem.mass(j);
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
    for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
      const uint32_t j = members[k];
      e += physics::to_fixed_point(physics::mpcd_ke_rel_term(mem.mass(j), mem.velocity(j), u), es);
    }
    p.ke_rel = physics::mpcd_cell_sum(e, es, eb);
  }
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
  const auto& members = s.cells.particles();
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
    const MpcdCellProps& p = s.props[c];
    // A lone particle is its own centre of mass: both rules leave it as it
    // is (u_rel = 0; w - mean(w) = 0). Skipped explicitly so that v stays
    // bitwise unchanged rather than being rebuilt as (m v)/m + 0.
    if (p.n < 2) continue;
    const Vec3d u = p.velocity();
    if (rule == MpcdRule::srd) {
      const Vec3d axis = physics::srd_rotation_axis(c, step, prm.seed);
      const double f =
          prm.thermostat ? physics::srd_thermostat_factor(p.n, p.ke_rel, prm.kT, c, step, prm.seed)
                         : 1.0;
      for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
        const uint32_t j = members[k];
        store(j, u + f * physics::srd_rotate(mem.velocity(j) - u, axis, cos_a, sin_a));
      }
    } else {
      // MPC-AT: fresh Maxwellian velocities keyed by tag; removing their
      // mass-weighted cell mean keeps the cell momentum. params.thermostat
      // does not apply: the rule is a thermostat itself. The draws are
      // recomputed in the second pass rather than stored (Philox is cheap).
      const double xb = physics::mpcd_at_momentum_bound(prm.kT, p.max_mass);
      const int xs = physics::fixed_point_shift(xb, p.n);
      int64_t q[3] = {0, 0, 0};
      for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
        const uint32_t j = members[k];
        const Vec3d w = physics::mpcd_at_random_momentum(prm.kT, mem.mass(j), mem.at_draw(j, step));
        q[0] += physics::to_fixed_point(w.x, xs);
        q[1] += physics::to_fixed_point(w.y, xs);
        q[2] += physics::to_fixed_point(w.z, xs);
      }
      const Vec3d mean = (1.0 / p.mass) * Vec3d{physics::from_fixed_point(q[0], xs),
                                                physics::from_fixed_point(q[1], xs),
                                                physics::from_fixed_point(q[2], xs)};
      for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
        const uint32_t j = members[k];
        store(j, physics::mpcd_at_velocity(u, prm.kT, mem.mass(j), mem.at_draw(j, step), mean));
      }
    }
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

template <class Real>
class CpuMpcdCollide final : public MpcdCollideOp {
 public:
  CpuMpcdCollide(CpuContext<Real>& c, MpcdRule rule) : c_(c), rule_(rule) {}
  void collide(uint64_t step) override {
    const char* name = rule_ == MpcdRule::srd ? "mpcd/collide/srd" : "mpcd/collide/at";
    c_.mpcd.require_loaded(name);
    const uint32_t embed = c_.mpcd.params.embed_types;
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

 private:
  CpuContext<Real>& c_;
  MpcdRule rule_;
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
