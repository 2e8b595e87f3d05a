// The options of `mesobench ibi` (ibi_command.cpp: a one-type fluid and its
// pair potential; ibi_melt_mode.cpp: a bead-spring melt and its pair, bond
// and angle potentials).
#pragma once

#include <cstdint>
#include <string>

#include "command.hpp"
#include "meso/run/backend.hpp"
#include "options.hpp"

namespace meso::bench {

struct IbiOptions {
  std::string target, output, json, keyword = "IBI", backend = "auto", variant;
  double rho = 0.0, kT = 1.0, alpha = 1.0, dt = 0.005, gamma = 1.0;
  uint64_t n = 2000, equilibrate = 2000, samples = 200, every = 20, seed = 1;
  int iterations = 5;
  uint32_t points = 1000;
  // The melt: bond and angle targets and where their tables go.
  std::string bond_target, angle_target, bond_output, angle_output;
  std::string melt_targets;  // --melt-targets PREFIX: sample the analytic melt instead
  uint32_t chains = 100, chain_length = 10;
  bool n_given = false;      // --n given (the fluid's; a melt refuses it)
  bool alpha_given = false;  // --alpha given (else 1 for a fluid, 0.5 for a melt)
};

// Every run of the command: Langevin at --kT, --gamma, --dt, --seed.
inline RunParams ibi_langevin(const IbiOptions& o) {
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.kT = o.kT;
  rp.gamma = o.gamma;
  rp.dt = o.dt;
  rp.seed = static_cast<uint32_t>(o.seed);
  return rp;
}

// The checks `mesobench run` applies to the same runs, before anything is
// read or written: the run parameters, the time step against half the
// neighbor list's skin at the thermal speed (workload.hpp), and for a melt
// the density range of table-melt, the workload that runs its tables.
void check_ibi_run(const IbiOptions& o, bool melt);

// --melt-targets PREFIX: the analytic melt's g(r), bond and angle
// distributions written as PREFIX.g.txt, .bond.txt, .angle.txt.
int write_melt_targets(const IbiOptions& o, const ProgressOptions& progress, const CommandContext& ctx);
// The melt's loop: --bond-target and --angle-target given.
int run_ibi_melt(const IbiOptions& o, const ProgressOptions& progress, const CommandContext& ctx);

}  // namespace meso::bench
