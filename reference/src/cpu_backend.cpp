#include "meso/reference/cpu_backend.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>

#include "meso/error.hpp"
#include "meso/reference/dpd_force.hpp"
#include "meso/reference/integrate_langevin.hpp"
#include "meso/reference/integrate_nose_hoover.hpp"
#include "meso/reference/integrate_verlet.hpp"
#include "meso/reference/lj_force.hpp"

namespace meso::reference {

template <class Real>
CpuBackend<Real>::CpuBackend(const Variant& v) : Backend(v) {}

template <class Real>
void CpuBackend<Real>::set_system(const System& sys, const RunParams& params) {
  params.validate();
  sys.validate(params.skin);
  sys_ = sys;
  params_ = params;
  p_ = ParticleData<Real>::from(sys.particles);
  steps_since_build_ = 0;
  dangerous_builds_ = 0;
  v_pred_.clear();
  thermostat_ = {};
  steps_since_sort_ = UINT64_MAX;  // sort before the first neighbor list
  build_cells();
  build_neighbor_list();
  // At t = 0 there is no force to predict with: forces use v(0) itself.
  compute_forces(0, true);
}

template <class Real>
void CpuBackend<Real>::get_particles(ParticleData<double>& out) const {
  const ParticleData<double> mine = ParticleData<double>::from(p_);
  std::vector<std::size_t> by_tag(p_.n_local);
  std::iota(by_tag.begin(), by_tag.end(), std::size_t{0});
  std::sort(by_tag.begin(), by_tag.end(), [&](auto a, auto b) { return p_.tag[a] < p_.tag[b]; });
  out.resize(p_.n_local);
  for (std::size_t k = 0; k < p_.n_local; ++k) {
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
void CpuBackend<Real>::build_cells() {
  const double width = sys_.max_rcut() + params_.skin;
  cells_.build(sys_.box, p_.position.data(), p_.n_local, width);
  if (variant_.reorder == "cell" && steps_since_sort_ >= variant_.sort) {
    sort_by_cell();
    cells_.build(sys_.box, p_.position.data(), p_.n_local, width);
    steps_since_sort_ = 0;
  }
}

template <class Real>
void CpuBackend<Real>::sort_by_cell() {
  const auto& order = cells_.particles();  // particle indices grouped by cell
  auto permute = [&](auto& v) {
    auto copy = v;
    for (std::size_t k = 0; k < order.size(); ++k) v[k] = copy[order[k]];
  };
  permute(p_.position);
  permute(p_.velocity);
  permute(p_.force);
  permute(p_.type);
  permute(p_.tag);
  permute(p_.image);
  if (!v_pred_.empty()) permute(v_pred_);
}

template <class Real>
void CpuBackend<Real>::build_neighbor_list() {
  nlist_.build(sys_.box, p_.position.data(), p_.n_local, cells_, sys_.max_rcut() + params_.skin);
  steps_since_build_ = 0;
}

template <class Real>
bool CpuBackend<Real>::neighbor_list_stale() {
  ++steps_since_build_;
  if (variant_.reorder == "cell") ++steps_since_sort_;
  const double half_skin = 0.5 * params_.skin;
  if (params_.rebuild_every == 0)
    return nlist_.max_displacement_sq(sys_.box, p_.position.data()) > half_skin * half_skin;
  if (steps_since_build_ < params_.rebuild_every) return false;
  // A fixed period is the user's promise; count the builds where it was broken.
  if (nlist_.max_displacement_sq(sys_.box, p_.position.data()) > half_skin * half_skin)
    ++dangerous_builds_;
  return true;
}

template <class Real>
void CpuBackend<Real>::compute_forces(uint64_t timestep, bool want_sums) {
  if (sys_.pair_style == PairStyle::lj) {
    const PairSums s =
        compute_lj_forces(sys_, p_.position.data(), p_.type.data(), p_.n_local, nlist_, want_sums,
                          p_.force.data());
    if (want_sums) sums_ = s;
    if (sys_.body_force.active()) add_body_force();
    return;
  }
  const bool predicted = params_.integrator == Integrator::groot_warren && !v_pred_.empty();
  const Vec3<Real>* v = predicted ? v_pred_.data() : p_.velocity.data();
  DpdForceArgs args;
  args.timestep = timestep;
  args.seed = params_.seed;
  args.dt = params_.dt;
  args.rng = variant_.rng == "tea" ? physics::RngKind::tea : physics::RngKind::philox;
  args.want_sums = want_sums;
  if (args.rng == physics::RngKind::tea)
    compute_tea_signatures(v, p_.tag.data(), p_.n_local, params_.seed, signature_);
  const PairSums s = compute_dpd_forces(sys_, p_.position.data(), v, p_.type.data(), p_.tag.data(),
                                        signature_.data(), p_.n_local, nlist_, args,
                                        p_.force.data());
  if (want_sums) sums_ = s;
  if (sys_.body_force.active()) add_body_force();
}

template <class Real>
void CpuBackend<Real>::add_body_force() {
  const physics::BodyForce bf = sys_.body_force;
  const std::size_t n = p_.n_local;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3d f = bf.force(vec_cast<double>(p_.position[i]), p_.type[i], sys_.type_mass[p_.type[i]]);
    p_.force[i] = vec_cast<Real>(vec_cast<double>(p_.force[i]) + f);
  }
}

template <class Real>
void CpuBackend<Real>::integrate_first_half() {
  if (params_.integrator == Integrator::nvt) {
    nose_hoover_first_half(sys_, p_, params_, thermostat_);
    return;
  }
  if (params_.integrator == Integrator::langevin) {
    langevin_first_half(sys_, p_, params_, timestep_);
    return;
  }
  reference::integrate_first_half(sys_, p_, params_.dt);
  if (params_.integrator == Integrator::groot_warren)
    predict_velocity(sys_, p_, params_.dt, params_.lambda, v_pred_);
}

template <class Real>
void CpuBackend<Real>::integrate_second_half() {
  if (params_.integrator == Integrator::nvt) {
    nose_hoover_second_half(sys_, p_, params_, thermostat_);
    return;
  }
  reference::integrate_second_half(sys_, p_, params_.dt);
}

template <class Real>
ThermoSample CpuBackend<Real>::thermo(uint64_t timestep) const {
  ThermoSample t = compute_thermo(sys_, p_, sums_, timestep);
  if (params_.integrator == Integrator::nvt)
    t.thermostat_energy = nose_hoover_energy(p_.n_local, params_, thermostat_);
  return t;
}

template <class Real>
NeighborStats CpuBackend<Real>::neighbor_stats() const {
  NeighborStats s;
  s.builds = nlist_.builds();
  s.dangerous_builds = dangerous_builds_;
  s.capacity = nlist_.capacity();
  s.max_neighbors = nlist_.max_count();
  s.mean_neighbors = nlist_.mean_count();
  return s;
}

template <class Real>
std::vector<std::vector<uint32_t>> CpuBackend<Real>::neighbors_by_tag() const {
  std::vector<std::vector<uint32_t>> out(p_.n_local);
  for (std::size_t i = 0; i < p_.n_local; ++i) {
    if (p_.tag[i] >= p_.n_local)
      throw std::logic_error("neighbors_by_tag needs tags 0..N-1 (a single-rank system)");
    auto& list = out[p_.tag[i]];
    for (uint32_t k = 0; k < nlist_.count(i); ++k) list.push_back(p_.tag[nlist_.neighbors(i)[k]]);
    std::sort(list.begin(), list.end());
  }
  return out;
}

template class CpuBackend<double>;
template class CpuBackend<float>;

void register_cpu_backend(BackendRegistry& registry) {
  registry.add(
      "cpu",
      [](const Variant& v) -> std::unique_ptr<Backend> {
        if (v.reorder != "none" && v.reorder != "cell")
          throw_input_error("variant reorder=", v.reorder,
                            " is not provided by the cpu backend: allowed values there are none, cell");
        if (v.precision == "double") return std::make_unique<CpuBackend<double>>(v);
        if (v.precision == "single") return std::make_unique<CpuBackend<float>>(v);
        throw_input_error("variant precision=", v.precision,
                          " is not provided by the cpu backend: allowed values there are double, single");
      },
      [] { return true; });
}

}  // namespace meso::reference
