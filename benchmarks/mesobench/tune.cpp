#include "tune.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "meso/core/error.hpp"
#include "meso/io/input_file.hpp"

namespace meso::bench {
namespace {

constexpr const char* kFormat = "mesobench-tune-1";

using Settings = std::vector<std::pair<std::string, std::string>>;

Settings parse_settings(const std::string& text) {
  Settings out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw_input_error("a tuned choice '", excerpt(text), "' is not key=value,...");
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return out;
}

std::string join(const Settings& s) {
  std::string out;
  for (const auto& [k, v] : s) out += (out.empty() ? "" : ",") + k + '=' + v;
  return out;
}

// The setting's value in c and rv now, as text ("%g" for parameters).
std::string current(const TuneSetting& s, const BenchCase& c, const ResolvedVariant& rv) {
  if (!s.param) return rv.variant.get(s.name);
  const double box[3] = {0, 0, 0};
  const nlohmann::json j = c.parameters_json(box);
  if (!j.contains(s.name) || !j[s.name].is_number())
    throw std::logic_error("tune: parameter " + s.name + " is not in the case's parameters");
  std::ostringstream o;
  o << j[s.name].get<double>();
  return o.str();
}

bool same_value(const TuneSetting& s, const std::string& a, const std::string& b) {
  if (!s.param) return a == b;
  return parse_param_double(s.name, a) == parse_param_double(s.name, b);
}

Precision precision_of(const std::string& text) { return Variant::parse("precision=" + text).precision; }

}  // namespace

TuneTable TuneTable::read(const std::string& path) {
  std::ifstream in = io::open_input_file(path, "--tuned table");
  return parse(in, path);
}

TuneTable TuneTable::parse(std::istream& in, const std::string& source) {
  const std::string path = excerpt(source, 200);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);  // one document: trailing text is an error
  } catch (const nlohmann::json::exception& e) {
    throw_input_error("--tuned '", path, "' is not JSON: ", e.what());
  }
  // Each field's type is checked before it is read: json::value throws on a
  // present field of another type ({"format": []} is a finding of the fuzzer).
  const auto format = j.is_object() ? j.find("format") : j.end();
  if (!j.is_object() || format == j.end() || !format->is_string() || *format != kFormat ||
      !j.contains("entries") || !j["entries"].is_array())
    throw_input_error("--tuned '", path, "' is not a table `mesobench tune` wrote (format ", kFormat, ")");
  TuneTable t;
  for (const auto& e : j["entries"]) {
    try {
      TuneEntry x;
      x.device = e.at("device").get<std::string>();
      x.workload = e.at("workload").get<std::string>();
      x.backend = e.at("backend").get<std::string>();
      x.precision = precision_of(e.at("precision").get<std::string>());
      if (!e.at("N").is_number_unsigned() || e.at("N").get<uint64_t>() == 0)
        throw_input_error("--tuned '", path, "': an entry's N, ", excerpt(e.at("N").dump()),
                          ", is not a particle count >= 1");
      x.n = e.at("N").get<uint64_t>();
      x.choice = e.at("choice").get<std::string>();
      parse_settings(x.choice);
      x.tps = e.value("tps", 0.0);
      if (!std::isfinite(x.tps) || x.tps < 0.0)
        throw_input_error("--tuned '", path, "': an entry's tps, ", x.tps, ", is not a finite rate >= 0");
      x.trials = e.value("trials", nlohmann::json::array());
      x.date_utc = e.value("date_utc", "");
      x.git_commit = e.value("git_commit", "");
      t.entries_.push_back(std::move(x));
    } catch (const nlohmann::json::exception& ex) {
      throw_input_error("--tuned '", path, "': an entry lacks a field or has a wrong type (", ex.what(), ")");
    }
  }
  return t;
}

nlohmann::json TuneTable::to_json() const {
  nlohmann::json out = {{"format", kFormat}, {"entries", nlohmann::json::array()}};
  for (const auto& e : entries_)
    out["entries"].push_back({{"device", e.device},
                              {"workload", e.workload},
                              {"backend", e.backend},
                              {"precision", to_string(e.precision)},
                              {"N", e.n},
                              {"choice", e.choice},
                              {"tps", e.tps},
                              {"trials", e.trials},
                              {"date_utc", e.date_utc},
                              {"git_commit", e.git_commit}});
  return out;
}

const TuneEntry* TuneTable::find(const std::string& device, const std::string& workload, const std::string& backend,
                                 Precision precision, uint64_t n) const {
  const TuneEntry* best = nullptr;
  double best_d = std::log(2.0) + 1e-12;
  for (const auto& e : entries_) {
    if (e.device != device || e.workload != workload || e.backend != backend || e.precision != precision) continue;
    const double d = std::fabs(std::log(double(e.n) / double(n)));
    if (d <= best_d) best = &e, best_d = d;
  }
  return best;
}

void TuneTable::put(TuneEntry e) {
  for (auto& x : entries_)
    if (x.device == e.device && x.workload == e.workload && x.backend == e.backend &&
        x.precision == e.precision && x.n == e.n) {
      x = std::move(e);
      return;
    }
  entries_.push_back(std::move(e));
}

std::optional<TuneSpace> tune_space(const std::string& workload, const std::string& backend, Precision precision) {
  for (const Workload* w : workloads())
    if (w->name() == workload)
      for (TuneSpace& s : w->tune_spaces())
        if (s.backend == backend && s.precision == precision) return std::move(s);
  return std::nullopt;
}

std::string apply_choice(const std::string& choice, BenchCase& c, ResolvedVariant& rv,
                         const std::vector<std::string>& named_params) {
  const std::vector<std::string> given_axes = Variant::named_axes(rv.given);
  Settings applied;
  std::string axes;
  for (const auto& [k, v] : parse_settings(choice)) {
    const bool is_axis = std::find(Variant::axes().begin(), Variant::axes().end(), k) != Variant::axes().end();
    if (is_axis) {
      if (std::find(given_axes.begin(), given_axes.end(), k) != given_axes.end()) continue;
      axes += (axes.empty() ? "" : ",") + k + '=' + v;
    } else {
      if (std::find(named_params.begin(), named_params.end(), k) != named_params.end()) continue;
      set_param(c, k, v);
    }
    applied.emplace_back(k, v);
  }
  if (!axes.empty()) rv.variant = Variant::parse(axes, rv.variant);
  return join(applied);
}

TuneEntry tune_case(const BenchCase& c, const ResolvedVariant& rv, const TuneSpace& space, double budget_s,
                    const std::vector<std::string>& named_params, const TimeOne& time_one) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const std::vector<std::string> given_axes = Variant::named_axes(rv.given);
  // The settings the user named are not tuned.
  std::vector<const TuneSetting*> free;
  for (const TuneSetting& s : space.settings) {
    const bool named = s.param ? std::find(named_params.begin(), named_params.end(), s.name) != named_params.end()
                               : std::find(given_axes.begin(), given_axes.end(), s.name) != given_axes.end();
    if (!named) free.push_back(&s);
  }
  Settings best;
  for (const TuneSetting* s : free) best.emplace_back(s->name, current(*s, c, rv));
  TuneEntry out;
  out.workload = c.workload_name();
  out.n = c.n();
  out.trials = nlohmann::json::array();
  auto time_settings = [&](const Settings& s) {
    BenchCase cc = c;
    ResolvedVariant rr = rv;
    apply_choice(join(s), cc, rr, named_params);
    const double tps = time_one(cc, rr);
    out.trials.push_back({{"settings", join(s)}, {"tps", tps}});
    return tps;
  };
  // A candidate replaces the best only when more than kMargin faster: timed
  // runs of a second scatter by about 1%, and a tie keeps the default.
  constexpr double kMargin = 0.01;
  double best_tps = time_settings(best);
  std::vector<std::string> timed = {join(best)};
  for (std::size_t k = 0; k < free.size(); ++k) {
    const TuneSetting& s = *free[k];
    for (const std::string& v : s.values) {
      if (same_value(s, v, best[k].second)) continue;
      if (elapsed() > budget_s) break;
      Settings trial = best;
      trial[k].second = v;
      if (std::find(timed.begin(), timed.end(), join(trial)) != timed.end()) continue;
      timed.push_back(join(trial));
      const double tps = time_settings(trial);
      if (tps > best_tps * (1.0 + kMargin)) best_tps = tps, best = trial;
    }
  }
  out.choice = join(best);
  out.tps = best_tps;
  return out;
}

}  // namespace meso::bench
