// What a backend must provide (the OpenMM "Platform/Kernel" pattern): the CPU
// reference in reference/ and the CUDA backend in kernels/ implement this
// interface, and the engine's run loop (simulation.hpp) composes the pieces.
// Later capabilities (SRD stream/collide, MD-SCF fields, ghost exchange) add
// their own interfaces beside this one as they are built.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "meso/system.hpp"
#include "meso/thermo.hpp"
#include "meso/variant.hpp"

namespace meso {

enum class Integrator {
  velocity_verlet,  // forces from v(t + dt/2), as LAMMPS and HOOMD-blue do for DPD
  groot_warren,     // forces from the predicted v + lambda dt f/m (Groot & Warren 1997)
  nve,              // plain velocity Verlet (MD name; the same steps as velocity_verlet)
  nvt,              // Nose-Hoover, one thermostat variable, time constant tau (see below)
  langevin,         // BAOAB Langevin (Leimkuhler & Matthews 2013), drag gamma, Philox noise
};

const char* to_string(Integrator i);
Integrator parse_integrator(const std::string& name);

struct RunParams {
  double dt = 0.005;
  Integrator integrator = Integrator::velocity_verlet;
  double lambda = 0.65;        // Groot-Warren predictor weight (their optimum)
  double skin = 0.3;           // Verlet skin added to the largest r_c
  uint32_t rebuild_every = 0;  // 0: rebuild when a particle moved > skin/2
  uint32_t seed = 1;           // key of the pair noise and of the Langevin noise
  // Thermostats (nvt, langevin). kT is their target temperature; the DPD
  // thermostat lives in the pair force and its kT in the DPD table instead.
  double kT = 1.0;
  double tau = 0.5;    // Nose-Hoover time constant (HOOMD-blue's tau)
  double gamma = 1.0;  // Langevin drag coefficient: F = -gamma v + noise (rate gamma/m)

  void validate() const;  // throws InputError naming the bad value
};

// Thermostat state that is not in the particles, so that a run can stop and
// continue bit for bit (Simulation::checkpoint). Nose-Hoover (nvt):
//   dv/dt = F/m - xi v,  dxi/dt = (T/kT - 1)/tau^2,  deta/dt = xi,
// with T = 2 K/g, g = 3N - 3; the conserved quantity is
//   H = K + U + g kT (tau^2 xi^2 / 2 + eta).
// The other integrators have no state here (Langevin noise is keyed by tag,
// step and seed, and the step is the Simulation's).
struct IntegratorState {
  double xi = 0.0;
  double eta = 0.0;
};

struct NeighborStats {
  uint64_t builds = 0;
  // Fixed-period mode only: rebuilds at which some particle had already moved
  // more than skin/2, i.e. pairs may have been missed since the last build.
  uint64_t dangerous_builds = 0;
  uint32_t capacity = 0;      // per-particle slots currently allocated
  uint32_t max_neighbors = 0;  // largest list length at the last build
  double mean_neighbors = 0.0;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;
  // Variant axes this backend honours; the others are recorded as ignored.
  virtual std::vector<std::string> applicable_axes() const = 0;
  const Variant& variant() const { return variant_; }

  // Copies the system in, builds cells and the neighbor list and computes the
  // forces of the initial state. Throws InputError for an invalid system.
  virtual void set_system(const System& sys, const RunParams& params) = 0;
  // Copies the current particle state out in double precision.
  virtual void get_particles(ParticleData<double>& out) const = 0;

  // The pieces of a step (DESIGN.md section 2.2).
  virtual void build_cells() = 0;
  virtual void build_neighbor_list() = 0;
  virtual bool neighbor_list_stale() = 0;
  virtual void compute_forces(uint64_t timestep, bool want_sums) = 0;
  virtual void integrate_first_half() = 0;
  virtual void integrate_second_half() = 0;

  // Advances nsteps whole steps, the first of which is numbered first_step
  // (the pair noise is keyed by it). The last step also accumulates energy
  // and virial when sums_on_last is set. The default composes the pieces
  // above one call at a time; a device backend overrides it to keep the
  // step loop on the device (no host round trip between rebuilds).
  virtual void advance(uint64_t first_step, uint64_t nsteps, bool sums_on_last);

  // Thermostat variables, for exact restarts. The defaults suit a backend
  // that implements no stateful integrator: it has the zero state and
  // refuses any other.
  virtual IntegratorState integrator_state() const { return {}; }
  virtual void set_integrator_state(const IntegratorState& s);

  // Observables at the state of the last compute_forces(..., want_sums=true).
  // thermostat_energy carries the Nose-Hoover term of the conserved quantity.
  virtual ThermoSample thermo(uint64_t timestep) const = 0;
  virtual NeighborStats neighbor_stats() const = 0;
  // Waits until queued work has finished (device backends); for timing.
  virtual void synchronize() const {}
  // Neighbors (full list, by tag, sorted) of every particle, indexed by tag;
  // for single-rank systems whose tags are 0..N-1 (tests and diagnostics).
  virtual std::vector<std::vector<uint32_t>> neighbors_by_tag() const = 0;

 protected:
  explicit Backend(Variant v) : variant_(std::move(v)) {}
  Variant variant_;
  // The step being advanced: advance() sets it before integrate_first_half()
  // so that integrators keyed by the step (Langevin noise) need no extra
  // argument; a backend overriding advance() must set it too.
  uint64_t timestep_ = 0;
};

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
