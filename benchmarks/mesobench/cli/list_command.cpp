// `mesobench list`: the benchmark and validation case names, each
// workload's parameter table (--params), or the default variants (--variants).
#include <iostream>

#include "../case_filter.hpp"
#include "../variant_defaults.hpp"
#include "../workload.hpp"
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
    list->add_flag("--names", names_,
                   "Print each case's whole name on one line (for scripts), not grouped by variant");
    list->add_flag("--controls", controls_,
                   "Print each validation case's negative controls, a line each, tab-separated (for "
                   "scripts): case, control, where its rejection is shown (ci, device, device-long), its "
                   "knobs, the committed result that shows it");
    list->add_flag("--variants", variants_,
                   "Print each workload's default variant per backend and precision, and why, "
                   "then every variant axis with its values");
    return list;
  }

  int run(const CommandContext& ctx) override {
    if (variants_) return list_variants();
    if (params_) return list_params();
    if (controls_) return list_controls();
    const Selection s = select_cases(o_, ctx.registry, true);
    // A case name is workload/kind/backend/variant/parameters, up to 116
    // columns: the cases of one variant under a line naming it, each with its
    // parameters, so that the list fits 100 columns (a case's name is the two
    // joined; --names prints them whole, one a line, for scripts).
    std::string group;
    for (std::size_t i = 0; i < s.names.size(); ++i) {
      const std::string mark = s.cases[i].in_default_suite ? "  [default]" : "";
      if (names_) {
        std::cout << s.names[i] << mark << '\n';
        continue;
      }
      std::size_t cut = 0;
      for (int k = 0; k < 4 && cut != std::string::npos; ++k) cut = s.names[i].find('/', k == 0 ? 0 : cut + 1);
      const std::string head = cut == std::string::npos ? s.names[i] : s.names[i].substr(0, cut + 1);
      if (head != group) std::cout << (group = head) << '\n';
      if (cut != std::string::npos) std::cout << "    " << s.names[i].substr(cut + 1) << mark << '\n';
    }
    const CaseFilter re = compile_filter(o_.filter);
    for (const auto& v : validation::all_cases())
      if (re.matches(v.name)) {
        std::cout << "validate: " << v.name << '\n';
        // The workload whose default variant it runs on a GPU (validation_variant.hpp).
        if (v.workload == validation::kNoWorkload)
          std::cout << "    workload: none (Variant{} on every backend)\n";
        else
          std::cout << wrapped("    ", "workload: " + v.workload + " (a GPU runs its default variant" +
                                         (v.gpu_axes.empty() ? "" : ", " + v.gpu_axes) + ")");
        for (const auto& k : v.knobs) std::cout << wrapped("    ", "--param " + k);
        // Its negative controls (docs/testing.md): the wrong physics its gates
        // must reject, and where that is shown (CI's short form, or a device's
        // short or long form).
        for (const auto& k : v.controls) {
          const char* where = k.in_ci         ? " [short form in CI]"
                              : k.device_long ? " [long form on a device"
                                              : " [on a device";
          std::cout << wrapped("    ", "--control " + k.name + ": " + k.what + where +
                                           (k.in_ci ? "" : k.shown.empty() ? ": not shown yet]" : "]"));
          // The folder and the file on lines of their own: a whole path is
          // longer than the 100 columns (`list --controls` prints it whole).
          if (!k.in_ci && !k.shown.empty()) {
            const std::size_t slash = k.shown.rfind('/');
            std::cout << "        rejected in " << k.shown.substr(0, slash + 1) << '\n';
            if (slash != std::string::npos) std::cout << "          " << k.shown.substr(slash + 1) << '\n';
          }
        }
      }
    return 0;
  }

 private:
  // A line a negative control, for scripts/controls_shown.py: case, name,
  // where it is shown, its knobs (k=v,...), the committed result.
  static int list_controls() {
    for (const auto& v : validation::all_cases())
      for (const auto& k : v.controls) {
        std::string knobs;
        for (const auto& [key, value] : k.params)
          knobs += (knobs.empty() ? "" : ",") + key + "=" + format_number(value);
        std::cout << v.name << '\t' << k.name << '\t'
                  << (k.in_ci ? "ci" : k.device_long ? "device-long" : "device") << '\t' << knobs << '\t'
                  << k.shown << '\n';
      }
    return 0;
  }

  // The default-variant table (no backend is created, so it also answers
  // on a machine without the backend's device), then the axes: each with
  // its values and its default.
  static int list_variants() {
    for (const auto& d : variant_defaults())
      // The variant's line whole (scripts grep it), the evidence wrapped.
      std::cout << d.workload << ' ' << d.backend << ' ' << to_string(d.precision) << ' ' << d.variant
                << (default_precision(d.workload, d.backend) == d.precision ? "  [default]" : "") << '\n'
                << wrapped("    ", d.evidence);
    std::cout << wrapped("", "(any other workload, backend and precision: the axes' defaults, " +
                                 Variant{}.to_string() + ", in that precision)");
    std::cout << "every axis: its values, then its default (ARCHITECTURE.md, \"Backends and variants\"):\n";
    for (const auto& a : Variant::axes())
      std::cout << wrapped("    ", a + ' ' + Variant::values(a) + ": " + Variant{}.get(a));
    return 0;
  }

  // `text` in lines of at most 100 columns, each starting with `indent`,
  // broken at spaces, and a word longer than a line (a variant) after a comma.
  static std::string wrapped(const std::string& indent, const std::string& text) {
    constexpr std::size_t kWidth = 100;
    std::string out, line = indent;
    std::size_t at = 0;
    while (at < text.size()) {
      std::size_t end = text.find(' ', at);
      if (end == std::string::npos) end = text.size();
      if (end - at > kWidth - indent.size()) {  // too long for any line: up to a comma that fits
        const std::size_t comma = text.rfind(',', at + kWidth - indent.size() - 1);
        if (comma != std::string::npos && comma > at) end = comma + 1;
      }
      const std::string word = text.substr(at, end - at);
      if (line.size() > indent.size() && line.size() + 1 + word.size() > kWidth) {
        out += line + '\n';
        line = indent;
      }
      line += (line.size() > indent.size() && text[at - 1] == ' ' ? " " : "") + word;
      at = end + (end < text.size() && text[end] == ' ');
    }
    return out + line + '\n';
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
  bool params_ = false, variants_ = false, names_ = false, controls_ = false;
};

}  // namespace

std::unique_ptr<Command> make_list_command() { return std::make_unique<ListCommand>(); }

}  // namespace meso::bench
