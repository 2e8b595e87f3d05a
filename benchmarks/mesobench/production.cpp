#include "production.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>

#include "meso/core/error.hpp"
#include "meso/io/h5md.hpp"
#include "meso/run/progress.hpp"
#include "meso/run/simulation.hpp"

namespace meso::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Every parameter that shapes the system or the dynamics, exactly, as
// space-separated key=value: a checkpoint continues only the run it came from.
std::string setup_of(const BenchCase& c) { return c.setup(); }

// The next step at which some output is due after `step` (or `end`).
uint64_t next_stop(uint64_t step, uint64_t end, uint64_t every, uint64_t checkpoint_every) {
  uint64_t stop = end;
  if (every) stop = std::min(stop, (step / every + 1) * every);
  if (checkpoint_every) stop = std::min(stop, (step / checkpoint_every + 1) * checkpoint_every);
  return stop;
}

// The driver shared by MD and MPCD: `advance(k)` runs k steps, `frame()` and
// `save()` write the outputs at the current step.
template <class Advance, class Frame, class Save>
void drive(BenchResult& r, uint64_t first, const OutputOptions& o, Backend& b, Advance&& advance, Frame&& frame,
           Save&& save) {
  const uint64_t end = o.steps;
  const uint64_t every = o.trajectory.empty() ? 0 : o.every;
  const uint64_t cp_every = o.checkpoint.empty() ? 0 : o.checkpoint_every;
  if (every) frame();  // the starting state
  progress::begin(r.label, end - first);
  double seconds = 0.0;
  uint64_t step = first;
  while (step < end) {
    const uint64_t stop = next_stop(step, end, every, cp_every);
    b.synchronize();
    const auto t0 = Clock::now();
    advance(stop - step);
    b.synchronize();
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    step = stop;
    if (every && (step % every == 0 || step == end)) frame();
    if (cp_every && step % cp_every == 0 && step != end) save();
  }
  progress::end();
  if (!o.checkpoint.empty()) save();
  r.steps_per_repeat = end - first;
  const double tps = seconds > 0.0 ? static_cast<double>(end - first) / seconds : 0.0;
  r.tps = {tps};
  r.tps_median = r.tps_min = r.tps_max = tps;
  r.mps_median = tps * static_cast<double>(r.n) * 1e-6;
}

io::H5mdMetadata metadata(const BenchCase& c, const BenchResult& r) {
  return {"", c.workload_name(), setup_of(c), r.backend, r.variant_requested, c.workload->trajectory_units()};
}

// The identity of this run (with its actual N); a checkpoint to continue
// must match it.
io::CheckpointIdentity identity_checked(const BenchCase& c, const std::string& backend, const Variant& v,
                                        uint64_t n, const OutputOptions& o,
                                        const std::optional<io::CheckpointFile>& from) {
  io::CheckpointIdentity id = checkpoint_identity(c, backend, v, n);
  if (from) io::require_same_run(from->identity, id, o.restart);
  return id;
}

// The run of one case with its outputs: MD particles or a solvent alone,
// through the one Simulation.
BenchResult run_simulation(const BenchCase& c, const BackendRegistry& reg, const std::string& backend,
                           const ResolvedVariant& rv, const OutputOptions& o,
                           const std::optional<io::CheckpointFile>& from, const CommunicatorFactory& ranks) {
  BenchResult r;
  SimulationSetup setup = c.make_setup();
  r.n = setup.size();
  // Frames hold the MD particles where there are any (chains in a solvent:
  // the monomers), else the solvent.
  const uint64_t frame_n = setup.md ? setup.md->particles.n_local : setup.size();
  if (!o.checkpoint.empty() && setup.md && setup.md->polymerization.enabled())
    throw_input_error("--checkpoint is not provided for ", c.workload_name(), ": the bonds, types and active ends "
                      "its reactions change are not in the checkpoint format");
  const Box box = setup.box();
  const double dt = setup.step_time();
  if (from && from->identity.workload == c.workload_name() && from->mpcd != !setup.md)
    throw_input_error("checkpoint '", o.restart, "' holds ", from->mpcd ? "an MPCD solvent" : "MD particles",
                      ", not the state of ", c.workload_name());
  const io::CheckpointIdentity id = identity_checked(c, backend, rv.variant, r.n, o, from);
  if (from)
    io::check_restart_state(*from,
                            setup.md ? io::RestartBounds{box, setup.md->type_mass, dt}
                                     : io::RestartBounds{box, {setup.solvent->params.mass}, dt},
                            o.restart);
  Checkpoint solvent_start;
  const Checkpoint* start = nullptr;
  if (from) start = from->mpcd ? &(solvent_start = from->state()) : &from->md;
  Simulation sim(reg.create(backend, rv.variant), std::move(setup), ranks, start);
  describe_case(r, c, sim.backend(), rv, box);
  // On several ranks the frames and checkpoints are gathered (collectives)
  // and rank 0 writes them.
  const bool root = sim.communicator().rank() == 0;
  std::unique_ptr<io::H5mdWriter> traj;
  if (!o.trajectory.empty() && root)
    traj = std::make_unique<io::H5mdWriter>(o.trajectory, frame_n, box, metadata(c, r));
  auto frame = [&] {
    const double t = static_cast<double>(sim.step()) * dt;
    if (sim.has_md()) {
      const ParticleData<double> p = sim.particles();
      if (root)
        traj->append({sim.step(), t, &p.position, &p.velocity, &p.image, &p.type,
                      p.rotational ? &p.orientation : nullptr, p.rotational ? &p.angmom : nullptr});
    } else {
      const MpcdParticles p = sim.solvent_particles();
      if (root) traj->append({sim.step(), t, &p.position, &p.velocity, &p.image, &p.type});
    }
  };
  auto save = [&] {
    const Checkpoint cp = sim.checkpoint();
    if (root) io::write_checkpoint(o.checkpoint, id, cp);
  };
  drive(r, sim.step(), o, sim.backend(), [&](uint64_t k) { sim.run(k); }, frame, save);
  if (traj) traj->close();
  r.neighbors = sim.neighbor_stats();
  r.final_thermo = sim.thermo();
  check_not_diverged(c, r.name, r.final_thermo.temperature, r.final_thermo.pressure, sim.step());
  return r;
}

}  // namespace

void check_output_options(const OutputOptions& o) {
  if (!o.any()) return;
  if (o.steps == 0)
    throw_input_error("--trajectory, --checkpoint and --restart need --steps N (the number of steps to run, or the "
                      "step to run up to after --restart)");
  if (!o.restart.empty()) (void)io::read_checkpoint(o.restart);  // truncated or corrupt: refused now
}

io::CheckpointIdentity checkpoint_identity(const BenchCase& c, const std::string& backend, const Variant& variant,
                                           uint64_t n) {
  // The variant's axes other than precision change the order of the sums,
  // so they are part of the setup too: a continued run must use the same.
  return {c.workload_name(), setup_of(c) + " variant=" + variant.to_string(), backend, to_string(variant.precision), n};
}

BenchResult run_production(const BenchCase& c, const BackendRegistry& registry, const std::string& backend,
                           const ResolvedVariant& rv, const OutputOptions& opt, const CommunicatorFactory& ranks) {
  if (const std::string why = c.workload->decomposition_refusal(); ranks && !why.empty())
    throw_input_error(c.workload_name(), " does not run on several ranks yet: ", why);
  OutputOptions o = opt;
  if (!o.trajectory.empty() && o.every == 0) o.every = std::max<uint64_t>(1, o.steps / 100);
  std::optional<io::CheckpointFile> from;
  if (!o.restart.empty()) {
    // The MD-SCF field of the last update is not in the checkpoint: a
    // continued run would recompute it at its first step, not at the last
    // update, and would not be the uninterrupted run.
    if (const std::string why = c.workload->restart_refusal(); !why.empty())
      throw_input_error("--restart is not provided for ", c.workload_name(), ": ", why);
    from = io::read_checkpoint(o.restart);
    if (from->step > o.steps)
      throw_input_error("--steps ", o.steps, " is before the checkpoint's step ", from->step,
                        ": after --restart, --steps is the step to run up to");
  }
  return run_simulation(c, registry, backend, rv, o, from, ranks);
}

}  // namespace meso::bench
