// The named workloads of DESIGN.md section 7 and the benchmark cases built from
// them. A case name reads like a Google Benchmark name and encodes everything
// that makes two numbers comparable:
//   dpd-fluid/step/<backend>/<effective variant>/rho=3/rc=1/s=0.5/N=32768
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/backend.hpp"
#include "meso/system.hpp"

namespace meso::bench {

struct BenchCase {
  std::string workload;  // "dpd-fluid"
  std::string kernel;    // what is timed: "step" = the whole time step
  DpdFluidParams fluid;
  RunParams run;
  bool in_default_suite = false;

  // Full name for a backend and the variant string it honoured.
  std::string name(const std::string& backend, const std::string& variant) const;
};

// All registered cases, in a fixed order.
const std::vector<BenchCase>& all_cases();

// Overrides from `--param key=value` (rho, a, gamma, kT, rc, s, N, L, dt,
// skin, rebuild_every, integrator, lambda, seed). Throws InputError naming an
// unknown key or a value that does not parse; physical validity is checked by
// the engine when the system is built.
void apply_param(BenchCase& c, const std::string& key_value);

}  // namespace meso::bench
