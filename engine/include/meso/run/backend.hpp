// A backend (OpenMM's Platform): it holds the particle state in its own
// storage and precision and is a factory of operations (meso/ops/) that work
// on that state. The engine knows backends only through this interface and
// the operation interfaces; it composes the operations into a step
// (step_plan.hpp). The CPU reference lives in reference/, the CUDA backend in
// kernels/; neither includes the other.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "meso/core/mpcd.hpp"
#include "meso/ops/integration_method.hpp"
#include "meso/ops/neighbor_list.hpp"
#include "meso/ops/operation.hpp"
#include "meso/core/system.hpp"
#include "meso/analysis/thermo.hpp"
#include "meso/run/variant.hpp"

namespace meso {

class StepPlan;
class DeviceLinks;
struct DeviceLinksSetup;

enum class Integrator {
  velocity_verlet,  // forces from v(t + dt/2), as LAMMPS and HOOMD-blue do for DPD
  groot_warren,     // forces from the predicted v + lambda dt f/m (Groot & Warren 1997)
  nve,              // plain velocity Verlet (MD name; the same steps as velocity_verlet)
  nvt,              // Nose-Hoover, one thermostat variable, time constant tau
  langevin,         // BAOAB Langevin (Leimkuhler & Matthews 2013), drag gamma, Philox noise
  berendsen,        // leapfrog with Berendsen scaling, time constant tau (GALAMOST's integrator)
};

const char* to_string(Integrator i);
Integrator parse_integrator(const std::string& name);

struct RunParams {
  double dt = 0.005;
  Integrator integrator = Integrator::velocity_verlet;
  double lambda = 0.65;        // Groot-Warren predictor weight (their optimum)
  double skin = 0.3;           // Verlet skin added to the largest r_c
  uint32_t rebuild_every = 0;  // 0: rebuild when a particle moved > skin/2
  // Dynamic pruning (0: off). The list is built at r_c + skin (the outer
  // list) and pruned on the GPU to r_c + inner_skin, the list the forces
  // read, whenever a particle moved more than inner_skin/2 since the last
  // prune; the outer list is rebuilt only when the displacements since its
  // build could exceed (skin - inner_skin)/2 (meso/run/step_rules.hpp). Honoured
  // by the CUDA backend on one rank; the CPU reference keeps one list at
  // r_c + skin, which sees the same pairs inside r_c.
  double inner_skin = 0.0;
  uint32_t seed = 1;           // key of the pair noise and of the Langevin noise
  // Thermostats (nvt, langevin, berendsen). kT is their target temperature; the DPD
  // thermostat lives in the pair force and its kT in the DPD table instead.
  double kT = 1.0;
  double tau = 0.5;    // Nose-Hoover's (HOOMD-blue's tau) and Berendsen's time constant
  double gamma = 1.0;  // Langevin drag coefficient: F = -gamma v + noise (rate gamma/m)
  // Rotational Langevin drag of orientational particles: torque -gamma_r
  // omega_k + noise per body axis (rate gamma_r / I_k).
  double gamma_r = 1.0;
  // Berendsen's time constant of rotation (GALAMOST's tauR); 0: tau.
  double tau_r = 0.0;

  void validate() const;  // throws InputError naming the bad value
};

// What an exact restart needs beyond the particles (Simulation::checkpoint):
// the order the backend stores them in and its list bookkeeping. Restored,
// the continued run sums forces in the same order and rebuilds its lists
// and reorders at the same steps, from the same positions, as the
// uninterrupted one. Empty `order`: unknown (lists are rebuilt at the
// restart, which is exact only where the force sum does not depend on when
// the list was built).
struct ListRestartState {
  std::vector<uint32_t> order;         // tags in storage order
  std::vector<Vec3d> build_position;   // storage order: positions at the last list build
  uint32_t steps_since_build = 0;
  uint32_t steps_since_sort = 0;       // UINT32_MAX: no sort yet (or no reordering)
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;
  // Variant axes this backend honours; the others are recorded as ignored.
  virtual std::vector<std::string> applicable_axes() const = 0;
  bool honours(const std::string& axis) const;
  const Variant& variant() const { return variant_; }

  // Copies the system in (converted to the storage precision) and prepares
  // the state the operations work on. Throws InputError for an invalid
  // system or a variant this backend cannot run it with.
  virtual void set_system(const System& sys, const RunParams& params) = 0;
  // Copies the current particle state out in double precision, in tag order.
  virtual void get_particles(ParticleData<double>& out) const = 0;

  // The MPCD solvent (meso/core/mpcd.hpp), beside or instead of the MD
  // particles: copied in (validated) and out in tag order. The defaults
  // refuse: a backend without MPCD operations says so.
  virtual void set_mpcd(const MpcdSystem& sys);
  virtual void get_mpcd(MpcdParticles& out) const;

  // The operation registered under `name` (meso/ops/operation.hpp), working
  // on this backend's state; valid until the next set_system. Throws
  // InputError when the backend has none of that name.
  virtual std::unique_ptr<Operation> create(const std::string& name) = 0;
  template <class Op>
  std::unique_ptr<Op> create_as(const std::string& name);

  // Advances nsteps whole steps of `plan`, the first numbered first_step
  // (the pair noise is keyed by it); the last also accumulates energy and
  // virial when sums_on_last. The default runs plan.run_step() once a step;
  // a device backend compiles the plan into its own loop (no host round
  // trip between rebuilds).
  virtual void advance(StepPlan& plan, uint64_t first_step, uint64_t nsteps, bool sums_on_last);

  // Kinetic observables of the current state combined with the given
  // energy and virial sums (thermostat_energy is left 0: the plan's method
  // adds it).
  virtual ThermoSample thermo(uint64_t timestep, const PairSums& sums) const = 0;
  // Exact restarts. list_state reads the state above after a run of `plan`;
  // restore_list_state is called right after plan.prepare_restart() (which
  // built the lists from state.build_position, loaded by set_system in
  // `order`): it puts the current positions and images (`now`, tag order) in
  // place without touching the lists, and the counters. The defaults: no
  // exact restart (list_state leaves `order` empty; restore refuses).
  virtual void list_state(const StepPlan& plan, ListRestartState& out) const;
  virtual void restore_list_state(StepPlan& plan, const ListRestartState& state,
                                  const ParticleData<double>& now);

  // Waits until queued work has finished (device backends); for timing.
  virtual void synchronize() const {}

  // Links that move this backend's device buffers between ranks without
  // the host (meso/ops/communicator.hpp; the CUDA backend's NCCL links),
  // collective over the ranks of `setup`; null where the backend has none
  // (the CPU reference, or a build without NCCL).
  virtual std::unique_ptr<DeviceLinks> connect_device_links(const DeviceLinksSetup& setup);

 protected:
  explicit Backend(Variant v) : variant_(std::move(v)) {}
  Variant variant_;
};

template <class Op>
std::unique_ptr<Op> Backend::create_as(const std::string& name) {
  std::unique_ptr<Operation> op = create(name);
  Op* typed = dynamic_cast<Op*>(op.get());
  if (!typed)
    throw_input_error("backend '", this->name(), "': operation '", name,
                      "' does not have the interface the plan needs");
  op.release();
  return std::unique_ptr<Op>(typed);
}

// Backends register a factory under their name ("cpu", "cuda").
using BackendFactory = std::function<std::unique_ptr<Backend>(const Variant&)>;

class BackendRegistry {
 public:
  void add(const std::string& name, BackendFactory factory, std::function<bool()> usable);
  // Throws InputError for an unknown or unusable name, listing the usable ones.
  std::unique_ptr<Backend> create(const std::string& name, const Variant& v) const;
  // "auto": the first usable of the preference order (cuda, then cpu).
  std::string resolve(const std::string& name) const;
  std::vector<std::string> names() const;
  bool usable(const std::string& name) const;

 private:
  struct Entry {
    BackendFactory factory;
    std::function<bool()> usable;
  };
  std::map<std::string, Entry> entries_;
};

}  // namespace meso
