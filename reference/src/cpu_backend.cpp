#include "meso/reference/cpu_backend.hpp"

#include <algorithm>
#include <numeric>

#include "meso/error.hpp"

namespace meso::reference {

template <class Real>
CpuBackend<Real>::CpuBackend(const Variant& v) : Backend(v) {
  register_cpu_operations(ops_);
}

template <class Real>
void CpuBackend<Real>::set_system(const System& sys, const RunParams& params) {
  params.validate();
  sys.validate(params.skin);
  ctx_ = CpuContext<Real>{};
  ctx_.sys = sys;
  ctx_.params = params;
  ctx_.variant = variant_;
  ctx_.p = ParticleData<Real>::from(sys.particles);
}

template <class Real>
std::unique_ptr<Operation> CpuBackend<Real>::create(const std::string& name) {
  return ops_.create(name, ctx_, "cpu");
}

template <class Real>
void CpuBackend<Real>::get_particles(ParticleData<double>& out) const {
  const ParticleData<Real>& p = ctx_.p;
  const ParticleData<double> mine = ParticleData<double>::from(p);
  std::vector<std::size_t> by_tag(p.n_local);
  std::iota(by_tag.begin(), by_tag.end(), std::size_t{0});
  std::sort(by_tag.begin(), by_tag.end(), [&](auto a, auto b) { return p.tag[a] < p.tag[b]; });
  out.resize(p.n_local);
  for (std::size_t k = 0; k < p.n_local; ++k) {
    const std::size_t i = by_tag[k];
    out.position[k] = mine.position[i];
    out.velocity[k] = mine.velocity[i];
    out.force[k] = mine.force[i];
    out.type[k] = mine.type[i];
    out.tag[k] = mine.tag[i];
    out.image[k] = mine.image[i];
  }
}

template <class Real>
ThermoSample CpuBackend<Real>::thermo(uint64_t timestep, const PairSums& sums) const {
  return compute_thermo(ctx_.sys, ctx_.p, sums, timestep);
}

template class CpuBackend<double>;
template class CpuBackend<float>;

void register_cpu_backend(BackendRegistry& registry) {
  registry.add(
      "cpu",
      [](const Variant& v) -> std::unique_ptr<Backend> {
        if (v.reorder != ReorderKind::none && v.reorder != ReorderKind::cell)
          throw_input_error("variant reorder=", to_string(v.reorder),
                            " is not provided by the cpu backend: allowed values there are none, cell");
        if (v.precision == Precision::double_) return std::make_unique<CpuBackend<double>>(v);
        if (v.precision == Precision::single) return std::make_unique<CpuBackend<float>>(v);
        throw_input_error("variant precision=", to_string(v.precision),
                          " is not provided by the cpu backend: allowed values there are double, single");
      },
      [] { return true; });
}

}  // namespace meso::reference
