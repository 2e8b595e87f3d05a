// `mesobench validate`: run validation cases, whole or as shards of their
// repeats, and join shards' JSON files (`--merge`) into the gated result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/run/backend.hpp"

namespace meso::bench {

struct ValidateOptions {
  std::string filter, backend = "auto", variant, json;
  std::vector<std::string> params;  // knob=value
  bool long_form = false;
  uint64_t seed = 1;
  std::string shard;                // "I/N", empty: the whole case
  std::vector<std::string> merge;   // shards' JSON files to join
  double time_limit = -1.0;         // seconds; < 0: none
  std::string resume;               // an incomplete run's JSON to continue
  std::string control;              // a negative control of the selected cases
};

// Runs the selected cases (or one shard of each, or continues an incomplete
// run); prints a table and writes JSON. Returns 0 when every gate passed (or
// a shard ran; under --control, when every gate rejected its control), 1 when
// one failed (under --control, accepted it), kExitIncomplete when the time limit
// stopped a case before its repeats finished (continue with --resume).
constexpr int kExitIncomplete = 3;
int cmd_validate(const ValidateOptions& o, const BackendRegistry& reg);
// Joins the shards' JSON files of one sharded validation run and evaluates
// the gates on all repeats. Returns as cmd_validate.
int cmd_merge(const ValidateOptions& o);

}  // namespace meso::bench
