#include "meso/reference/mpcd_collide.hpp"

#include <algorithm>
#include <cmath>

#include "meso/ops/mpcd.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

template <class Real>
void MpcdCellList::build(const physics::MpcdGrid& grid, const Vec3<Real>* pos, const uint32_t* tag,
                         std::size_t n, const Vec3d& shift) {
  shift_ = shift;
  const uint32_t nc = grid.ncells();
  cell_start_.assign(std::size_t{nc} + 1, 0u);
  cell_of_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t c = grid.cell_of(vec_cast<double>(pos[i]), shift);
    cell_of_[i] = c;
    ++cell_start_[c + 1];
  }
  for (uint32_t c = 0; c < nc; ++c) cell_start_[c + 1] += cell_start_[c];
  particles_.resize(n);
  std::vector<uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i) particles_[fill[cell_of_[i]]++] = static_cast<uint32_t>(i);
  // Tag order within a cell (see the header): the sums become independent of
  // the storage order. Cells hold ~rho = 10 particles, so this is cheap.
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < int64_t{nc}; ++c)
    std::sort(particles_.begin() + cell_start_[c], particles_.begin() + cell_start_[c + 1],
              [tag](uint32_t a, uint32_t b) { return tag[a] < tag[b]; });
}

template void MpcdCellList::build<double>(const physics::MpcdGrid&, const Vec3<double>*,
                                          const uint32_t*, std::size_t, const Vec3d&);
template void MpcdCellList::build<float>(const physics::MpcdGrid&, const Vec3<float>*,
                                         const uint32_t*, std::size_t, const Vec3d&);

template <class Real>
void mpcd_cell_properties(const CpuMpcd<Real>& s, const MpcdCellList& cells,
                          std::vector<MpcdCellProps>& out) {
  const uint32_t nc = cells.num_cells();
  const auto& start = cells.cell_start();
  const auto& members = cells.particles();
  const double m = s.params.mass;
  out.assign(nc, MpcdCellProps{});
  // One cell per iteration, its members summed serially in the list's order:
  // the result does not depend on the number of threads.
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < int64_t{nc}; ++c) {
    MpcdCellProps& p = out[c];
    p.n = start[c + 1] - start[c];
    if (p.n == 0) continue;
    Vec3d mom{0.0, 0.0, 0.0};
    for (uint32_t k = start[c]; k < start[c + 1]; ++k)
      mom += m * vec_cast<double>(s.vel[members[k]]);
    p.mass = m * p.n;
    p.momentum = mom;
    const Vec3d u = p.velocity();
    double sum_sq = 0.0;
    for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
      const Vec3d d = vec_cast<double>(s.vel[members[k]]) - u;
      sum_sq += dot(d, d);
    }
    p.ke_rel = 0.5 * m * sum_sq;
  }
}

template <class Real>
void mpcd_collide(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step, const Vec3d& shift) {
  s.cells.build(s.grid, s.pos.data(), s.tag.data(), s.size(), shift);
  mpcd_cell_properties(s, s.cells, s.props);
  const MpcdParams& prm = s.params;
  const double alpha = prm.angle_deg * (3.14159265358979323846 / 180.0);
  const double cos_a = std::cos(alpha), sin_a = std::sin(alpha);
  const double at_scale = std::sqrt(prm.kT / prm.mass);  // Maxwellian width per component
  const auto& start = s.cells.cell_start();
  const auto& members = s.cells.particles();
  const uint32_t nc = s.cells.num_cells();
#pragma omp parallel for schedule(static)
  for (int64_t ci = 0; ci < int64_t{nc}; ++ci) {
    const uint32_t c = static_cast<uint32_t>(ci);
    const MpcdCellProps& p = s.props[c];
    // A lone particle is its own centre of mass: both rules leave it as it
    // is (u_rel = 0; xi - mean(xi) = 0). Skipped explicitly so that v stays
    // bitwise unchanged rather than being rebuilt as (m v)/m + 0.
    if (p.n < 2) continue;
    const Vec3d u = p.velocity();
    if (rule == MpcdRule::srd) {
      const Vec3d axis = physics::srd_rotation_axis(c, step, prm.seed);
      const double f =
          prm.thermostat ? physics::srd_thermostat_factor(p.n, p.ke_rel, prm.kT, c, step, prm.seed)
                         : 1.0;
      for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
        const uint32_t i = members[k];
        const Vec3d rel = vec_cast<double>(s.vel[i]) - u;
        s.vel[i] = vec_cast<Real>(u + f * physics::srd_rotate(rel, axis, cos_a, sin_a));
      }
    } else {
      // MPC-AT: fresh Maxwellian relative velocities keyed by tag; removing
      // their cell mean keeps the cell momentum. params.thermostat does not
      // apply: the rule is a thermostat itself. The draws are recomputed in
      // the second pass rather than stored (Philox is cheap).
      Vec3d sum{0.0, 0.0, 0.0};
      for (uint32_t k = start[c]; k < start[c + 1]; ++k)
        sum += physics::mpcd_at_gaussian3(s.tag[members[k]], step, prm.seed);
      const Vec3d mean = (1.0 / p.n) * sum;
      for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
        const uint32_t i = members[k];
        const Vec3d xi = physics::mpcd_at_gaussian3(s.tag[i], step, prm.seed);
        s.vel[i] = vec_cast<Real>(u + at_scale * (xi - mean));
      }
    }
  }
}

template <class Real>
void mpcd_collide(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step) {
  const Vec3d shift = s.params.grid_shift
                          ? physics::srd_grid_shift(step, s.params.seed, s.params.cell_size)
                          : Vec3d{0.0, 0.0, 0.0};
  mpcd_collide(s, rule, step, shift);
}

namespace {

template <class Real>
class CpuMpcdCollide final : public MpcdCollideOp {
 public:
  CpuMpcdCollide(CpuContext<Real>& c, MpcdRule rule) : c_(c), rule_(rule) {}
  void collide(uint64_t step) override {
    c_.mpcd.require_loaded(rule_ == MpcdRule::srd ? "mpcd/collide/srd" : "mpcd/collide/at");
    mpcd_collide(c_.mpcd, rule_, step);
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
                                        std::vector<MpcdCellProps>&);                           \
  template void mpcd_collide<R>(CpuMpcd<R>&, MpcdRule, uint64_t, const Vec3d&);                 \
  template void mpcd_collide<R>(CpuMpcd<R>&, MpcdRule, uint64_t);                               \
  template std::unique_ptr<Operation> make_mpcd_collide<R>(CpuContext<R>&, MpcdRule);
MESO_INSTANTIATE(double)
MESO_INSTANTIATE(float)
#undef MESO_INSTANTIATE

}  // namespace meso::reference
