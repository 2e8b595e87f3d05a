// Runs one benchmark case: build the system, warm up, then time `repeats`
// batches of steps with a steady clock (after the backend synchronized) and
// keep every repeat, so the report can give the median and the spread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meso/run/backend.hpp"
#include "meso/run/simulation.hpp"
#include "variant_defaults.hpp"
#include "workload.hpp"

namespace meso::bench {

struct RunOptions {
  int repeats = 5;
  double min_time = 0.2;     // seconds per repeat at least
  double warmup_time = 0.3;  // seconds of untimed steps first (and >= 2 steps)
  // Backend-specific measurements after the timed repeats (device backends:
  // per-kernel times, bytes moved, memory per particle); null when none.
  std::function<nlohmann::json(Simulation&)> inspect;
};

struct BenchResult {
  BenchCase bench;
  std::string name;   // the full case name (the JSON's, what compare matches)
  std::string label;  // its short form for tables and progress lines (BenchCase::label)
  std::string backend;
  std::string variant_requested;  // the variant the case ran with, every axis
  std::string variant_default;    // the workload's default it started from (variant_defaults.hpp)
  std::string variant_given;      // the axes --variant named over it
  std::string variant_effective;  // the axes the backend honoured
  std::string variant_ignored;    // the axes it did not (ARCHITECTURE.md, "Backends and variants")
  std::string variant_tuned;      // the settings the autotuner chose, and from where (tune.hpp); "": none
  uint64_t n = 0;
  double box[3] = {0, 0, 0};
  uint64_t steps_per_repeat = 0;
  std::vector<double> tps;  // one entry per repeat
  double tps_median = 0, tps_min = 0, tps_max = 0;
  double mps_median = 0;  // million particle-steps per second
  double setup_seconds = 0;
  NeighborStats neighbors;
  ThermoSample final_thermo;
  nlohmann::json device;  // from RunOptions::inspect
};

// Fills the name, backend, box and variant fields of r for case c run on b.
void describe_case(BenchResult& r, const BenchCase& c, const Backend& b, const ResolvedVariant& rv,
                   const Box& box);

// `variant` is the case's resolved variant (resolve_variant); its default and
// given parts are recorded as they are.
BenchResult run_case(const BenchCase& c, const BackendRegistry& registry,
                     const std::string& backend, const ResolvedVariant& variant,
                     const RunOptions& opt);

}  // namespace meso::bench
