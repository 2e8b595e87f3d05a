// Workloads: the named systems mesobench times, as LAMMPS styles are named.
// Each is one file in workloads/ that implements `Workload` and registers it
// by name (MESO_REGISTER_WORKLOAD): its parameter table, its published
// defaults, the sizes registered as cases, its default variants, and how it
// builds its system. Nothing outside that file names a workload; the CLI,
// the JSON, the error messages and `list --params` read the table.
//
// A case name reads like a Google Benchmark name and encodes everything that
// makes two numbers comparable:
//   <workload>/<kernel>/<backend>/<effective variant>/<parameters>
//   dpd-fluid/step/cuda/precision=mixed,.../rho=3/rc=1/s=0.5/N=32768
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "meso/run/backend.hpp"
#include "meso/io/h5md.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/run/simulation.hpp"
#include "meso/core/system.hpp"
#include "meso/run/variant.hpp"

namespace meso::bench {

class Workload;
struct TuneSpace;  // tune.hpp

// One case of a workload: its parameters (the workload's own struct, held
// by value) and, for MD particles, how they are run.
struct BenchCase {
  const Workload* workload = nullptr;
  std::any params;  // the workload's parameter struct (Workload::params_of)
  RunParams run;    // MD workloads: integrator, time step, lists, thermostat
  bool in_default_suite = false;
  std::vector<std::string> given;  // the --param keys set, in order (a workload refuses unused ones)
  std::vector<std::string> given_settings;  // "key=value" of each key in `given`, its last value
  // `run --topology FILE`: bonds and angles added to the workload's system
  // (read and checked once, shared by the cases); topology_file names it.
  std::shared_ptr<const Topology> topology;
  std::string topology_file;

  bool was_given(const std::string& key) const;

  const std::string& workload_name() const;
  const std::string& kernel() const;
  uint64_t n() const;
  void validate() const;  // the parameters, the run's, the memory they need, the topology
  // What the Simulation runs: MD particles (with the --topology given), an
  // MPCD solvent, or both.
  SimulationSetup make_setup() const;
  // The same for the scaling harness: each rank builds its own particles
  // where the workload can (Workload::make_setup_by_rank; not with --topology).
  SimulationSetup make_setup_by_rank() const;
  // Full name for a backend and the variant string it honoured; a --param
  // setting that the workload's parameter part does not show is appended
  // ("/integrator=nvt"), so runs that differ in it are different cases, and
  // a run with --topology FILE ends in "/topology=FILE's name".
  std::string name(const std::string& backend, const std::string& variant) const;
  // The short form tables and progress lines show (100 columns): the
  // workload, the parameter part, the --param settings it does not show,
  // the topology's file name and the variant axes given over the default
  // (`variant_given`).
  std::string label(const std::string& variant_given) const;
  // Workload::setup, and the topology's digest when one is given: a
  // checkpoint continues only a run with the same bonds and angles.
  std::string setup() const;
  // Workload::parameters_json, and the topology's file, bonds and angles.
  nlohmann::json parameters_json(const double box[3]) const;
};

// The values a numeric parameter may take: outside them a run measures
// nothing meaningful (an ideal gas in an astronomical box, a cutoff below
// any spacing), so they are refused naming the range.
struct ParamRange {
  double lo, hi;
};

// One `--param key=value` of a workload.
struct WorkloadParam {
  std::string key;
  std::string unit;     // "" when dimensionless or a name
  std::string meaning;  // what it sets, and its published default
  std::optional<ParamRange> range;  // numeric parameters: the allowed values
  std::function<void(BenchCase&, const std::string& value)> set;
};

// The default variant of a workload on a backend in one precision, with the
// measurement and the gates that made it the default (variant_defaults.hpp).
struct VariantDefault {
  std::string workload;  // filled from the registering workload
  std::string backend;   // "cpu", "cuda"
  Precision precision;
  std::string variant;   // the axes that differ from Variant{} (precision included)
  std::string evidence;  // the measurement and the gates behind it
};

class Workload {
 public:
  virtual ~Workload() = default;

  const std::string& name() const { return name_; }
  // What one timed step is: "step" (an MD step) or "collide" (a collision period).
  const std::string& kernel() const { return kernel_; }
  // One line: the system and the paper it comes from.
  virtual std::string summary() const = 0;
  // What one step is, in words, plural ("steps", "collisions").
  virtual const char* step_unit() const { return "steps"; }
  // Host bytes of one copy of a particle's arrays (the memory estimate).
  virtual double particle_bytes() const;
  const std::vector<WorkloadParam>& params() const { return params_; }
  // The registered cases (sizes), in listing order.
  virtual std::vector<BenchCase> cases() const = 0;
  // The default variants per backend and precision (none: Variant{}).
  virtual std::vector<VariantDefault> variant_defaults() const { return {}; }
  // What the autotuner may tune, per backend and precision (tune.hpp); none
  // by default.
  virtual std::vector<TuneSpace> tune_spaces() const;
  // The precision on `backend` when --variant names none: mixed on the GPU
  // (what the gates and targets are stated for); the CPU reference has no mixed.
  virtual Precision default_precision(const std::string& backend) const;

  // The particle count before building (may be far too large: validate()
  // refuses it, naming size_text()).
  virtual double particle_count(const BenchCase& c) const = 0;
  virtual std::string size_text(const BenchCase& c) const;  // "N = ..." and what fixes it
  virtual void validate(const BenchCase& c) const = 0;
  // The parameter part of the case name, e.g. "rho=3/rc=1/s=0.5/N=32768".
  virtual std::string name_parameters(const BenchCase& c) const = 0;
  // The "parameters" object of the JSON result (box: the built box's edges).
  virtual nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const = 0;
  // Every parameter that shapes the system or the dynamics, exactly: a
  // checkpoint continues only the run it came from.
  virtual std::string setup(const BenchCase& c) const = 0;
  // What the Simulation runs; by default the MD particles of make_system
  // run with the case's RunParams.
  virtual SimulationSetup make_setup(const BenchCase& c) const { return {make_system(c), c.run, std::nullopt}; }
  // What the scaling harness runs: the same system, built by each rank for
  // its own domain where the workload can (SimulationSetup::md_owned);
  // otherwise make_setup.
  virtual SimulationSetup make_setup_by_rank(const BenchCase& c) const { return make_setup(c); }
  virtual System make_system(const BenchCase& c) const;  // MD particles
  // The periodic box of the case (by default from its built setup).
  virtual Box box(const BenchCase& c) const { return make_setup(c).box(); }
  // The temperature of the initial state (and of the thermostat, if any).
  virtual double initial_kT(const BenchCase& c) const = 0;
  // Time of one step (dt, or the collision time of a solvent).
  virtual double time_step(const BenchCase& c) const { return c.run.dt; }
  // Why --restart cannot continue this workload exactly ("" when it can).
  virtual std::string restart_refusal() const { return ""; }
  // Why --topology cannot add bonds to this workload's system ("" when it
  // can): a solvent has no MD particles; a workload may build its own.
  virtual std::string topology_refusal() const { return ""; }
  // The files a case reads through its --param settings (table-melt's
  // tables), as (what names it, path): a command declares them as inputs
  // of its PathPlan, so that no output of the run can replace one.
  virtual std::vector<std::pair<std::string, std::string>> input_files(const BenchCase&) const { return {}; }
  // The units of its trajectories (H5MD unit attributes, docs/io.md):
  // reduced ones unless the model maps them to physical units.
  virtual io::H5mdUnits trajectory_units() const { return io::reduced_units("the workload's reduced units"); }
  // Why it cannot run decomposed over ranks ("" when it can).
  virtual std::string decomposition_refusal() const { return ""; }
  // Sets the particle count to about n (the scaling harness's --per-rank
  // and --total); the built system reports the count it made.
  virtual void set_particle_count(BenchCase& c, uint64_t n) const;

  // The case's parameters as the workload's struct P.
  template <class P>
  static P& params_of(BenchCase& c) { return std::any_cast<P&>(c.params); }
  template <class P>
  static const P& params_of(const BenchCase& c) { return std::any_cast<const P&>(c.params); }

 protected:
  Workload(std::string name, std::string kernel) : name_(std::move(name)), kernel_(std::move(kernel)) {}
  // A case of this workload holding `params`.
  template <class P>
  BenchCase make_case(P params, bool in_default_suite) const {
    BenchCase c;
    c.workload = this;
    c.params = std::move(params);
    c.in_default_suite = in_default_suite;
    return c;
  }
  void add_param(std::string key, std::string unit, std::string meaning,
                 std::function<void(BenchCase&, const std::string&)> set);
  void add_param(std::string key, std::string unit, std::string meaning, ParamRange range,
                 std::function<void(BenchCase&, const std::string&)> set);
  // Refuses a given --param that the case's settings do not use (`why`:
  // what uses it), so that a mistyped integrator or mode is not silently
  // run with a parameter that does nothing.
  static void require_used(const BenchCase& c, const std::string& key, bool used, const std::string& why);

 private:
  std::string name_, kernel_;
  std::vector<WorkloadParam> params_;
};

// Every registered workload, by name (the listing order).
const std::vector<const Workload*>& workloads();
// The workload called `name`; InputError naming the registered ones otherwise.
const Workload& find_workload(const std::string& name, const char* option = "--workload");
// Every registered case of every workload, in listing order.
const std::vector<BenchCase>& all_cases();

// `--param key=value`: the workload's table sets it. InputError naming the
// key and the workload's keys when unknown, or the value when it does not
// parse; physical validity is checked by validate().
void apply_param(BenchCase& c, const std::string& key_value);
// Refuses a key given twice among the --param settings (otherwise the last
// would silently win), naming both settings.
void refuse_repeated_params(const std::vector<std::string>& key_values);
// The same for key and value apart, without recording the key as given (the
// case keeps its name): the autotuner's settings (tune.hpp).
void set_param(BenchCase& c, const std::string& key, const std::string& value);

// Registration (one line per workload file): a static object whose
// construction adds the workload to the registry before main().
struct WorkloadRegistration {
  explicit WorkloadRegistration(std::unique_ptr<Workload> w);
};
#define MESO_REGISTER_WORKLOAD(Type) \
  static const ::meso::bench::WorkloadRegistration meso_workload_registration_##Type{std::make_unique<Type>()}

// Value parsers of the parameter tables: each names key and value when the
// value is not a number, a non-negative integer, or 0/1.
double parse_param_double(const std::string& key, const std::string& v);
uint64_t parse_param_uint(const std::string& key, const std::string& v);
bool parse_param_flag(const std::string& key, const std::string& v);

// Refuses a time step in which a particle at the thermal speed sqrt(3 kT/m)
// moves more than `limit` (`limit_is` says what the limit is).
void check_step_length(double dt, double kT, double mass, double limit, const char* limit_is);

// Refuses (InputError) to report a run that diverged: a non-finite
// temperature or pressure, or a temperature over kDivergedFactor times the
// initial one (a benchmark of an exploding system measures nothing; no
// workload heats itself a hundredfold).
constexpr double kDivergedFactor = 100.0;
void check_not_diverged(const BenchCase& c, const std::string& name, double temperature, double pressure,
                        uint64_t step);

// MD workloads: refuses a step that moves a particle at the thermal speed
// more than half the skin (the displacement check would rebuild too late),
// or half the cutoff without a skin (rebuilt every step).
void check_list_step(const BenchCase& c, double kT, double mass, double rcut);
// MD workloads: the run's part of Workload::setup (starts with a space).
std::string run_setup(const RunParams& r);

// x as a case name shows it (six significant digits: "3", "0.5").
std::string format_number(double x);
// x in the shortest form that reads back to the same double (setup strings).
std::string exact_number(double x);

}  // namespace meso::bench
