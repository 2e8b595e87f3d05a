// `mesobench validate`: the validation cases and their gates, whole or as
// shards of their repeats; --merge joins shards, --resume continues a run
// stopped at its time limit (validate.hpp).
#include <iostream>

#include "../output_paths.hpp"
#include "../production.hpp"
#include "../progress_line.hpp"
#include "../trajectory_sink.hpp"
#include "../validate.hpp"
#include "command.hpp"
#include "meso/core/error.hpp"
#include "options.hpp"

namespace meso::bench {
namespace {

class ValidateCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* v = app.add_subcommand("validate", "Run validation cases and their pass/fail gates");
    add_filter_backend_variant(v, o_.filter, o_.backend, o_.variant);
    v->add_option("--json", o_.json, "Write the results (with series for plots) to this file")->check(kFileName);
    v->add_flag("--long", o_.long_form, "Full form (published system size; meant for a GPU)");
    v->add_option("--param", o_.params,
                  "Override a knob of the selected cases, key=value (see `mesobench list`); "
                  "repeatable; for smoke tests, not the published protocol");
    v->add_option("--control", o_.control,
                  "Run this negative control of each selected case (`mesobench list`): wrong physics its "
                  "gates must reject; exit code 0 when every one rejected it");
    v->add_option("--seed", o_.seed, "Seed of the initial configuration and noise")
        ->check(count_in(1, 0xffffffff));
    auto* shard = v->add_option(
        "--shard", o_.shard,
        "Run shard I of N of each case's independent repeats (I/N, 0 <= I < N; e.g. one per GPU or Slurm "
        "array task); join the shards' JSON with --merge");
    v->add_option("--merge", o_.merge,
                  "Join these shard JSON files (all N shards of one run) and evaluate the gates; runs nothing")
        ->expected(1, -1)
        ->excludes(shard)
        ->check(CLI::ExistingFile);
    v->add_option("--time-limit", o_.time_limit,
                  "Seconds of wall time, after which a resumable case (nve-drift) stops at the next safe "
                  "point and writes what --resume needs (exit code 3)")
        ->check(kFinite)
        ->check(CLI::Range(0.0, 1e9));
    v->add_option("--resume", o_.resume,
                  "Continue the run stopped at its time limit in this JSON file (its settings are reused)")
        ->check(CLI::ExistingFile);
    auto* traj = v->add_option(
                      "--trajectory", trajectory_,
                      "Write each simulation the cases run as H5MD: FILE, then FILE with .1, .2, ... before its "
                      "extension")
                     ->check(kFileName);
    v->add_option("--every", every_, "Steps between trajectory frames (default 1000)")
        ->check(count_in(1, uint64_t{1} << 62))
        ->needs(traj);
    v->add_flag("--force", force_, "Replace existing FILE.1.h5, FILE.2.h5, ... of --trajectory")->needs(traj);
    add_progress_options(v, progress_);
    return v;
  }

  int run(const CommandContext& ctx) override {
    PathPlan plan;
    plan.read("--resume", o_.resume);
    for (const auto& m : o_.merge) plan.read("--merge", m);
    plan.write("--json", o_.json);
    plan.write("--trajectory", trajectory_);
    plan.allow_same("--json", "--resume");  // continuing in place: read whole before replaced
    plan.check();
    // The second simulation's file, the likeliest left by an earlier run,
    // before any work: the later ones are checked as they open.
    if (!trajectory_.empty() && !force_) refuse_existing_numbered(trajectory_, 1);
    const ProgressScope progress(progress_.quiet, progress_.progress_interval);
    if (trajectory_.empty()) return o_.merge.empty() ? cmd_validate(o_, ctx.registry) : cmd_merge(o_);
    // Every simulation the cases run hands its frames to the sink
    // (meso/io/frame_sink.hpp); the files are complete when it returns.
    if (!o_.merge.empty()) throw_input_error("--trajectory with --merge: merging runs no simulation");
    H5mdFrameSink sink(trajectory_, every_ ? every_ : 1000, {"", "validate " + o_.filter, "", o_.backend, o_.variant},
                       force_);
    const int rc = cmd_validate(o_, ctx.registry);
    for (const auto& f : sink.finish()) std::cout << "wrote " << f << '\n';
    return rc;
  }

 private:
  ValidateOptions o_;
  std::string trajectory_;
  bool force_ = false;
  uint64_t every_ = 0;
  ProgressOptions progress_;
};

}  // namespace

std::unique_ptr<Command> make_validate_command() { return std::make_unique<ValidateCommand>(); }

}  // namespace meso::bench
