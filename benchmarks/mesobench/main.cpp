// mesobench: run named benchmark workloads and validation cases on a chosen
// backend and variant, print a table and write JSON with provenance.
//
//   mesobench                          default suite on the best backend
//   mesobench list [--filter RE]
//   mesobench run --filter RE --backend cpu|cuda|auto --variant STR --json FILE
//   mesobench validate --filter RE [--long] [--param knob=value] [--shard I/N]
//   mesobench validate --merge SHARD.json... --json FILE
//   mesobench validate ... --time-limit S; mesobench validate --resume FILE
//   mesobench compare A.json B.json [--threshold P]
//   mesobench report DIR [-o OUT]
//   mesobench scale --mode weak|strong --workload W --ranks 1,2,4 (--per-rank N | --total N)
//                   [--emit slurm DIR]; mesobench scale --summarize DIR
//   mpirun -np R mesobench scale-point --workload W --n N ...   (one point of a sweep)
#include <cmath>
#include <iostream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "backends.hpp"
#include "compare.hpp"
#include "meso/error.hpp"
#include "meso/provenance.hpp"
#include "meso/validation/validation_case.hpp"
#include "production.hpp"
#include "trajectory_sink.hpp"
#include "output_paths.hpp"
#include "progress_line.hpp"
#include "report.hpp"
#include "results_report.hpp"
#include "runner.hpp"
#include "scale.hpp"
#include "validate.hpp"
#include "variant_defaults.hpp"
#include "workloads.hpp"
#ifdef MESO_HAVE_MPI
#include "meso/scaling/mpi_communicator.hpp"
#endif

namespace {

using namespace meso;
using namespace meso::bench;

constexpr uint64_t kCpuDefaultMaxN = 262144;

// The options of every subcommand: the shared ones (filter, backend, variant,
// json, params, seed, long form) and validate's live in ValidateOptions, which
// `validate` receives as is; run and list add their timing and size options.
struct CommonOptions : ValidateOptions {
  int repeats = 5;
  double min_time = 0.2;
  double warmup_time = 0.3;
  uint64_t max_n = 0;
  bool list_variants = false;
  bool quiet = false;               // no progress lines
  double progress_interval = 10.0;  // seconds between plain progress lines (not a terminal)
  OutputOptions out;  // run --steps, --trajectory, --checkpoint, --restart (production.hpp)
};

// --max-n takes a particle count; CLI11 would wrap "-1" into 2^64 - 1.
const CLI::Validator kParticleCount(
    [](std::string& v) -> std::string {
      const bool digits = !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
      return digits && v.find_first_not_of('0') != std::string::npos
                 ? ""
                 : "value '" + v + "' is invalid: it must be a particle count >= 1";
    },
    "N >= 1");

// CLI::Range lets "nan" through (every comparison with NaN is false).
const CLI::Validator kFinite(
    [](std::string& v) -> std::string {
      try {
        std::size_t used = 0;
        const double x = std::stod(v, &used);
        if (used == v.size() && std::isfinite(x)) return "";
      } catch (const std::exception&) {
      }
      return "value '" + v + "' is invalid: it must be a finite number";
    },
    "finite");

// An output option given as '' would otherwise be taken as "not given".
const CLI::Validator kFileName(
    [](std::string& v) -> std::string { return v.empty() ? "value '' is invalid: give a file name" : ""; },
    "FILE");

// --quiet and --progress-interval of the commands that run simulations.
void add_progress_options(CLI::App* app, CommonOptions& o) {
  app->add_flag("--quiet,-q", o.quiet, "No progress lines on stderr");
  app->add_option("--progress-interval", o.progress_interval,
                  "Seconds between progress lines when stderr is not a terminal (a terminal gets a live line)")
      ->check(kFinite)
      ->check(CLI::Range(0.0, 86400.0));
}

struct Selection {
  std::vector<BenchCase> cases;
  std::vector<std::string> names;
  std::vector<ResolvedVariant> variants;  // per case: its workload's default under --variant
  std::string backend;                    // resolved
};

// Resolves the backend and each case's variant (its workload's default for
// the backend and precision, overridden axis by axis by --variant:
// variant_defaults.hpp), applies --param overrides, and keeps the cases
// whose full name matches the filter (or the default suite without one).
Selection select(const CommonOptions& o, const BackendRegistry& reg, bool for_listing) {
  Selection s;
  Variant::parse(o.variant);  // a bad --variant is refused before anything else
  s.backend = reg.resolve(o.backend);
  // Creating the backend validates name and variant before anything runs;
  // one probe per distinct variant.
  std::map<std::string, std::vector<std::string>> axes_of;
  auto effective = [&](const Variant& v) {
    const std::string key = v.to_string();
    auto it = axes_of.find(key);
    if (it == axes_of.end()) it = axes_of.emplace(key, reg.create(s.backend, v)->applicable_axes()).first;
    return v.to_string(it->second);
  };
  const uint64_t max_n = o.max_n ? o.max_n : (s.backend == "cpu" ? kCpuDefaultMaxN : 0);
  const std::regex re = compile_filter(o.filter);
  for (BenchCase c : all_cases()) {
    const ResolvedVariant rv = resolve_variant(c.workload, s.backend, o.variant);
    const std::string eff = effective(rv.variant);
    // The filter selects registered cases by their registered names; --param
    // then overrides parameters of the selected ones (and renames them).
    const bool wanted = o.filter.empty() && !for_listing
                            ? c.in_default_suite
                            : std::regex_search(c.name(s.backend, eff), re);
    if (!wanted || (max_n && c.n() > max_n)) continue;
    for (const auto& kv : o.params) apply_param(c, kv);
    const std::string name = c.name(s.backend, eff);
    // Catch bad physical parameters before the first case runs.
    c.validate();
    s.cases.push_back(c);
    s.names.push_back(name);
    s.variants.push_back(rv);
  }
  // A listing may match only validation cases (`list --filter poiseuille`).
  bool validation_match = false;
  for (const auto& v : validation::all_cases()) validation_match = validation_match || std::regex_search(v.name, re);
  if (s.cases.empty() && !(for_listing && validation_match))
    throw_input_error("--filter '", o.filter, "' matches no benchmark case",
                      max_n ? " with N <= " + std::to_string(max_n) + " (see --max-n)" : "",
                      "; `mesobench list` shows the names");
  return s;
}

// `list --variants`: the default-variant table (no backend is created, so
// it also answers on a machine without the backend's device).
int cmd_list_variants() {
  for (const auto& d : variant_defaults())
    std::cout << d.workload << ' ' << d.backend << ' ' << to_string(d.precision) << ' ' << d.variant
              << (default_precision(d.workload, d.backend) == d.precision ? "  [default]" : "") << "\n    "
              << d.evidence << '\n';
  std::cout << "(any other workload, backend and precision: the axes' defaults, "
            << Variant{}.to_string() << ", in that precision)\n";
  return 0;
}

int cmd_list(const CommonOptions& o, const BackendRegistry& reg) {
  if (o.list_variants) return cmd_list_variants();
  const Selection s = select(o, reg, true);
  for (std::size_t i = 0; i < s.names.size(); ++i)
    std::cout << s.names[i] << (s.cases[i].in_default_suite ? "  [default]" : "") << '\n';
  const std::regex re = compile_filter(o.filter);
  for (const auto& v : validation::all_cases())
    if (std::regex_search(v.name, re)) {
      std::cout << "validate: " << v.name << '\n';
      for (const auto& k : v.knobs) std::cout << "    --param " << k << '\n';
    }
  return 0;
}

// Every file `run` or `validate` reads and writes, checked together before
// anything runs (output_paths.hpp): no output overwrites an input or another.
void check_paths(const CommonOptions& o) {
  PathPlan plan;
  plan.read("--restart", o.out.restart);
  plan.read("--resume", o.resume);
  for (const auto& m : o.merge) plan.read("--merge", m);
  plan.write("--json", o.json);
  plan.write("--trajectory", o.out.trajectory);
  plan.write("--checkpoint", o.out.checkpoint);
  // Continuing in place: the input is read whole before it is replaced.
  plan.allow_same("--checkpoint", "--restart");
  plan.allow_same("--json", "--resume");
  plan.check();
}

int cmd_run(const CommonOptions& o, const BackendRegistry& reg) {
  check_paths(o);
  check_output_options(o.out);
  const Selection s = select(o, reg, false);
  const bool files = !o.out.trajectory.empty() || !o.out.checkpoint.empty() || !o.out.restart.empty();
  if (files && s.cases.size() != 1)
    throw_input_error("--trajectory, --checkpoint and --restart need exactly one case; --filter '", o.filter,
                      "' selects ", s.cases.size());
  RunOptions ro;
  ro.repeats = o.repeats;
  ro.min_time = o.min_time;
  ro.warmup_time = o.warmup_time;
  ro.inspect = inspect_backend;
  ro.inspect_mpcd = inspect_mpcd_backend;
  const Provenance prov = collect_provenance();
  std::cout << "mesobench " << prov.version << " (" << prov.git_commit << ", " << prov.build_type
            << ")  backend " << s.backend << "  CPU: " << prov.cpu_model << " x" << prov.cpu_threads
            << " threads  GPU: " << (prov.gpu_model.empty() ? "none" : prov.gpu_model) << "\n\n";
  std::vector<BenchResult> results;
  for (std::size_t k = 0; k < s.cases.size(); ++k) {
    results.push_back(o.out.steps ? run_production(s.cases[k], reg, s.backend, s.variants[k], o.out)
                                  : run_case(s.cases[k], reg, s.backend, s.variants[k], ro));
    std::cerr << "  done " << results.back().name << '\n';
  }
  print_table(results);
  if (!o.json.empty()) {
    nlohmann::json doc = result_document("benchmark", prov);
    doc["results"] = nlohmann::json::array();
    for (const auto& r : results) doc["results"].push_back(to_json(r));
    write_json_atomically(o.json, doc);
    std::cout << "\nwrote " << o.json << '\n';
  }
  return 0;
}

// validate --trajectory: every simulation the cases run hands its frames to
// the sink (meso/io/frame_sink.hpp); the files are complete when it returns.
int cmd_validate_with_trajectory(const CommonOptions& o, const BackendRegistry& reg) {
  if (o.out.trajectory.empty()) return cmd_validate(o, reg);
  if (!o.merge.empty()) throw_input_error("--trajectory with --merge: merging runs no simulation");
  H5mdFrameSink sink(o.out.trajectory, o.out.every ? o.out.every : 1000,
                     {"", "validate " + o.filter, "", o.backend, o.variant});
  const int rc = cmd_validate(o, reg);
  for (const auto& f : sink.finish()) std::cout << "wrote " << f << '\n';
  return rc;
}

void add_selection_options(CLI::App* app, CommonOptions& o) {
  app->add_option("--filter", o.filter, "Regular expression matched against the full case name");
  app->add_option("--backend", o.backend, "Backend: auto (best present), cpu, cuda");
  app->add_option("--variant", o.variant,
                  "Variant axes over each workload's default variant (`list --variants`), e.g. "
                  "precision=double,rng=philox (axes: nlist cells reorder sort pow precision rng fuse "
                  "tpp noise gather)");
}

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
    out.push_back(std::stoi(item));
    pos = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef MESO_HAVE_MPI
  // MPI only when launched by mpirun/srun (scale-point); a plain run never starts it.
  meso::scaling::MpiSession mpi(argc, argv);
  const meso::scaling::MpiSession* mpi_session = &mpi;
#else
  const meso::scaling::MpiSession* mpi_session = nullptr;
#endif
  CommonOptions o;
  CLI::App app{"mesobench: benchmark and validation suite for GPU mesoscale particle simulation"};
  app.set_version_flag("--version", "mesobench " + collect_provenance().version);
  app.require_subcommand(0, 1);

  auto* list = app.add_subcommand("list", "List benchmark and validation case names");
  add_selection_options(list, o);
  list->add_option("--param", o.params, "Override a workload parameter, key=value (repeatable)");
  list->add_option("--max-n", o.max_n, "Largest N listed (default: 262144 on cpu, no limit otherwise)")
      ->check(kParticleCount);
  list->add_flag("--variants", o.list_variants,
                 "Print each workload's default variant per backend and precision, and why");

  auto* run = app.add_subcommand("run", "Run benchmark cases (default suite without --filter)");
  add_selection_options(run, o);
  run->add_option("--json", o.json, "Write results with provenance to this JSON file")->check(kFileName);
  run->add_option("--param", o.params,
                  "Override a workload parameter, key=value (dpd-fluid: rho a gamma kT rc s N L dt "
                  "skin rebuild_every integrator lambda seed types; lj-liquid: rho phi kT rc ron mode N dt "
                  "skin rebuild_every integrator tau gamma seed; mdscf-dppc: lipids waters replicate lx ly "
                  "lz kelvin grid sigma update kappa rho0 dt(ps) gamma(1/ps) seed; srd-fluid: L N rho kT angle "
                  "dt rule thermostat shift seed); repeatable");
  run->add_option("--repeats", o.repeats, "Timed repeats per case (median and spread reported)")
      ->check(CLI::Range(1, 1000));
  run->add_option("--min-time", o.min_time, "Seconds per timed repeat, at least")
      ->check(kFinite)
      ->check(CLI::Range(1e-3, 3600.0));
  run->add_option("--warmup-time", o.warmup_time, "Seconds of untimed warm-up steps")
      ->check(kFinite)
      ->check(CLI::Range(0.0, 3600.0));
  run->add_option("--steps", o.out.steps,
                  "Run exactly this many steps (after --restart: up to this step) instead of timed repeats")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 62));
  auto* traj = run->add_option("--trajectory", o.out.trajectory,
                                "Write an H5MD trajectory to this file (needs --steps)")
                   ->check(kFileName);
  run->add_option("--every", o.out.every, "Steps between trajectory frames (default: --steps / 100)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 62))
      ->needs(traj);
  auto* ckpt = run->add_option("--checkpoint", o.out.checkpoint,
                               "Write the full state to this file at the end (and every --checkpoint-every steps)")
                   ->check(kFileName);
  run->add_option("--checkpoint-every", o.out.checkpoint_every, "Steps between checkpoints")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 62))
      ->needs(ckpt);
  run->add_option("--restart", o.out.restart,
                  "Continue the run saved in this checkpoint (same case, backend and variant), bit for bit")
      ->check(CLI::ExistingFile);
  run->add_option("--max-n", o.max_n, "Skip cases with more particles (default: 262144 on cpu)")
      ->check(kParticleCount);
  add_progress_options(run, o);

  auto* validate = app.add_subcommand("validate", "Run validation cases and their pass/fail gates");
  add_selection_options(validate, o);
  validate->add_option("--json", o.json, "Write the results (with series for plots) to this file")->check(kFileName);
  validate->add_flag("--long", o.long_form, "Full form (published system size; meant for a GPU)");
  validate->add_option("--param", o.params,
                       "Override a knob of the selected cases, key=value (see `mesobench list`); "
                       "repeatable; for smoke tests, not the published protocol");
  validate->add_option("--seed", o.seed, "Seed of the initial configuration and noise")
      ->check(CLI::Range(uint64_t{1}, uint64_t{0xffffffff}));
  auto* shard = validate->add_option(
      "--shard", o.shard,
      "Run shard I of N of each case's independent repeats (I/N, 0 <= I < N; e.g. one per GPU or Slurm "
      "array task); join the shards' JSON with --merge");
  validate->add_option("--merge", o.merge,
                       "Join these shard JSON files (all N shards of one run) and evaluate the gates; runs "
                       "nothing")
      ->expected(1, -1)
      ->excludes(shard)
      ->check(CLI::ExistingFile);
  validate->add_option("--time-limit", o.time_limit,
                       "Seconds of wall time, after which a resumable case (nve-drift) stops at the next safe "
                       "point and writes what --resume needs (exit code 3)")
      ->check(kFinite)
      ->check(CLI::Range(0.0, 1e9));
  validate->add_option("--resume", o.resume,
                       "Continue the run stopped at its time limit in this JSON file (its settings are reused)")
      ->check(CLI::ExistingFile);
  auto* vtraj = validate->add_option(
      "--trajectory", o.out.trajectory,
      "Write each simulation the cases run as H5MD: FILE, then FILE with .1, .2, ... before its extension")
                    ->check(kFileName);
  validate->add_option("--every", o.out.every, "Steps between trajectory frames (default 1000)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 62))
      ->needs(vtraj);
  add_progress_options(validate, o);

  CompareOptions co;
  auto* compare = app.add_subcommand(
      "compare", "Compare two result files per case (ratios, U test); exit 4 on a regression beyond the threshold");
  compare->add_option("A", co.a, "Baseline result JSON")->required()->check(CLI::ExistingFile);
  compare->add_option("B", co.b, "Contender result JSON")->required()->check(CLI::ExistingFile);
  compare->add_option("--threshold", co.threshold_percent,
                      "Percent drop of median TPS that counts as a regression (default 5)");

  ReportOptions ro;
  auto* report = app.add_subcommand(
      "report", "Turn a results directory into figures and one Markdown page (python3 with matplotlib)");
  report->add_option("DIR", ro.dir, "Results directory (searched recursively for *.json, *.json.xz)")->required();
  report->add_option("-o,--output", ro.out,
                    "Output directory: new, empty, or an earlier report, whose files alone are replaced "
                    "(default mesobench-report)");

  ScaleOptions so;
  std::string ranks_list = "1,2";
  auto* scale = app.add_subcommand(
      "scale", "Weak or strong scaling sweep over MPI ranks through mpirun, or Slurm batch scripts for one");
  scale->add_option("--mode", so.mode, "weak (--per-rank fixed) or strong (--total fixed)")
      ->check(CLI::IsMember({"weak", "strong"}));
  scale->add_option("--workload", so.workload, "dpd-fluid, lj-liquid, or srd-fluid (CPU ranks; a step is a collision)");
  scale->add_option("--ranks", ranks_list, "Rank counts of the sweep, e.g. 1,2,4,8 (one rank per GPU with cuda)");
  scale->add_option("--per-rank", so.per_rank, "Particles per rank (weak)")->check(kParticleCount);
  scale->add_option("--total", so.total, "Particles of the whole system (strong)")->check(kParticleCount);
  scale->add_option("--steps", so.steps, "Timed steps per repeat")->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  scale->add_option("--warmup", so.warmup, "Untimed steps first")->check(CLI::Range(uint64_t{0}, uint64_t{1} << 40));
  scale->add_option("--repeats", so.repeats, "Timed repeats per point")->check(CLI::Range(1, 1000));
  scale->add_option("--backend", so.backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
  scale->add_option("--variant", so.variant, "Variant axes over the workload's default");
  scale->add_option("--param", so.params, "Workload parameter key=value (as for run); repeatable");
  scale->add_option("--grid", so.grid, "Rank grid AxBxC (default: the least domain surface)");
  scale->add_option("--out", so.out, "Directory of the point files and summary.json (local sweep)");
  scale->add_option("--mpirun", so.mpirun, "Launcher of the local sweep (default mpirun)");
  scale->add_option("--mpirun-args", so.mpirun_args, "Extra launcher arguments, e.g. '--bind-to none'");
  auto* emit = scale->add_option("--emit", so.emit, "slurm: write batch scripts instead of running")
                   ->check(CLI::IsMember({"slurm"}));
  scale->add_option("emit_dir", so.emit_dir, "Directory of the batch scripts (with --emit slurm)")->needs(emit);
  scale->add_option("--tasks-per-node", so.tasks_per_node, "Ranks per node in the batch scripts (default: GPUs per "
                    "node 4 with cuda, all on one node with cpu)")->check(CLI::Range(1, 1 << 20));
  scale->add_option("--gpus-per-task", so.gpus_per_task, "GPUs per rank (default 1 with cuda, 0 with cpu)")
      ->check(CLI::Range(0, 64));
  scale->add_option("--cpus-per-task", so.cpus_per_task, "Cores per rank (sets OMP_NUM_THREADS)")->check(CLI::Range(1, 1024));
  scale->add_option("--time", so.time_limit, "Slurm time limit per point (HH:MM:SS)");
  scale->add_option("--partition", so.partition, "Slurm partition");
  scale->add_option("--account", so.account, "Slurm account");
  scale->add_option("--launcher", so.launcher, "Launcher inside the batch scripts: srun or mpirun")
      ->check(CLI::IsMember({"srun", "mpirun"}));
  scale->add_option("--summarize", so.summarize, "Join the point files of DIR into DIR/summary.json; runs nothing")
      ->check(CLI::ExistingDirectory);

  ScalePointOptions po;
  auto* point = app.add_subcommand("scale-point", "One point of a scaling sweep, on the ranks mpirun or srun started");
  point->add_option("--workload", po.workload, "dpd-fluid, lj-liquid or srd-fluid");
  point->add_option("--n", po.n, "Particles of the whole system")->required()->check(kParticleCount);
  point->add_option("--steps", po.steps, "Timed steps per repeat")->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  point->add_option("--warmup", po.warmup, "Untimed steps first")->check(CLI::Range(uint64_t{0}, uint64_t{1} << 40));
  point->add_option("--repeats", po.repeats, "Timed repeats")->check(CLI::Range(1, 1000));
  point->add_option("--backend", po.backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
  point->add_option("--variant", po.variant, "Variant axes over the workload's default");
  point->add_option("--param", po.params, "Workload parameter key=value; repeatable");
  point->add_option("--grid", po.grid, "Rank grid AxBxC (default: the least domain surface)");
  point->add_option("--mode", po.mode, "Recorded: weak or strong");
  point->add_option("--per-rank", po.per_rank, "Recorded: particles per rank of a weak sweep");
  point->add_option("--json", po.json, "Write the point (kind scaling) here, from rank 0")->check(kFileName);
  point->add_flag("--quiet,-q", o.quiet, "No progress lines");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "mesobench: error: " << e.what() << "\n(run with --help for usage)\n";
    return kExitInputError;
  }

  try {
    BackendRegistry registry;
    register_backends(registry);
    if (*compare) return cmd_compare(co);
    if (*scale) {
      so.ranks = parse_rank_list(ranks_list);
      if (so.emit == "slurm" && so.emit_dir.empty()) throw_input_error("--emit slurm needs a directory: --emit slurm DIR");
      return cmd_scale(so);
    }
    if (*point) {
      try {
        const ProgressScope progress(true, 0.0);
        return cmd_scale_point(po, mpi_session);
      } catch (const std::exception& e) {
        // One rank's error would leave the others waiting in a collective.
        const bool input = dynamic_cast<const InputError*>(&e) != nullptr;
        std::cerr << "mesobench: " << (input ? "error" : "failed") << ": " << e.what() << '\n';
#ifdef MESO_HAVE_MPI
        if (mpi_session->active() && mpi_session->size() > 1) MPI_Abort(MPI_COMM_WORLD, input ? kExitInputError : 1);
#endif
        return input ? kExitInputError : 1;
      }
    }
    if (*report) return cmd_report(ro);
    if (*list) return cmd_list(o, registry);
    const ProgressScope progress(o.quiet, o.progress_interval);
    if (*validate) check_paths(o);
    if (*validate && !o.merge.empty() && o.out.trajectory.empty()) return cmd_merge(o);
    if (*validate) return cmd_validate_with_trajectory(o, registry);
    return cmd_run(o, registry);  // `run`, or no subcommand: the default suite
  } catch (const InputError& e) {
    std::cerr << "mesobench: error: " << e.what() << '\n';
    return kExitInputError;
  } catch (const std::exception& e) {
    std::cerr << "mesobench: failed: " << e.what() << '\n';
    return 1;
  }
}
