// Options shared by several subcommands: value checks CLI11 lacks, the case
// selection (--filter, --backend, --variant, --param) and progress lines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "../variant_defaults.hpp"
#include "../workload.hpp"
#include "meso/run/backend.hpp"

namespace meso::bench {

// A particle count >= 1 (CLI11 would wrap "-1" into 2^64 - 1).
extern const CLI::Validator kParticleCount;
// A finite decimal number (CLI::Range lets "nan" through, and CLI11 and
// std::stod read "0x10" as 16).
extern const CLI::Validator kFinite;
// A whole number from lo to hi written in decimal digits alone: CLI11 would
// wrap "-1" into 2^64 - 1 for an unsigned option, read "0x10" as 16 and
// "010" as 8 (the value is passed on without its leading zeros).
CLI::Validator count_in(uint64_t lo, uint64_t hi);
// A non-empty file name: an output given as '' would otherwise read as "not given".
extern const CLI::Validator kFileName;

// --filter, --backend, --variant and --param of run and list.
struct SelectionOptions {
  std::string filter, backend = "auto", variant;
  std::vector<std::string> params;  // key=value
  uint64_t max_n = 0;               // 0: 262144 on the cpu, no limit otherwise
};
void add_selection_options(CLI::App* app, SelectionOptions& o);
// --filter, --backend and --variant alone (validate has its own options struct).
void add_filter_backend_variant(CLI::App* app, std::string& filter, std::string& backend, std::string& variant);

// --quiet and --progress-interval of the commands that run simulations.
struct ProgressOptions {
  bool quiet = false;               // no progress lines
  double progress_interval = 10.0;  // seconds between plain lines (not a terminal)
};
void add_progress_options(CLI::App* app, ProgressOptions& o);

// The selected cases with their resolved backend and variants.
struct Selection {
  std::vector<BenchCase> cases;
  std::vector<std::string> names;
  std::vector<ResolvedVariant> variants;  // per case: its workload's default under --variant
  std::string backend;                    // resolved
};

// Resolves the backend and each case's variant (its workload's default for
// the backend and precision, overridden axis by axis by --variant), applies
// --param overrides, and keeps the cases whose full name matches the filter
// (or the default suite without one). `for_listing`: every case matches an
// empty filter, and a filter matching only validation cases is no error.
Selection select_cases(const SelectionOptions& o, const BackendRegistry& reg, bool for_listing);

}  // namespace meso::bench
