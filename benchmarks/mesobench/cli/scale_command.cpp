// `mesobench scale` (a weak or strong sweep through mpirun, or Slurm batch
// scripts for one) and `mesobench scale-point` (one point, on the ranks
// mpirun or srun started): scale.hpp, docs/scaling.md.
#include <algorithm>
#include <iostream>

#include "../progress_line.hpp"
#include "../scale.hpp"
#include "command.hpp"
#include "meso/core/error.hpp"
#include "options.hpp"
#ifdef MESO_HAVE_MPI
#include "meso/scaling/mpi_communicator.hpp"
#endif

namespace meso::bench {
namespace {

// The comma-separated rank counts of --ranks.
std::vector<int> parse_rank_list(const std::string& s) {
  std::vector<int> out;
  std::size_t pos = 0;
  while (pos <= s.size()) {
    const std::size_t end = std::min(s.find(',', pos), s.size());
    const std::string item = s.substr(pos, end - pos);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 6 ||
        std::stoi(item) < 1)
      throw_input_error("--ranks '", s, "': '", item, "' is not a rank count (a list like 1,2,4,8)");
    if (std::find(out.begin(), out.end(), std::stoi(item)) != out.end())
      throw_input_error("--ranks '", s, "': ", item, " is given twice (each rank count is one point of the sweep)");
    out.push_back(std::stoi(item));
    pos = end + 1;
  }
  return out;
}

// The options a sweep passes on to each of its points (ScaleOptions and
// ScalePointOptions share their names).
template <class O>
void add_point_options(CLI::App* a, O& o, const char* workloads) {
  a->add_option("--workload", o.workload, workloads);
  a->add_option("--steps", o.steps, "Timed steps per repeat")->check(count_in(1, uint64_t{1} << 40));
  a->add_option("--warmup", o.warmup, "Untimed steps first")->check(count_in(0, uint64_t{1} << 40));
  a->add_option("--backend", o.backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
  a->add_option("--variant", o.variant, "Variant axes over the workload's default");
  a->add_option("--grid", o.grid, "Rank grid AxBxC (default: the least domain surface)");
  a->add_option("--transport", o.transport,
                "How GPU ranks' records travel: ipc, nccl or host (default: nccl for srd-fluid where NCCL is "
                "built and each rank has a GPU of its own, else ipc; docs/scaling.md)")
      ->check(CLI::IsMember({"ipc", "nccl", "host"}));
}

class ScaleCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* s = app.add_subcommand(
        "scale", "Weak or strong scaling sweep over MPI ranks through mpirun, or Slurm batch scripts for one");
    s->add_option("--mode", o_.mode, "weak (--per-rank fixed) or strong (--total fixed)")
        ->check(CLI::IsMember({"weak", "strong"}));
    add_point_options(s, o_, "dpd-fluid, lj-liquid, or srd-fluid (a step is a collision)");
    s->add_option("--ranks", ranks_, "Rank counts of the sweep, e.g. 1,2,4,8 (one rank per GPU with cuda)");
    s->add_option("--per-rank", o_.per_rank, "Particles per rank (weak)")->check(kParticleCount);
    s->add_option("--total", o_.total, "Particles of the whole system (strong)")->check(kParticleCount);
    s->add_option("--repeats", o_.repeats, "Timed repeats per point")->check(count_in(1, 1000));
    s->add_option("--param", o_.params, "Workload parameter key=value (as for run); repeatable");
    s->add_option("--out", o_.out, "Directory of the point files and summary.json (local sweep)");
    launcher_opts_ = {
        s->add_option("--mpirun", o_.mpirun,
                      "MPI launcher of a local sweep, or of the scripts' --launcher mpirun (default mpirun)"),
        s->add_option("--mpirun-args", o_.mpirun_args,
                      "Extra mpirun arguments, split as a shell would: '--bind-to none'")};
    auto* emit =
        s->add_option("--emit", o_.emit, "slurm: write batch scripts instead of running")->check(CLI::IsMember({"slurm"}));
    s->add_option("emit_dir", o_.emit_dir, "Directory of the batch scripts (with --emit slurm)")->needs(emit);
    s->add_option("--tasks-per-node", o_.tasks_per_node,
                  "Ranks per node in the batch scripts (default: GPUs per node 4 with cuda, all on one node with cpu)")
        ->check(count_in(1, 1 << 20));
    s->add_option("--gpus-per-task", o_.gpus_per_task, "GPUs per rank (default 1 with cuda, 0 with cpu)")
        ->check(count_in(0, 64));
    s->add_option("--cpus-per-task", o_.cpus_per_task, "Cores per rank (sets OMP_NUM_THREADS)")
        ->check(count_in(1, 1024));
    s->add_option("--time", o_.time_limit, "Slurm time limit per point: M, M:S, H:M:S, D-H, D-H:M or D-H:M:S");
    s->add_option("--partition", o_.partition, "Slurm partition (letters, digits, _ - . ,)");
    s->add_option("--account", o_.account, "Slurm account (letters, digits, _ - . ,)");
    s->add_option("--launcher", o_.launcher, "Launcher inside the batch scripts: srun or mpirun")
        ->check(CLI::IsMember({"srun", "mpirun"}));
    s->add_flag("--force", o_.force, "Replace the scripts an earlier --emit slurm wrote into DIR")->needs(emit);
    s->add_option("--summarize", o_.summarize, "Join the point files of DIR into DIR/summary.json; runs nothing")
        ->check(CLI::ExistingDirectory);
    return s;
  }

  int run(const CommandContext&) override {
    o_.ranks = parse_rank_list(ranks_);
    if (o_.emit == "slurm" && o_.emit_dir.empty()) throw_input_error("--emit slurm needs a directory: --emit slurm DIR");
    for (const CLI::Option* opt : launcher_opts_) o_.mpirun_given = o_.mpirun_given || opt->count() > 0;
    return cmd_scale(o_);
  }

 private:
  ScaleOptions o_;
  std::string ranks_ = "1,2";
  std::vector<CLI::Option*> launcher_opts_;  // --mpirun, --mpirun-args
};

class ScalePointCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* p = app.add_subcommand("scale-point", "One point of a scaling sweep, on the ranks mpirun or srun started");
    add_point_options(p, o_, "dpd-fluid, lj-liquid or srd-fluid");
    p->add_option("--n", o_.n, "Particles of the whole system")->required()->check(kParticleCount);
    p->add_option("--repeats", o_.repeats, "Timed repeats")->check(count_in(1, 1000));
    p->add_option("--param", o_.params, "Workload parameter key=value; repeatable");
    p->add_option("--mode", o_.mode, "Recorded: weak or strong");
    p->add_option("--per-rank", o_.per_rank, "Recorded: particles per rank of a weak sweep");
    p->add_option("--json", o_.json, "Write the point (kind scaling) here, from rank 0")->check(kFileName);
    p->add_flag("--quiet,-q", quiet_, "No progress lines (a point never prints them)");
    return p;
  }

  int run(const CommandContext& ctx) override {
    try {
      const ProgressScope progress(true, 0.0);
      return cmd_scale_point(o_, ctx.mpi);
    } catch (const std::exception& e) {
      // One rank's error would leave the others waiting in a collective.
      const bool input = dynamic_cast<const InputError*>(&e) != nullptr;
      std::cerr << "mesobench: " << (input ? "error" : "failed") << ": " << e.what() << '\n';
#ifdef MESO_HAVE_MPI
      if (ctx.mpi->active() && ctx.mpi->size() > 1) MPI_Abort(MPI_COMM_WORLD, input ? kExitInputError : 1);
#endif
      return input ? kExitInputError : 1;
    }
  }

 private:
  ScalePointOptions o_;
  bool quiet_ = false;
};

}  // namespace

std::unique_ptr<Command> make_scale_command() { return std::make_unique<ScaleCommand>(); }
std::unique_ptr<Command> make_scale_point_command() { return std::make_unique<ScalePointCommand>(); }

}  // namespace meso::bench
