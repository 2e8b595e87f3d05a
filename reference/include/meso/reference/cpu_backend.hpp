// The CPU reference backend: cell list, Verlet list, DPD or Lennard-Jones
// forces (System::pair_style) and velocity-Verlet, Groot-Warren, Nose-Hoover
// or Langevin integration (RunParams::integrator) in plain C++ with OpenMP
// over particles. It is the ground truth
// for every CUDA variant. Storage precision is a template parameter (double by
// default; float storage for single-precision studies, double arithmetic).
#pragma once

#include <memory>
#include <vector>

#include "meso/backend.hpp"
#include "meso/reference/cell_list.hpp"
#include "meso/reference/neighbor_list.hpp"

namespace meso::reference {

template <class Real>
class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(const Variant& v);

  std::string name() const override { return "cpu"; }
  std::vector<std::string> applicable_axes() const override {
    return {"reorder", "sort", "precision", "rng"};
  }

  void set_system(const System& sys, const RunParams& params) override;
  // In tag order, whatever order the backend keeps internally.
  void get_particles(ParticleData<double>& out) const override;

  void build_cells() override;
  void build_neighbor_list() override;
  bool neighbor_list_stale() override;
  void compute_forces(uint64_t timestep, bool want_sums) override;
  void integrate_first_half() override;
  void integrate_second_half() override;

  IntegratorState integrator_state() const override { return thermostat_; }
  void set_integrator_state(const IntegratorState& s) override { thermostat_ = s; }

  ThermoSample thermo(uint64_t timestep) const override;
  NeighborStats neighbor_stats() const override;
  std::vector<std::vector<uint32_t>> neighbors_by_tag() const override;

 private:
  System sys_;
  RunParams params_;
  ParticleData<Real> p_;
  std::vector<Vec3<Real>> v_pred_;  // Groot-Warren prediction
  std::vector<uint32_t> signature_;  // TEA signatures
  CellList cells_;
  NeighborList nlist_;
  PairSums sums_;
  IntegratorState thermostat_;  // Nose-Hoover xi, eta
  // Puts particles in cell-list order (reorder=cell) so that neighbors are
  // near in memory: at large N the force loop is otherwise bound by cache
  // misses on randomly ordered positions.
  void sort_by_cell();
  void add_body_force();

  uint32_t steps_since_build_ = 0;
  uint64_t steps_since_sort_ = 0;
  uint64_t dangerous_builds_ = 0;
};

// Registers "cpu" (always usable). Axes: precision=double|single picks the
// storage; reorder=none|cell, with sort=N: particles are put in cell order at
// the first neighbor-list rebuild at least N steps after the previous sort.
void register_cpu_backend(BackendRegistry& registry);

}  // namespace meso::reference
