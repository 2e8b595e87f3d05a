#include "meso/reference/cpu_backend.hpp"

#include <algorithm>
#include <numeric>

#include "meso/core/error.hpp"
#include "meso/run/step_plan.hpp"

namespace meso::reference {
namespace {

// The storage indices of n particles in ascending tag order: k-th tag's slot.
std::vector<std::size_t> slots_by_tag(const std::vector<uint32_t>& tag, std::size_t n) {
  std::vector<std::size_t> by_tag(n);
  std::iota(by_tag.begin(), by_tag.end(), std::size_t{0});
  std::sort(by_tag.begin(), by_tag.end(), [&](auto a, auto b) { return tag[a] < tag[b]; });
  return by_tag;
}

}  // namespace

template <class Real>
CpuBackend<Real>::CpuBackend(const Variant& v) : Backend(v) {
  register_cpu_operations(ops_);
}

template <class Real>
void CpuBackend<Real>::set_system(const System& sys, const RunParams& params) {
  // The reference ignores the list axis (its one Verlet list is the ground
  // truth), but nlist=cells changes what a step does (a sort every step, no
  // skin): said rather than silently run as something else.
  if (variant_.nlist == NlistKind::cells)
    throw_input_error("variant nlist=cells is a cuda traversal; the cpu reference keeps its Verlet list");
  params.validate();
  sys.validate(params.skin);
  CpuMpcd<Real> solvent = std::move(ctx_.mpcd);  // the solvent outlives a new MD system
  ctx_ = CpuContext<Real>{};
  ctx_.mpcd = std::move(solvent);
  ctx_.sys = sys;
  ctx_.params = params;
  ctx_.variant = variant_;
  ctx_.p = ParticleData<Real>::from(sys.particles);
}

template <class Real>
void CpuBackend<Real>::set_mpcd(const MpcdSystem& sys) {
  sys.validate();
  ctx_.mpcd.assign(sys);
}

template <class Real>
void CpuBackend<Real>::get_mpcd(MpcdParticles& out) const {
  ctx_.mpcd.require_loaded("get_mpcd");
  ctx_.mpcd.copy_out(out);
}

template <class Real>
void CpuMpcd<Real>::assign(const MpcdSystem& sys) {
  const MpcdParticles& in = sys.particles;
  *this = CpuMpcd{};
  box = sys.box;
  params = sys.params;
  grid = sys.grid();
  pos.resize(in.size());
  vel.resize(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    pos[i] = vec_cast<Real>(in.position[i]);
    vel[i] = vec_cast<Real>(in.velocity[i]);
  }
  type = in.type;
  tag = in.tag;
  image = in.image;
  loaded = true;
}

template <class Real>
void CpuMpcd<Real>::copy_out(MpcdParticles& out) const {
  const std::vector<std::size_t> by_tag = slots_by_tag(tag, size());
  out.resize(size());
  for (std::size_t k = 0; k < size(); ++k) {
    const std::size_t i = by_tag[k];
    out.position[k] = vec_cast<double>(pos[i]);
    out.velocity[k] = vec_cast<double>(vel[i]);
    out.type[k] = type[i];
    out.tag[k] = tag[i];
    out.image[k] = image[i];
  }
}

template <class Real>
std::unique_ptr<Operation> CpuBackend<Real>::create(const std::string& name) {
  return ops_.create(name, ctx_, "cpu");
}

template <class Real>
void CpuBackend<Real>::get_particles(ParticleData<double>& out) const {
  const ParticleData<Real>& p = ctx_.p;
  const ParticleData<double> mine = ParticleData<double>::from(p);
  const std::vector<std::size_t> by_tag = slots_by_tag(p.tag, p.n_local);
  out.resize(p.n_local);
  for (std::size_t k = 0; k < p.n_local; ++k) out.copy_slot(k, mine, by_tag[k]);
}

template <class Real>
void CpuBackend<Real>::list_state(const StepPlan& plan, ListRestartState& out) const {
  const ParticleData<Real>& p = ctx_.p;
  out.order.assign(p.tag.begin(), p.tag.begin() + p.n_local);
  out.build_position = ctx_.nlist.build_positions();
  out.steps_since_build = ctx_.nlist.steps_since_build;
  out.steps_since_sort = plan.steps_since_sort();
}

template <class Real>
void CpuBackend<Real>::restore_list_state(StepPlan&, const ListRestartState& state,
                                          const ParticleData<double>& now) {
  ParticleData<Real>& p = ctx_.p;
  if (now.n_local != p.n_local)
    throw_input_error("restore_list_state: N = ", now.n_local, " but the backend holds ", p.n_local);
  // `now` is in tag order and set_system loaded the same tags in storage order.
  const std::vector<std::size_t> by_tag = slots_by_tag(p.tag, p.n_local);
  for (std::size_t k = 0; k < p.n_local; ++k) {
    const std::size_t i = by_tag[k];
    if (p.tag[i] != now.tag[k]) throw_input_error("restore_list_state: tag ", now.tag[k], " is not loaded");
    p.position[i] = vec_cast<Real>(now.position[k]);
    p.image[i] = now.image[k];
  }
  ctx_.nlist.steps_since_build = state.steps_since_build;
}

template <class Real>
ThermoSample CpuBackend<Real>::thermo(uint64_t timestep, const PairSums& sums) const {
  return compute_thermo(ctx_.sys, ctx_.p, sums, timestep);
}

template struct CpuMpcd<double>;
template struct CpuMpcd<float>;
template class CpuBackend<double>;
template class CpuBackend<float>;

void register_cpu_backend(BackendRegistry& registry) {
  registry.add(
      "cpu",
      [](const Variant& v) -> std::unique_ptr<Backend> {
        if (v.reorder != ReorderKind::none && v.reorder != ReorderKind::cell)
          throw_input_error("variant reorder=", to_string(v.reorder),
                            " is not provided by the cpu backend: allowed values there are none, cell");
        // As on the cuda backend (docs/cli.md): the fp32 noise is for fp32
        // storage, so the combination is refused, not silently ignored.
        if (v.noise == NoiseKind::fp32 && v.precision == Precision::double_)
          throw_input_error("variant noise=fp32 is for fp32 storage: use it with precision=single "
                            "(precision=double keeps the fp64 noise of its 1e-12 gate)");
        if (v.precision == Precision::double_) return std::make_unique<CpuBackend<double>>(v);
        if (v.precision == Precision::single) return std::make_unique<CpuBackend<float>>(v);
        throw_input_error("variant precision=", to_string(v.precision),
                          " is not provided by the cpu backend: allowed values there are double, single");
      },
      [] { return true; });
}

}  // namespace meso::reference
