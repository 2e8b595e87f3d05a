// The CPU reference backend ("cpu"): plain C++ with OpenMP over particles, the
// ground truth for every CUDA variant. It holds the particles (storage
// precision a template parameter: double by default, float for
// single-precision studies, arithmetic in double) and registers the reference
// operations (cpu_operations.cpp) that the engine's StepPlan composes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "meso/run/backend.hpp"
#include "meso/reference/cpu_context.hpp"

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
  // The MPCD solvent, kept apart from the MD particles (a set_system keeps
  // it, a set_mpcd keeps them); out in tag order.
  void set_mpcd(const MpcdSystem& sys) override;
  void get_mpcd(MpcdParticles& out) const override;
  std::unique_ptr<Operation> create(const std::string& name) override;
  ThermoSample thermo(uint64_t timestep, const PairSums& sums) const override;
  // Exact restarts: the storage order, the list's build positions and
  // counters (the sort counter is the StepPlan's on this backend).
  void list_state(const StepPlan& plan, ListRestartState& out) const override;
  void restore_list_state(StepPlan& plan, const ListRestartState& state,
                          const ParticleData<double>& now) override;

 private:
  CpuContext<Real> ctx_;
  OperationTable<CpuContext<Real>> ops_;
};

// The registration list of the reference operations (cpu_operations.cpp).
template <class Real>
void register_cpu_operations(OperationTable<CpuContext<Real>>& table);

// Registers "cpu" (always usable). Axes: precision=double|single picks the
// storage; reorder=none|cell, with sort=N: particles are put in cell order at
// the first neighbor-list rebuild at least N steps after the previous sort.
void register_cpu_backend(BackendRegistry& registry);

}  // namespace meso::reference
