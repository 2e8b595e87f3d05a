// The autotuner's options of `mesobench run` (tune_command.cpp, tune.hpp).
#pragma once

#include <string>
#include <vector>

#include "meso/run/backend.hpp"
#include "options.hpp"

namespace meso::bench {

struct TuneApply {
  std::string table;                // --tuned FILE: the choices `mesobench tune` wrote
  bool autotune = false;            // --autotune: tune each case without an entry first
  double tune_time = 20.0;          // --tune-time: seconds of timing per case, at most
  std::vector<std::string> params;  // the --param settings (key=value): never tuned over
};

// Applies to each selected case the table's entry for this device (or, with
// autotune, a fresh choice), over what the user did not name; returns, per
// case, what was applied and from where ("" where nothing was).
std::vector<std::string> apply_tuning(Selection& s, const TuneApply& t, const BackendRegistry& reg);

}  // namespace meso::bench
