#include "meso/validation/validation_case.hpp"

#include <cmath>
#include <algorithm>
#include <set>
#include <stdexcept>

#include "meso/core/error.hpp"

namespace meso::validation {

const char* to_string(Form f) { return f == Form::short_form ? "short" : "long"; }

namespace {

// Sorted by name as cases register: the registrations run in the
// translation units' link order, which nothing should depend on.
std::vector<Case>& registry() {
  static std::vector<Case> cases;
  return cases;
}

}  // namespace

namespace {

std::string knob_name(const std::string& knob) { return knob.substr(0, knob.find(':')); }

// Every control of `c` is named once and sets only knobs `c` reads.
void check_controls(const Case& c) {
  if (c.controls.empty())
    throw std::logic_error("validation case '" + c.name +
                           "' declares no negative control: a gate must show it can fail (docs/testing.md)");
  std::set<std::string> names, knobs;
  for (const auto& k : c.knobs) knobs.insert(knob_name(k));
  for (const Control& k : c.controls) {
    if (k.name.empty() || !names.insert(k.name).second)
      throw std::logic_error("validation case '" + c.name + "': control '" + k.name + "' is unnamed or named twice");
    if (k.params.empty())
      throw std::logic_error("validation case '" + c.name + "': control '" + k.name + "' perturbs nothing");
    for (const auto* m : {&k.params, &k.short_params})
      for (const auto& [key, value] : *m)
        if (!knobs.count(key))
          throw std::logic_error("validation case '" + c.name + "': control '" + k.name + "' sets knob '" + key +
                                 "', which the case does not declare");
  }
}

}  // namespace

CaseRegistration::CaseRegistration(Case c) {
  // Which workload's default it runs on a GPU is stated, never assumed: a
  // case without one would run Variant{} there unnoticed.
  if (c.workload.empty())
    throw std::logic_error("validation case '" + c.name + "' names no workload (Case::workload, or kNoWorkload " +
                           "with the reason no workload runs its model)");
  check_controls(c);
  auto& cases = registry();
  const auto at = std::lower_bound(cases.begin(), cases.end(), c.name,
                                   [](const Case& a, const std::string& name) { return a.name < name; });
  if (at != cases.end() && at->name == c.name)
    throw std::logic_error("validation case '" + c.name + "' registered twice");
  cases.insert(at, std::move(c));
}

const std::vector<Case>& all_cases() { return registry(); }

const Control& find_control(const Case& c, const std::string& name) {
  std::string offered;
  for (const Control& k : c.controls) {
    if (k.name == name) return k;
    offered += (offered.empty() ? "" : ", ") + k.name;
  }
  throw_input_error("--control '", name, "': validation case ", c.name, " has no such control; it has {", offered,
                    "} (`mesobench list`)");
}

std::map<std::string, double> control_params(const Control& k, Form form,
                                             const std::map<std::string, double>& given) {
  std::map<std::string, double> out = given;
  for (const auto& [key, value] : k.params) {
    if (given.count(key))
      throw_input_error("--param ", key, " with --control ", k.name, ": the control sets ", key,
                        " itself (its wrong physics)");
    out[key] = value;
  }
  if (form == Form::short_form)
    for (const auto& [key, value] : k.short_params) out.emplace(key, value);
  return out;
}

double knob(const Context& ctx, const std::string& key, double fallback) {
  const auto it = ctx.params.find(key);
  return it == ctx.params.end() ? fallback : it->second;
}

RunRange shard_runs(const Context& ctx, int runs) {
  const int k = ctx.shard_index, n = ctx.shard_count;
  if (n < 1 || k < 0 || k >= n)
    throw_input_error("--shard ", k, "/", n, " is invalid: it must be I/N with 0 <= I < N");
  if (n > runs)
    throw_input_error("--shard ", k, "/", n, " is invalid: the case has ", runs,
                      " repeats, fewer than the ", n, " shards");
  // Even split, the first runs % n shards one repeat longer.
  const int base = runs / n, extra = runs % n;
  RunRange r;
  r.first = k * base + std::min(k, extra);
  r.last = r.first + base + (k < extra ? 1 : 0);
  return r;
}

std::vector<double> thin_series(const std::vector<double>& v, std::size_t max_points) {
  if (v.size() <= max_points) return v;
  std::vector<double> out;
  const std::size_t stride = (v.size() + max_points - 1) / max_points;
  for (std::size_t i = 0; i < v.size(); i += stride) out.push_back(v[i]);
  return out;
}

bool past_time_limit(const Context& ctx) {
  return ctx.stop_at && std::chrono::steady_clock::now() >= *ctx.stop_at;
}

nlohmann::json run_repeats(const Context& ctx, int runs, const RepeatFn& one, bool& stopped) {
  const RunRange range = shard_runs(ctx, runs);
  const nlohmann::json* before = ctx.resume ? &ctx.resume->at("per_run") : nullptr;
  nlohmann::json out = nlohmann::json::array();
  bool progressed = false;
  stopped = false;
  for (int r = range.first; r < range.last; ++r) {
    const uint64_t seed = ctx.seed + static_cast<uint64_t>(r);
    const nlohmann::json* from = nullptr;
    if (before)
      for (const auto& rec : *before)
        if (rec.at("run").get<int>() == r) from = &rec;
    if (from && !from->value("incomplete", false)) {
      out.push_back(*from);
      continue;
    }
    if (stopped || (progressed && past_time_limit(ctx))) {
      stopped = true;
      out.push_back(from ? *from : nlohmann::json{{"run", r}, {"seed", seed}, {"incomplete", true}});
      continue;
    }
    out.push_back(one(r, seed, from));
    stopped = out.back().value("incomplete", false);
    progressed = true;
  }
  return out;
}

Result shard_result(const Context& ctx, std::string name, nlohmann::json data) {
  Result r;
  r.name = std::move(name);
  r.quantity = "shard " + std::to_string(ctx.shard_index) + "/" + std::to_string(ctx.shard_count) +
               ": repeats only; `mesobench validate --merge` evaluates the gates";
  r.partial = true;
  r.data = std::move(data);
  return r;
}


}  // namespace meso::validation
