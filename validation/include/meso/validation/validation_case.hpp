// A validation case compares physics against a published or analytic value
// (DESIGN.md section 6). Each case lives in validation/<name>/ with a README
// stating source, parameters, reference value, tolerance and why. It runs in
// two forms sharing one code path: `short_form` on the CPU in CI (ctest -L
// validation) and `long_form` with the full system (ctest -L validation-long).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meso/backend.hpp"
#include "meso/block_average.hpp"

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
};

// The value of knob `key` (an override from ctx.params, else `fallback`).
double knob(const Context& ctx, const std::string& key, double fallback);

struct Case {
  std::string name;
  std::string source;  // citation
  std::function<Result(const Context&)> run;
  // Knobs the case reads from Context::params, "name: meaning" (listed by
  // `mesobench list`; an override no selected case knows is an input error).
  std::vector<std::string> knobs = {};
};

const std::vector<Case>& all_cases();

// Block averaging lives in the engine (meso/block_average.hpp).
using meso::block_average;
using meso::BlockAverage;

}  // namespace meso::validation
