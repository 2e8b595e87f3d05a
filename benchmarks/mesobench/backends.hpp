// The backends compiled into this build, registered by name.
#pragma once

#include <nlohmann/json.hpp>

#include "meso/backend.hpp"

namespace meso::bench {
void register_backends(BackendRegistry& registry);
// Device-backend measurements for the benchmark JSON (memory per particle,
// per-kernel time, bytes, bandwidth against the measured copy bandwidth);
// null for backends without them.
nlohmann::json inspect_backend(Backend& b, uint64_t n);
// The same for the MPCD solvent (stream, cell list, cell properties, collide, sort).
nlohmann::json inspect_mpcd_backend(Backend& b, uint64_t n);
}
