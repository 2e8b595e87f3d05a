// `mesobench run` (and mesobench with no subcommand: the default suite):
// timed repeats of the selected cases, or one case run for --steps with its
// trajectory and checkpoints.
#include <iostream>

#include "../backends.hpp"
#include "../case_filter.hpp"
#include "../output_paths.hpp"
#include "../production.hpp"
#include "../progress_line.hpp"
#include "../report.hpp"
#include "../runner.hpp"
#include "command.hpp"
#include "meso/core/error.hpp"
#include "meso/run/provenance.hpp"
#include "meso/core/topology.hpp"
#include "options.hpp"
#include "tune_options.hpp"
#ifdef MESO_HAVE_MPI
#include "meso/scaling/mpi_communicator.hpp"
#endif

namespace meso::bench {
namespace {

// The keys of every workload, for --help.
std::string param_keys_help() {
  std::string out;
  for (const Workload* w : workloads()) {
    out += (out.empty() ? "" : "; ") + w->name() + ":";
    for (const auto& p : w->params()) out += " " + p.key;
  }
  return out;
}

class RunCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* run = app.add_subcommand("run", "Run benchmark cases (default suite without --filter)");
    add_selection_options(run, o_);
    run->add_option("--json", json_, "Write results with provenance to this JSON file")->check(kFileName);
    run->add_option("--param", o_.params,
                    "Override a workload parameter, key=value; repeatable (`mesobench list --params` lists "
                    "each workload's keys, units and meaning: " + param_keys_help() + ")");
    run->add_option("--repeats", timing_.repeats,
                    "Timed repeats per case (median and spread reported; default " + format_number(timing_.repeats) +
                        ")")
        ->check(count_in(1, 1000));
    run->add_option("--min-time", timing_.min_time,
                    "Seconds per timed repeat, at least (default " + format_number(timing_.min_time) + ")")
        ->check(kFinite)
        ->check(CLI::Range(1e-3, 3600.0));
    run->add_option("--warmup-time", timing_.warmup_time,
                    "Seconds of untimed warm-up steps (default " + format_number(timing_.warmup_time) + ")")
        ->check(kFinite)
        ->check(CLI::Range(0.0, 3600.0));
    run->add_option("--steps", out_.steps,
                    "Run exactly this many steps (after --restart: up to this step) instead of timed repeats")
        ->check(count_in(1, uint64_t{1} << 62));
    auto* traj = run->add_option("--trajectory", out_.trajectory,
                                 "Write an H5MD trajectory to this file (needs --steps); name it *.h5md, "
                                 "which MDAnalysis reads by its extension (*.h5 works for h5py)")
                     ->check(kFileName);
    run->add_option("--every", out_.every, "Steps between trajectory frames (default: --steps / 100)")
        ->check(count_in(1, uint64_t{1} << 62))
        ->needs(traj);
    auto* ckpt = run->add_option("--checkpoint", out_.checkpoint,
                                 "Write the full state to this file at the end (and every --checkpoint-every steps)")
                     ->check(kFileName);
    run->add_option("--checkpoint-every", out_.checkpoint_every, "Steps between checkpoints")
        ->check(count_in(1, uint64_t{1} << 62))
        ->needs(ckpt);
    run->add_option("--restart", out_.restart,
                    "Continue the run saved in this checkpoint (same case, backend and variant), bit for bit")
        ->check(CLI::ExistingFile);
    run->add_option("--topology", topology_,
                    "Add the bonds and angles of this topology file to each selected MD case (docs/topology.md)")
        ->check(kFileName);
    run->add_option("--max-n", o_.max_n, "Skip cases with more particles (default: 262144 on cpu)")
        ->check(kParticleCount);
    run->add_option("--tuned", tune_.table,
                    "Apply the choices of this table (`mesobench tune`) for this GPU to the settings not named")
        ->check(CLI::ExistingFile);
    run->add_flag("--autotune", tune_.autotune,
                  "Tune each case the table has no choice for before it runs (at most --tune-time seconds)");
    run->add_option("--tune-time", tune_.tune_time, "Seconds of --autotune timing per case, at most")
        ->check(kFinite)
        ->check(CLI::Range(1.0, 3600.0));
    add_progress_options(run, progress_);
    return run;
  }

  int run(const CommandContext& ctx) override {
#ifdef MESO_HAVE_MPI
    // One rank's error would leave the others waiting in a collective.
    if (ctx.mpi && ctx.mpi->active() && ctx.mpi->size() > 1 && out_.steps) {
      try {
        return run_cases(ctx);
      } catch (const std::exception& e) {
        const bool input = dynamic_cast<const InputError*>(&e) != nullptr;
        std::cerr << "mesobench: " << (input ? "error" : "failed") << ": " << e.what() << '\n';
        MPI_Abort(MPI_COMM_WORLD, input ? kExitInputError : 1);
      }
    }
#endif
    return run_cases(ctx);
  }

 private:
  int run_cases(const CommandContext& ctx) {
    // Under mpirun a run of --steps is decomposed over the ranks
    // (docs/scaling.md); rank 0 prints and writes the files.
    int rank = 0;
    CommunicatorFactory ranks;
#ifdef MESO_HAVE_MPI
    if (ctx.mpi && ctx.mpi->active() && ctx.mpi->size() > 1 && out_.steps) {
      rank = ctx.mpi->rank();
      ranks = scaling::MpiCommunicator::factory(MPI_COMM_WORLD);
    }
#endif
    // Every file read and written, checked together before anything runs:
    // no output overwrites an input or another output (output_paths.hpp).
    Selection s = select_cases(o_, ctx.registry, false);
    PathPlan plan;
    for (const BenchCase& c : s.cases)
      for (const auto& [what, path] : c.workload->input_files(c)) plan.read(what, path);
    plan.read("--restart", out_.restart);
    plan.read("--topology", topology_);
    plan.read("--tuned", tune_.table);
    plan.write("--json", json_);
    plan.write("--trajectory", out_.trajectory);
    plan.write("--checkpoint", out_.checkpoint);
    plan.allow_same("--checkpoint", "--restart");  // continuing in place: read whole before replaced
    plan.check();
    check_output_options(out_);
    const std::shared_ptr<const Topology> topology = read_topology_option();
#ifdef MESO_HAVE_MPI
    if (ranks && s.backend == "cuda") select_device_for_rank(ctx.mpi->local_rank());  // one GPU a rank
#endif
    const ProgressScope progress(progress_.quiet || rank != 0, progress_.progress_interval);
    tune_.params = o_.params;
    const std::vector<std::string> tuned = apply_tuning(s, tune_, ctx.registry);
    if (topology)
      for (BenchCase& c : s.cases) {
        c.topology = topology;
        c.topology_file = topology_;
        c.validate();  // the workload takes a topology, and its tags fit the case's N
      }
    const bool files = !out_.trajectory.empty() || !out_.checkpoint.empty() || !out_.restart.empty();
    if (files && s.cases.size() != 1)
      throw_input_error("--trajectory, --checkpoint and --restart need exactly one case; --filter '",
                        shown_value(o_.filter), "' selects ", s.cases.size());
    RunOptions ro = timing_;
    ro.inspect = inspect_backend;
    const Provenance prov = collect_provenance();
    if (rank == 0) print_provenance_header(prov, s.backend);
    std::vector<BenchResult> results;
    for (std::size_t k = 0; k < s.cases.size(); ++k) {
      results.push_back(out_.steps ? run_production(s.cases[k], ctx.registry, s.backend, s.variants[k], out_, ranks)
                                   : run_case(s.cases[k], ctx.registry, s.backend, s.variants[k], ro));
      results.back().variant_tuned = tuned[k];
      if (!progress_.quiet && rank == 0) std::cerr << "  done " << results.back().label << '\n';
    }
    if (rank != 0) return 0;
    print_table(results);
    if (!json_.empty()) {
      nlohmann::json doc = result_document("benchmark", prov);
      doc["results"] = nlohmann::json::array();
      for (const auto& r : results) doc["results"].push_back(to_json(r));
      write_json_atomically(json_, doc);
    }
    // Every file written, once complete (the trajectory and the last
    // checkpoint are renamed into place when the run ends).
    std::cout << '\n';
    for (const std::string* f : {&out_.trajectory, &out_.checkpoint, &json_})
      if (!f->empty()) std::cout << "wrote " << *f << '\n';
    return 0;
  }

  // The library's reader and checks (a regular file, every record and
  // parameter); a file without a bond or an angle would add nothing.
  std::shared_ptr<const Topology> read_topology_option() const {
    if (topology_.empty()) return nullptr;
    auto t = std::make_shared<Topology>(read_topology_file(topology_));
    if (t->empty()) throw_input_error("--topology '", excerpt(topology_, 200), "' holds no bond and no angle");
    return t;
  }

  SelectionOptions o_;
  std::string json_;
  std::string topology_;  // --topology FILE
  RunOptions timing_;
  OutputOptions out_;  // --steps, --trajectory, --checkpoint, --restart (production.hpp)
  ProgressOptions progress_;
  TuneApply tune_;  // --tuned, --autotune, --tune-time
};

}  // namespace

std::unique_ptr<Command> make_run_command() { return std::make_unique<RunCommand>(); }

}  // namespace meso::bench
