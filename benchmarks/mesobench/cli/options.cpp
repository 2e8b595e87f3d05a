#include "options.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

#include "../case_filter.hpp"
#include "../decimal_number.hpp"
#include "meso/core/error.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::bench {

namespace {
constexpr uint64_t kCpuDefaultMaxN = 262144;
}  // namespace

const CLI::Validator kParticleCount(
    [](std::string& v) -> std::string {
      const std::optional<uint64_t> n = parse_decimal_count(v);
      if (!n || *n == 0) return "value '" + excerpt(v) + "' is invalid: it must be a particle count >= 1";
      v = std::to_string(*n);  // "010" as 10: CLI11 reads a leading 0 as octal
      return "";
    },
    "N >= 1");

const CLI::Validator kFinite(
    [](std::string& v) -> std::string {
      return parse_decimal(v) ? "" : "value '" + excerpt(v) + "' is invalid: it must be a finite decimal number";
    },
    "finite");

CLI::Validator count_in(uint64_t lo, uint64_t hi) {
  return {[lo, hi](std::string& v) -> std::string {
            const std::optional<uint64_t> x = parse_decimal_count(v);
            if (!(x && *x >= lo && *x <= hi))
              return "value '" + excerpt(v) + "' is invalid: it must be a whole number from " + std::to_string(lo) +
                     " to " + std::to_string(hi) + " in decimal digits";
            v = std::to_string(*x);  // "010" as 10: CLI11 reads a leading 0 as octal
            return "";
          },
          "INT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]"};
}

const CLI::Validator kFileName(
    [](std::string& v) -> std::string { return v.empty() ? "value '' is invalid: give a file name" : ""; },
    "FILE");

void add_selection_options(CLI::App* app, SelectionOptions& o) {
  add_filter_backend_variant(app, o.filter, o.backend, o.variant);
}

void add_filter_backend_variant(CLI::App* app, std::string& filter, std::string& backend, std::string& variant) {
  app->add_option("--filter", filter,
                  "RE2 regular expression searched in case names (<= " +
                      std::to_string(kMaxFilterLength) + " characters)");
  app->add_option("--backend", backend, "Backend: auto (best present), cpu, cuda");
  app->add_option("--variant", variant,
                  "Variant axes over each workload's default variant, e.g. precision=double,rng=philox "
                  "(`list --variants` lists the defaults and every axis with its values)");
}

void add_progress_options(CLI::App* app, ProgressOptions& o) {
  app->add_flag("--quiet,-q", o.quiet, "No progress lines on stderr");
  app->add_option("--progress-interval", o.progress_interval,
                  "Seconds between progress lines on a non-terminal stderr (a terminal: live)")
      ->check(kFinite)
      ->check(CLI::Range(0.0, 86400.0));
}

Selection select_cases(const SelectionOptions& o, const BackendRegistry& reg, bool for_listing) {
  Selection s;
  refuse_repeated_params(o.params);
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
  const CaseFilter re = compile_filter(o.filter);
  std::size_t collapsed = 0;
  for (BenchCase c : all_cases()) {
    const ResolvedVariant rv = resolve_variant(c.workload_name(), s.backend, o.variant);
    const std::string eff = effective(rv.variant);
    // The filter selects registered cases by their registered names; --param
    // then overrides parameters of the selected ones (and renames them).
    const bool wanted = o.filter.empty() && !for_listing ? c.in_default_suite
                                                          : re.matches(c.name(s.backend, eff));
    if (!wanted) continue;
    for (const auto& kv : o.params) apply_param(c, kv);
    // A bad --param is named even where --max-n then skips the case; --max-n
    // sees the case as it will run, after --param (N=, L=, chains=).
    if (!o.params.empty()) c.validate();
    if (max_n && c.n() > max_n) continue;
    const std::string name = c.name(s.backend, eff);
    // --param can make selected cases one (srd-fluid's L = 50 and 100 both
    // become L = 20): that case runs, and is listed, once.
    if (std::find(s.names.begin(), s.names.end(), name) != s.names.end()) {
      ++collapsed;
      continue;
    }
    // Catch bad physical parameters before the first case runs.
    c.validate();
    s.cases.push_back(c);
    s.names.push_back(name);
    s.variants.push_back(rv);
  }
  if (collapsed)
    std::cerr << "note: --param made " << collapsed << " selected case(s) the same as another; each distinct "
              << "case runs once\n";
  // A listing may match only validation cases (`list --filter poiseuille`).
  bool validation_match = false;
  for (const auto& v : validation::all_cases()) validation_match = validation_match || re.matches(v.name);
  if (s.cases.empty() && !(for_listing && validation_match))
    throw_input_error("--filter '", shown_value(o.filter), "' matches no benchmark case",
                      max_n ? " with N <= " + std::to_string(max_n) + " (see --max-n)" : "",
                      "; `mesobench list` shows the names");
  return s;
}

}  // namespace meso::bench
