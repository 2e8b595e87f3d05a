// A validation case compares physics against a published or analytic value
// (ARCHITECTURE.md, "Validation cases"). Each gate is one folder,
// validation/<name>/: the case's code, which registers it
// (MESO_REGISTER_VALIDATION_CASE), a README stating source, parameters,
// reference value, tolerance and why, the short form's test (*_test.cpp)
// and gate.cmake (the long forms' ctest entries). It runs in two forms
// sharing one code path: `short_form` on the CPU in CI (ctest -L validation)
// and `long_form` with the full system (ctest -L long).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meso/run/backend.hpp"
#include "meso/analysis/block_average.hpp"
#include "meso/io/h5md.hpp"

namespace meso::validation {

enum class Form { short_form, long_form };
const char* to_string(Form f);

struct Result {
  std::string name;
  std::string quantity;      // what was measured
  double measured = 0.0;
  double uncertainty = 0.0;  // standard error of `measured`
  double reference = 0.0;
  double reference_uncertainty = 0.0;
  double tolerance = 0.0;    // |measured - reference| must not exceed this
  std::string rule;          // how the tolerance was derived
  bool passed = false;
  // A shard (Context::shard_count > 1) holds some of the repeats: its gates
  // are not evaluated until `mesobench validate --merge` joins the shards.
  bool partial = false;
  // Stopped at Context::stop_at before its repeats finished: data holds what
  // `mesobench validate --resume` needs to continue (partial is set too).
  bool incomplete = false;
  nlohmann::json data;       // series and details for plots
};

struct Context {
  Form form = Form::short_form;
  std::string backend = "cpu";
  Variant variant;
  const BackendRegistry* registry = nullptr;
  uint64_t seed = 1;
  // Overrides of a case's own knobs (`mesobench validate --param k=v`), e.g.
  // fewer runs to smoke-test a long form. A run with overrides is not the
  // published protocol; results record them.
  std::map<std::string, double> params;
  // Repeats are independent (own seed and initial configuration), so a case
  // that keeps per-repeat records can be split over processes, GPUs, nodes or
  // sessions: this process runs shard `shard_index` of `shard_count`
  // (`mesobench validate --shard I/N`), and `--merge` joins the JSON files.
  // Repeat k has the same seed whichever shard runs it, so the merged result
  // equals the unsplit one.
  int shard_index = 0;
  int shard_count = 1;
  // A repeat longer than one job can stop at a safe point once this time has
  // passed (`--time-limit`) and continue later from the data it left
  // (`--resume`: `resume` is that data, this case's entry of the file).
  // Only cases with Case::resumable read these.
  std::optional<std::chrono::steady_clock::time_point> stop_at;
  const nlohmann::json* resume = nullptr;
  // The negative control being run (`--control NAME`), empty for the gate
  // itself; its knobs are in `params` (control_params).
  std::string control;
};

// Repeats [first, last) of `runs` that this context's shard runs (an even
// split, the first shards one longer). A shard with no repeat is an input
// error naming the values.
struct RunRange {
  int first = 0, last = 0;
};
RunRange shard_runs(const Context& ctx, int runs);

// Whether the context's time limit (`--time-limit`) has passed.
bool past_time_limit(const Context& ctx);

// This shard's repeats of a resumable case, each a record with "run" and
// "seed" (ctx.seed + its index). Repeats a resumed run finished are kept;
// an incomplete one is continued by `one(run, seed, from)` from its record;
// once the time limit passes (after this call has advanced one repeat) the
// rest are recorded as not started ({"run", "seed", "incomplete": true}).
// `stopped` tells whether any record is incomplete.
using RepeatFn = std::function<nlohmann::json(int run, uint64_t seed, const nlohmann::json* from)>;
nlohmann::json run_repeats(const Context& ctx, int runs, const RepeatFn& one, bool& stopped);

// Every k-th sample of a series, k the least that leaves at most
// `max_points` (the series itself when it is that short): the long series
// a result keeps for its plots.
std::vector<double> thin_series(const std::vector<double>& v, std::size_t max_points);

// The value of knob `key` (an override from ctx.params, else `fallback`).
double knob(const Context& ctx, const std::string& key, double fallback);

// A negative control (docs/testing.md, "Negative controls"): wrong physics of
// a stated size, made by setting the case's own knobs, that its gates must
// reject. A gate that passes its control cannot tell right from wrong, so
// every case declares at least one (CaseRegistration refuses a case without).
// `mesobench validate --control NAME` runs it; ctest runs each control's short
// form (validation_negative_test, labels validation and negative) and passes
// only when the gate fails.
struct Control {
  std::string name;  // `--control NAME`
  std::string what;  // the perturbation and its size, for `mesobench list`
  // The knobs that make the wrong physics, in either form.
  std::map<std::string, double> params;
  // Knobs of the short form only (a shorter run): the perturbation is large
  // enough that a fraction of the gate's short form rejects it.
  std::map<std::string, double> short_params = {};
  // false: the short form cannot resolve the control in CI's time; its long
  // form on a device rejects it (the gate's README records the run).
  bool in_ci = true;
  // Where in_ci is false: the long form is the one that rejects it on a
  // device (its chains or its time); otherwise the short form there.
  bool device_long = false;
  // Where in_ci is false: the committed result (a path under results/) of
  // the run that rejected it. `mesobench list --controls` prints it and
  // scripts/controls_shown.py checks that the file ran this control and
  // failed the gate; a control not yet shown leaves it empty, and that check
  // fails, naming it.
  std::string shown = {};
};

// Case::workload of a case whose simulations no registered workload runs:
// it runs Variant{} (with --variant's axes) on every backend.
inline constexpr const char* kNoWorkload = "none";

struct Case {
  std::string name;
  // The registered workload (`mesobench list`) whose kernels and model the
  // case's simulations run, or kNoWorkload. On a GPU `mesobench validate`
  // runs that workload's default variant with --variant's axes over it, as
  // `mesobench run` does (`mesobench list --variants`), so that a gate
  // vouches for what a benchmark of the workload runs and a result records
  // the precision a user gets (issue 57). Required: CaseRegistration refuses
  // a case without it, as one without a control.
  std::string workload;
  std::string source;  // citation
  std::function<Result(const Context&)> run;
  // Knobs the case reads from Context::params, "name: meaning" (listed by
  // `mesobench list`; an override no selected case knows is an input error).
  std::vector<std::string> knobs = {};
  // Its negative controls: at least one.
  std::vector<Control> controls = {};
  // Set by cases that can be sharded. `run` leaves its per-repeat records in
  // Result::data["per_run"] (in repeat order) beside the shared fields, and
  // `analyse` computes the result and the gates from such data alone. `run`
  // calls it on its own data when unsharded; `--merge` calls it on the first
  // shard's data with the per_run arrays of all shards joined in order.
  std::function<Result(const Context&, const nlohmann::json& data)> analyse = {};
  // Honours Context::stop_at and Context::resume.
  bool resumable = false;
  // The units of its simulations' trajectories (validate --trajectory).
  io::H5mdUnits units = io::reduced_units("the reduced DPD, LJ or SRD units of the case's model");
  // Axes the case's simulations need on a GPU, laid over the workload's
  // default before --variant's (dpd-couette: Lees-Edwards shear runs on the
  // ballot list alone); empty for most.
  std::string gpu_axes = {};
};

// A partial Result for a shard: name and data, no gate.
Result shard_result(const Context& ctx, std::string name, nlohmann::json data);

// Every registered case, sorted by name.
const std::vector<Case>& all_cases();

// The case's control `name`, or an input error naming it and the case's
// controls.
const Control& find_control(const Case& c, const std::string& name);

// The knobs a run of control `k` in `form` sets: its params, and in the
// short form its short_params. A knob in `given` (`--param`) that the
// control's perturbation sets is an input error; run-length knobs given
// there win over short_params.
std::map<std::string, double> control_params(const Control& k, Form form,
                                             const std::map<std::string, double>& given);

// Registration, as workloads register (MESO_REGISTER_WORKLOAD): a static
// object in the case's own file whose construction adds the case to the
// registry before main(). A name registered twice, a case without a workload
// (or kNoWorkload) or without a negative control, and a control setting a
// knob the case does not have are programming errors.
struct CaseRegistration {
  explicit CaseRegistration(Case c);
};

// MESO_REGISTER_VALIDATION_CASE({.name = "...", .source = "...", .run = ...,
// ...}): the Case, its fields by designator in declaration order, or an
// expression making one. The library is an object library
// (validation/CMakeLists.txt), so the linker keeps every registration
// although nothing names it.
#define MESO_VALIDATION_CASE_CONCAT_(a, b) a##b
#define MESO_VALIDATION_CASE_NAME_(line) MESO_VALIDATION_CASE_CONCAT_(meso_validation_case_, line)
#define MESO_REGISTER_VALIDATION_CASE(...) \
  static const ::meso::validation::CaseRegistration MESO_VALIDATION_CASE_NAME_(__LINE__) { __VA_ARGS__ }

// Block averaging lives in the engine (meso/analysis/block_average.hpp).
using meso::block_average;
using meso::BlockAverage;

}  // namespace meso::validation
