#include "workload.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "decimal_number.hpp"
#include "memory_estimate.hpp"
#include "tune.hpp"
#include "meso/core/error.hpp"
#include "meso/io/checkpoint_file.hpp"

namespace meso::bench {
namespace {

std::vector<std::unique_ptr<Workload>>& registry() {
  static std::vector<std::unique_ptr<Workload>> r;
  return r;
}

std::string key_list(const Workload& w) {
  std::string keys;
  for (const auto& p : w.params()) keys += (keys.empty() ? "" : ", ") + p.key;
  return keys;
}

}  // namespace

WorkloadRegistration::WorkloadRegistration(std::unique_ptr<Workload> w) {
  for (const auto& other : registry())
    if (other->name() == w->name()) throw std::logic_error("workload '" + w->name() + "' registered twice");
  registry().push_back(std::move(w));
}

const std::vector<const Workload*>& workloads() {
  static const std::vector<const Workload*> sorted = [] {
    std::vector<const Workload*> v;
    for (const auto& w : registry()) v.push_back(w.get());
    std::sort(v.begin(), v.end(), [](const Workload* a, const Workload* b) { return a->name() < b->name(); });
    return v;
  }();
  return sorted;
}

const Workload& find_workload(const std::string& name, const char* option) {
  std::string names;
  for (const Workload* w : workloads()) {
    if (w->name() == name) return *w;
    names += (names.empty() ? "" : ", ") + w->name();
  }
  throw_input_error(option, " '", name, "' is not a workload (", names, ")");
}

const std::vector<BenchCase>& all_cases() {
  static const std::vector<BenchCase> cases = [] {
    std::vector<BenchCase> v;
    for (const Workload* w : workloads())
      for (BenchCase& c : w->cases()) v.push_back(std::move(c));
    return v;
  }();
  return cases;
}

void Workload::add_param(std::string key, std::string unit, std::string meaning,
                         std::function<void(BenchCase&, const std::string&)> set) {
  params_.push_back({std::move(key), std::move(unit), std::move(meaning), std::nullopt, std::move(set)});
}

void Workload::add_param(std::string key, std::string unit, std::string meaning, ParamRange range,
                         std::function<void(BenchCase&, const std::string&)> set) {
  params_.push_back({std::move(key), std::move(unit), std::move(meaning), range, std::move(set)});
}

void Workload::require_used(const BenchCase& c, const std::string& key, bool used, const std::string& why) {
  if (!used && c.was_given(key))
    throw_input_error("--param ", key, " does nothing in this run: it is used only ", why);
}

bool BenchCase::was_given(const std::string& key) const {
  return std::find(given.begin(), given.end(), key) != given.end();
}

Precision Workload::default_precision(const std::string& backend) const {
  return backend == "cuda" ? Precision::mixed : Variant{}.precision;
}

std::string Workload::size_text(const BenchCase& c) const {
  std::ostringstream os;
  const double n = particle_count(c);
  os << "N = ";
  if (n < 1e15)
    os << static_cast<uint64_t>(n);
  else
    os << n;
  return os.str();
}

System Workload::make_system(const BenchCase&) const {
  throw std::logic_error("workload '" + name() + "' has no MD system");
}

double Workload::particle_bytes() const { return kMdParticleBytes; }

void Workload::set_particle_count(BenchCase& c, uint64_t n) const { apply_param(c, "N=" + std::to_string(n)); }

const std::string& BenchCase::workload_name() const { return workload->name(); }
const std::string& BenchCase::kernel() const { return workload->kernel(); }
uint64_t BenchCase::n() const { return static_cast<uint64_t>(workload->particle_count(*this)); }


namespace {

// The topology's checks (Topology::validate) for a system of n particles,
// the messages naming the file.
void check_topology(const BenchCase& c, uint64_t n) {
  try {
    c.topology->validate(n);
  } catch (const InputError& e) {
    throw_input_error("--topology '", excerpt(c.topology_file, 200), "' does not fit ", c.workload_name(), " with N = ",
                      n, ": ", e.what());
  }
}

// FNV-1a 64 of everything a topology holds, in a fixed order, in hex: the
// setup string names it so that a restart refuses another topology.
std::string digest(const Topology& t) {
  uint64_t h = io::fnv1a64(nullptr, 0);
  auto add = [&h](const void* p, std::size_t bytes) { h = io::fnv1a64(p, bytes, h); };
  for (const BondType& b : t.bond_types) {
    add(b.name.data(), b.name.size() + 1);
    add(&b.kind, sizeof b.kind);
    add(&b.harmonic, sizeof b.harmonic);
    add(&b.fene, sizeof b.fene);
  }
  for (const AngleType& a : t.angle_types) {
    add(a.name.data(), a.name.size() + 1);
    add(&a.harmonic, sizeof a.harmonic);
  }
  add(t.bonds.data(), t.bonds.size() * sizeof(Bond));
  add(t.angles.data(), t.angles.size() * sizeof(Angle));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

}  // namespace

void BenchCase::validate() const {
  // Size first, so that a box too large is named with N and the bytes it
  // would need (the engine's own N check would name only N).
  check_fits_in_memory(*this);
  workload->validate(*this);
  if (!topology) return;
  if (const std::string why = workload->topology_refusal(); !why.empty())
    throw_input_error("--topology is not provided for ", workload_name(), ": ", why);
  check_topology(*this, n());
}

SimulationSetup BenchCase::make_setup() const {
  SimulationSetup s = workload->make_setup(*this);
  if (topology && s.md) {
    // The count built may differ from the one estimated before building.
    check_topology(*this, s.md->particles.n_local);
    s.md->topology = *topology;
  }
  return s;
}

SimulationSetup BenchCase::make_setup_by_rank() const {
  return topology ? make_setup() : workload->make_setup_by_rank(*this);
}

std::string BenchCase::setup() const {
  return workload->setup(*this) + (topology ? " topology=" + digest(*topology) : "");
}

nlohmann::json BenchCase::parameters_json(const double box[3]) const {
  nlohmann::json j = workload->parameters_json(*this, box);
  if (topology)
    j["topology"] = {{"file", topology_file},
                     {"bonds", topology->bonds.size()},
                     {"angles", topology->angles.size()},
                     {"digest", digest(*topology)}};
  return j;
}

namespace {

// The --param settings of `c` that its parameter part does not show, and
// the topology's file name (a system with bonds is another benchmark:
// compare never matches it with the plain one), each with a leading '/'.
std::string unshown_settings(const BenchCase& c, const std::string& shown) {
  std::string out;
  const std::string parts = '/' + shown + '/';
  for (const std::string& kv : c.given_settings) {
    const std::string key = kv.substr(0, kv.find('='));
    if (parts.find('/' + key + '=') == std::string::npos) out += '/' + kv;
  }
  if (c.topology) out += "/topology=" + excerpt(std::filesystem::path(c.topology_file).filename().string());
  return out;
}

}  // namespace

std::string BenchCase::name(const std::string& backend, const std::string& variant) const {
  const std::string shown = workload->name_parameters(*this);
  return workload->name() + '/' + workload->kernel() + '/' + backend + '/' + variant + '/' + shown +
         unshown_settings(*this, shown);
}

std::string BenchCase::label(const std::string& variant_given) const {
  const std::string shown = workload->name_parameters(*this);
  return workload->name() + ' ' + shown + unshown_settings(*this, shown) +
         (variant_given.empty() ? "" : ' ' + variant_given);
}

std::vector<TuneSpace> Workload::tune_spaces() const { return {}; }

void set_param(BenchCase& c, const std::string& key, const std::string& value) {
  for (const auto& p : c.workload->params()) {
    if (p.key != key) continue;
    if (p.range) {
      const double x = parse_param_double(key, value);
      if (!(x >= p.range->lo && x <= p.range->hi))
        throw_input_error("--param ", key, " = ", value, " is outside ", format_number(p.range->lo), " .. ",
                          format_number(p.range->hi), p.unit.empty() ? "" : " " + p.unit, " (", key, ": ",
                          p.meaning, ")");
    }
    p.set(c, value);
    return;
  }
  throw_input_error("--param key '", key, "' is unknown for ", c.workload->name(), ": allowed keys are ",
                    key_list(*c.workload), " (`mesobench list --params` says what each sets)");
}

void apply_param(BenchCase& c, const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0)
    throw_input_error("--param '", kv, "' is invalid: expected key=value");
  const std::string key = kv.substr(0, eq);
  set_param(c, key, kv.substr(eq + 1));
  if (!c.was_given(key)) {
    c.given.push_back(key);
    c.given_settings.push_back(kv);
  } else {
    for (std::string& g : c.given_settings)
      if (g.compare(0, key.size() + 1, key + '=') == 0) g = kv;
  }
}

void refuse_repeated_params(const std::vector<std::string>& key_values) {
  std::map<std::string, const std::string*> first;
  for (const std::string& kv : key_values) {
    const auto [at, fresh] = first.emplace(kv.substr(0, kv.find('=')), &kv);
    if (!fresh)
      throw_input_error("--param ", excerpt(at->first), " is given twice (", excerpt(*at->second), " and ",
                        excerpt(kv), "): give it once");
  }
}

double parse_param_double(const std::string& key, const std::string& v) {
  if (const auto x = parse_decimal(v)) return *x;
  throw_input_error("--param ", key, "=", v, " is invalid: expected a finite decimal number");
}

uint64_t parse_param_uint(const std::string& key, const std::string& v) {
  uint64_t x = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc{} || p != v.data() + v.size() || v.empty())
    throw_input_error("--param ", key, "=", v, " is invalid: expected a non-negative integer");
  return x;
}

bool parse_param_flag(const std::string& key, const std::string& v) {
  if (v == "0") return false;
  if (v == "1") return true;
  throw_input_error("--param ", key, "=", v, " is invalid: expected 0 (off) or 1 (on)");
}

// A time step in which a particle at the thermal speed sqrt(3 kT / m) moves
// more than `limit` gives a meaningless trajectory (and TPS figures for it):
// refuse it a priori, naming dt and the displacement.
void check_step_length(double dt, double kT, double mass, double limit, const char* limit_is) {
  const double speed = std::sqrt(3.0 * kT / mass);
  const double moved = speed * dt;
  if (moved > limit)
    throw_input_error("dt = ", dt, " is too large: at the thermal speed sqrt(3 kT/m) = ", speed,
                      " a particle moves ", moved, " per step, more than ", limit_is, " (", limit,
                      "); use dt <= ", limit / speed);
}

void check_not_diverged(const BenchCase& c, const std::string& name, double temperature, double pressure,
                        uint64_t step) {
  const double kT0 = c.workload->initial_kT(c);
  const std::string unit = std::string(" ") + c.workload->step_unit();
  if (!std::isfinite(temperature) || !std::isfinite(pressure))
    throw_input_error(name, ": the simulation produced a non-finite temperature or pressure after ", step, unit,
                      " (dt = ", c.workload->time_step(c), " may be too large for these parameters)");
  if (temperature > kDivergedFactor * kT0)
    throw_input_error(name, ": the simulation diverged: temperature ", temperature, " after ", step, unit,
                      ", more than ", kDivergedFactor, " times its start (kT = ", kT0, "); dt = ",
                      c.workload->time_step(c), " may be too large for these parameters");
}

void check_list_step(const BenchCase& c, double kT, double mass, double rcut) {
  if (c.run.inner_skin > 0.0)  // dynamic pruning: the pruned list is refreshed at inner_skin/2
    check_step_length(c.run.dt, kT, mass, 0.5 * c.run.inner_skin, "half the pruned list's skin");
  else if (c.run.skin > 0.0)
    check_step_length(c.run.dt, kT, mass, 0.5 * c.run.skin, "half the neighbor-list skin");
  else
    check_step_length(c.run.dt, kT, mass, 0.5 * rcut, "half the cutoff (skin = 0)");
}

std::string run_setup(const RunParams& r) {
  std::ostringstream os;
  os << " dt=" << exact_number(r.dt) << " integrator=" << to_string(r.integrator)
     << " lambda=" << exact_number(r.lambda) << " skin=" << exact_number(r.skin)
     << " rebuild_every=" << r.rebuild_every << " seed=" << r.seed << " thermostat_kT=" << exact_number(r.kT)
     << " tau=" << exact_number(r.tau) << " langevin_gamma=" << exact_number(r.gamma);
  if (r.inner_skin > 0.0) os << " inner_skin=" << exact_number(r.inner_skin);
  return os.str();
}

std::string format_number(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

std::string exact_number(double x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof(buf), x);
  return std::string(buf, r.ptr);
}

}  // namespace meso::bench
