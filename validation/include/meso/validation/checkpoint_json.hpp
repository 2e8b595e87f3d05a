// A Checkpoint as JSON, so that a validation repeat longer than one job (or
// one device call) can stop at a time limit and continue later
// (`mesobench validate --time-limit`, `--resume`). Doubles are written with
// round-trip precision, so a checkpoint read back is the one written.
#pragma once

#include <nlohmann/json.hpp>

#include "meso/run/simulation.hpp"

namespace meso::validation {

nlohmann::json checkpoint_to_json(const Checkpoint& cp);
// Throws InputError naming the field when the JSON is not a checkpoint.
Checkpoint checkpoint_from_json(const nlohmann::json& j);

}  // namespace meso::validation
