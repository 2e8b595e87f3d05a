// `mesobench list`: the benchmark and validation case names, each
// workload's parameter table (--params), or the default variants (--variants).
#include <iostream>

#include "../case_filter.hpp"
#include "../variant_defaults.hpp"
#include "command.hpp"
#include "meso/validation/validation_case.hpp"
#include "options.hpp"

namespace meso::bench {
namespace {

class ListCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* list = app.add_subcommand("list", "List benchmark and validation case names");
    add_selection_options(list, o_);
    list->add_option("--param", o_.params, "Override a workload parameter, key=value (repeatable)");
    list->add_option("--max-n", o_.max_n, "Largest N listed (default: 262144 on cpu, no limit otherwise)")
        ->check(kParticleCount);
    list->add_flag("--params", params_, "Print each workload's --param keys with their units and meaning");
    list->add_flag("--variants", variants_,
                   "Print each workload's default variant per backend and precision, and why");
    return list;
  }

  int run(const CommandContext& ctx) override {
    if (variants_) return list_variants();
    if (params_) return list_params();
    const Selection s = select_cases(o_, ctx.registry, true);
    for (std::size_t i = 0; i < s.names.size(); ++i)
      std::cout << s.names[i] << (s.cases[i].in_default_suite ? "  [default]" : "") << '\n';
    const CaseFilter re = compile_filter(o_.filter);
    for (const auto& v : validation::all_cases())
      if (re.matches(v.name)) {
        std::cout << "validate: " << v.name << '\n';
        for (const auto& k : v.knobs) std::cout << "    --param " << k << '\n';
      }
    return 0;
  }

 private:
  // The default-variant table (no backend is created, so it also answers
  // on a machine without the backend's device).
  static int list_variants() {
    for (const auto& d : variant_defaults())
      std::cout << d.workload << ' ' << d.backend << ' ' << to_string(d.precision) << ' ' << d.variant
                << (default_precision(d.workload, d.backend) == d.precision ? "  [default]" : "") << "\n    "
                << d.evidence << '\n';
    std::cout << "(any other workload, backend and precision: the axes' defaults, " << Variant{}.to_string()
              << ", in that precision)\n";
    return 0;
  }

  // Every workload's parameter table (the one --param, its error messages
  // and the JSON use), for the workloads whose name --filter matches.
  int list_params() const {
    const CaseFilter re = compile_filter(o_.filter);
    for (const Workload* w : workloads()) {
      if (!o_.filter.empty() && !re.matches(w->name())) continue;
      std::cout << w->name() << ": " << w->summary() << '\n';
      for (const auto& p : w->params()) {
        std::string key = "  " + p.key + (p.unit.empty() ? "" : " [" + p.unit + "]");
        key.resize(std::max<std::size_t>(key.size() + 1, 24), ' ');
        std::cout << key << p.meaning;
        if (p.range) std::cout << "; " << format_number(p.range->lo) << " .. " << format_number(p.range->hi);
        std::cout << '\n';
      }
    }
    return 0;
  }

  SelectionOptions o_;
  bool params_ = false, variants_ = false;
};

}  // namespace

std::unique_ptr<Command> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace meso::bench
