// `mesobench tune`: the autotuner (tune.hpp) over the selected cases; the
// choices go into a table (--output, merged into the file when it holds one)
// that `mesobench run --tuned FILE` reads. Also the run's --tuned and
// --autotune (apply_tuning).
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "../backends.hpp"
#include "../output_paths.hpp"
#include "../progress_line.hpp"
#include "../report.hpp"
#include "../runner.hpp"
#include "../tune.hpp"
#include "command.hpp"
#include "meso/core/error.hpp"
#include "meso/run/provenance.hpp"
#include "options.hpp"
#include "tune_options.hpp"

namespace meso::bench {

std::vector<std::string> param_keys(const std::vector<std::string>& key_values) {
  std::vector<std::string> keys;
  for (const auto& kv : key_values) keys.push_back(kv.substr(0, kv.find('=')));
  return keys;
}

std::string tune_device(const Provenance& p, const std::string& backend) {
  return backend == "cpu" ? p.cpu_model : p.gpu_model;
}

// Median TPS of a short timed run: 3 repeats of 0.15 s after 0.2 s of warm-up.
double time_candidate(const BenchCase& c, const BackendRegistry& reg, const std::string& backend,
                      const ResolvedVariant& rv) {
  RunOptions ro;
  ro.repeats = 3;
  ro.min_time = 0.15;
  ro.warmup_time = 0.2;
  return run_case(c, reg, backend, rv, ro).tps_median;
}

void print_trials(const TuneEntry& e, const std::string& label) {
  std::cout << "  " << label << ": " << e.choice << "  (" << std::fixed << std::setprecision(0) << e.tps
            << " TPS)\n";
  for (const auto& t : e.trials)
    std::cout << "    " << std::left << std::setw(60) << t["settings"].get<std::string>() << std::right
              << std::setw(12) << t["tps"].get<double>() << '\n';
  std::cout.unsetf(std::ios::fixed);
}

std::vector<std::string> apply_tuning(Selection& s, const TuneApply& t, const BackendRegistry& reg) {
  std::vector<std::string> applied(s.cases.size());
  if (t.table.empty() && !t.autotune) return applied;
  const TuneTable table = t.table.empty() ? TuneTable{} : TuneTable::read(t.table);
  const Provenance prov = collect_provenance();
  const std::string device = tune_device(prov, s.backend);
  const std::vector<std::string> named = param_keys(t.params);
  for (std::size_t k = 0; k < s.cases.size(); ++k) {
    BenchCase& c = s.cases[k];
    ResolvedVariant& rv = s.variants[k];
    std::string choice, from;
    if (const TuneEntry* e = table.find(device, c.workload_name(), s.backend, rv.variant.precision, c.n())) {
      choice = e->choice;
      from = t.table + ", N = " + std::to_string(e->n);
    } else if (t.autotune) {
      if (const auto sp = tune_space(c.workload_name(), s.backend, rv.variant.precision)) {
        const TuneEntry e = tune_case(c, rv, *sp, t.tune_time, named, [&](const BenchCase& cc, const ResolvedVariant& r) {
          return time_candidate(cc, reg, s.backend, r);
        });
        print_trials(e, s.names[k]);
        choice = e.choice;
        from = "--autotune";
      }
    }
    if (choice.empty()) continue;
    const std::string done = apply_choice(choice, c, rv, named);
    if (!done.empty()) applied[k] = done + " (" + from + ")";
  }
  return applied;
}

namespace {

class TuneCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* tune = app.add_subcommand(
        "tune", "Time the tunable settings of the selected cases and write the fastest to a table (--tuned)");
    add_selection_options(tune, o_);
    tune->add_option("--param", o_.params, "Override a workload parameter, key=value; repeatable");
    tune->add_option("-o,--output", output_, "The table to write (entries of the same key replaced)")
        ->required()
        ->check(kFileName);
    tune->add_option("--tune-time", tune_time_, "Seconds of timing per case, at most (a candidate is not cut)")
        ->check(kFinite)
        ->check(CLI::Range(1.0, 3600.0));
    tune->add_option("--max-n", o_.max_n, "Skip cases with more particles (default: 262144 on cpu)")
        ->check(kParticleCount);
    add_progress_options(tune, progress_);
    return tune;
  }

  int run(const CommandContext& ctx) override {
    PathPlan plan;
    plan.write("--output", output_);
    plan.check();
    TuneTable table;
    if (std::filesystem::exists(output_)) table = TuneTable::read(output_);  // refused if not a table
    const ProgressScope progress(progress_.quiet, progress_.progress_interval);
    const Selection s = select_cases(o_, ctx.registry, false);
    const Provenance prov = collect_provenance();
    print_provenance_header(prov, s.backend);
    const std::string device = tune_device(prov, s.backend);
    const std::vector<std::string> named = param_keys(o_.params);
    int tuned = 0;
    for (std::size_t k = 0; k < s.cases.size(); ++k) {
      const auto sp = tune_space(s.cases[k].workload_name(), s.backend, s.variants[k].variant.precision);
      if (!sp) {
        std::cout << "  " << s.names[k] << ": nothing to tune on " << s.backend << '\n';
        continue;
      }
      TuneEntry e = tune_case(s.cases[k], s.variants[k], *sp, tune_time_, named,
                              [&](const BenchCase& c, const ResolvedVariant& rv) {
                                return time_candidate(c, ctx.registry, s.backend, rv);
                              });
      e.device = device;
      e.backend = s.backend;
      e.precision = s.variants[k].variant.precision;
      e.date_utc = prov.date_utc;
      e.git_commit = prov.git_commit;
      print_trials(e, s.names[k]);
      table.put(std::move(e));
      ++tuned;
    }
    if (!tuned)
      throw_input_error("nothing to tune: no selected case has tunable settings on ", s.backend,
                        " (dpd-fluid and lj-liquid on cuda have)");
    nlohmann::json doc = result_document("tune", prov);
    doc.update(table.to_json());
    write_json_atomically(output_, doc);
    std::cout << "\nwrote " << output_ << '\n';
    return 0;
  }

 private:
  SelectionOptions o_;
  std::string output_;
  double tune_time_ = 20.0;
  ProgressOptions progress_;
};

}  // namespace

std::unique_ptr<Command> make_tune_command() { return std::make_unique<TuneCommand>(); }

}  // namespace meso::bench
