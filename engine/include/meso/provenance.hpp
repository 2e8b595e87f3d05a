// Provenance recorded with every benchmark and validation result
// (ARCHITECTURE.md, "Performance methodology"): git commit, compiler, build
// type, CPU and GPU model, date.
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
};

Provenance collect_provenance();

}  // namespace meso
