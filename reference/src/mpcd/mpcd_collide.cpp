#include "meso/reference/mpcd_collide.hpp"

#include <cmath>

#include "meso/core/error.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/ops/mpcd.hpp"
#include "meso/reference/cpu_context.hpp"
#include "mpcd_cell_math.hpp"
#include "mpcd_collide_decomposed.hpp"

namespace meso::reference {

template <class Real>
void MpcdCellList::build(const physics::MpcdGrid& grid, const Vec3<Real>* pos, std::size_t n,
                         const Vec3d& shift, const MpcdEmbedded<Real>* md, const physics::LeesEdwards* le) {
  shift_ = shift;
  const uint32_t nc = grid.ncells();
  const std::size_t n_md = md ? md->n : 0;
  cell_start_.assign(std::size_t{nc} + 1, 0u);
  cell_of_.resize(n + n_md);
  image_.assign(le ? n : 0, int8_t{0});
  jump_ = le ? le->jump : 0.0;
  for (std::size_t j = 0; j < n + n_md; ++j) {
    uint32_t c = kNoCell;
    if (j < n && le) {
      const Vec3d r = vec_cast<double>(pos[j]);
      const int img = physics::srd_le_image(grid, r, shift);
      image_[j] = static_cast<int8_t>(img);
      c = physics::srd_le_cell_of(grid, r, shift, img, *le);
    } else if (j < n)
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
                                          std::size_t, const Vec3d&, const MpcdEmbedded<double>*,
                                          const physics::LeesEdwards*);
template void MpcdCellList::build<float>(const physics::MpcdGrid&, const Vec3<float>*,
                                         std::size_t, const Vec3d&, const MpcdEmbedded<float>*,
                                         const physics::LeesEdwards*);

using mpcd_detail::cell_properties;
using mpcd_detail::collide_cell;
using mpcd_detail::DecomposedScratch;
using mpcd_detail::Members;
using mpcd_detail::mpcd_collide_decomposed;
using mpcd_detail::wall_fill;

template <class Real>
void mpcd_cell_properties(const CpuMpcd<Real>& s, const MpcdCellList& cells,
                          std::vector<MpcdCellProps>& out, const MpcdEmbedded<Real>* md) {
  const uint32_t nc = cells.num_cells();
  const auto& start = cells.cell_start();
  const uint32_t* members = cells.particles().data();
  const auto& image = cells.image_of_particle();
  const Members<Real> mem{s, md, image.empty() ? nullptr : image.data(), cells.image_jump()};
  out.assign(nc, MpcdCellProps{});
  // The number of threads does not matter (fixed-point sums).
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < int64_t{nc}; ++c) out[c] = cell_properties(mem, members + start[c], members + start[c + 1]);
}

template <class Real>
void mpcd_collide(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step, const Vec3d& shift,
                  const MpcdEmbedded<Real>* md) {
  // Lees-Edwards: the images at the collision's time, step dt_c (the end of
  // the streaming period numbered alike).
  const physics::LeesEdwards le = s.params.shear.at(s.box.lengths(), static_cast<double>(step) * s.params.dt);
  s.cells.build(s.grid, s.pos.data(), s.size(), shift, md, le.active() ? &le : nullptr);
  mpcd_cell_properties(s, s.cells, s.props, md);
  const MpcdParams& prm = s.params;
  const double alpha = prm.angle_deg * (3.14159265358979323846 / 180.0);
  const double cos_a = std::cos(alpha), sin_a = std::sin(alpha);
  const auto& start = s.cells.cell_start();
  const uint32_t* members = s.cells.particles().data();
  const uint32_t nc = s.cells.num_cells();
  const auto& image = s.cells.image_of_particle();
  const Members<Real> mem{s, md, image.empty() ? nullptr : image.data(), s.cells.image_jump()};
  auto store = [&](uint32_t j, const Vec3d& v) {
    if (mem.embedded(j))
      md->vel[j - s.size()] = vec_cast<Real>(v);
    else
      s.vel[j] = vec_cast<Real>(mem.stored(j, v));
  };
#pragma omp parallel for schedule(static)
  for (int64_t ci = 0; ci < int64_t{nc}; ++ci) {
    const uint32_t c = static_cast<uint32_t>(ci);
    physics::SlitFill fill;
    const bool cut = wall_fill(prm, s.grid, c, shift.z, s.props[c].n, step, fill);
    collide_cell(mem, rule, prm, step, c, s.props[c], members + start[c], members + start[c + 1], nullptr, cos_a,
                 sin_a, store, cut ? &fill : nullptr);
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
    const bool ranks = comm_ && comm_->size() > 1;
    if (embed == 0) {
      if (ranks)
        mpcd_collide_decomposed(c_.mpcd, rule_, step, *comm_, scratch_);
      else
        mpcd_collide(c_.mpcd, rule_, step);
      return;
    }
    // HOOMD-blue's embedded group: the MD particles of the embed_types join
    // the collision with their own masses. On several ranks a rank's own
    // (local, not ghost) MD particles, which the plan migrated into its
    // domain at the step of the collision (StepRules::migrate_every).
    if (!ranks) require_embeddable(c_.mpcd.box, c_.mpcd.params, c_.sys, name);
    MpcdEmbedded<Real> md;
    md.pos = c_.p.position.data();
    md.vel = c_.p.velocity.data();
    md.type = c_.p.type.data();
    md.tag = c_.p.tag.data();
    md.n = c_.p.n_local;
    md.type_mass = c_.sys.type_mass.data();
    md.types = embed;
    if (ranks)
      mpcd_collide_decomposed(c_.mpcd, rule_, step, *comm_, scratch_, &md);
    else
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
