// Provenance recorded with every benchmark and validation result
// (ARCHITECTURE.md, "Performance methodology"): git commit, compiler, build
// type, CPU and GPU model, date, and the diagnostics the run printed.
#pragma once

#include <string>

namespace meso {

struct Provenance {
  std::string git_commit;   // from configure time, "-dirty" when the tree had changes
  std::string compiler;
  std::string build_type;
  std::string cpu_model;
  int cpu_threads = 0;      // OpenMP threads available to the CPU backend
  std::string gpu_model;    // empty when no CUDA device is visible
  std::string gpu_driver;
  std::string date_utc;     // ISO 8601
  std::string hostname;
  std::string version;
  std::string diagnostics;  // diagnostics_set(): the timing diagnostics on, empty: none
};

Provenance collect_provenance();

// Diagnostics: environment switches that only print where a run's time
// goes (they wait for the device between phases: slower, the same
// results). They stay in the environment, where mpirun -x hands them to
// every rank; everything that changes what runs is a variant axis
// (meso/run/variant.hpp). Each is on with its variable set to 1:
// MESO_STEP_PHASES (the CUDA step's phases on several ranks, or on one
// with graphs=off) and MESO_SOLVENT_PHASES (the MPCD solvent's collision
// period on CUDA ranks).
enum class Diagnostic { step_phases, solvent_phases };
bool diagnostic_on(Diagnostic d);
// "MESO_STEP_PHASES=1,..." for those on, as the provenance records them.
std::string diagnostics_set();

}  // namespace meso
