// `mesobench run --steps N`: one case run for exactly N steps (or up to step
// N when continuing a checkpoint), untimed warm-up aside, with its outputs:
// H5MD trajectory frames every `every` steps, checkpoints every
// `checkpoint_every` steps and at the end, and --restart from a checkpoint.
// The run loop advances in chunks that end on each output step, so output
// costs nothing between them and the steps are those of an unchunked run.
#pragma once

#include <cstdint>
#include <string>

#include "meso/io/checkpoint_file.hpp"
#include "runner.hpp"

namespace meso::bench {

struct OutputOptions {
  uint64_t steps = 0;              // 0: a timed benchmark (no outputs allowed)
  std::string trajectory;          // H5MD file
  uint64_t every = 0;              // steps between frames (0: --steps / 100, at least 1)
  std::string checkpoint;          // checkpoint file, rewritten every checkpoint_every steps
  uint64_t checkpoint_every = 0;   // 0: only at the end
  std::string restart;             // checkpoint to continue
  bool any() const { return steps || !trajectory.empty() || !checkpoint.empty() || !restart.empty(); }
};

// Refuses (InputError) combinations that cannot work before anything runs:
// outputs without --steps, a restart file that is unreadable, truncated or
// corrupt. The paths themselves are checked by output_paths.hpp.
void check_output_options(const OutputOptions& o);

// What a checkpoint of this case must match to be continued.
io::CheckpointIdentity checkpoint_identity(const BenchCase& c, const std::string& backend,
                                           const Variant& variant, uint64_t n);

// Runs the case for o.steps steps (to step o.steps after a restart), with
// the outputs; TPS is over the steps run, output excluded (one repeat).
// `ranks` (under mpirun: MpiCommunicator::factory) decomposes the run;
// rank 0 then writes the trajectory and the checkpoints, gathered. A
// workload that does not decompose is refused with its reason.
BenchResult run_production(const BenchCase& c, const BackendRegistry& registry, const std::string& backend,
                           const ResolvedVariant& variant, const OutputOptions& o,
                           const CommunicatorFactory& ranks = {});

}  // namespace meso::bench
