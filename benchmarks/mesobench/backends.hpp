// The backends compiled into this build, registered by name.
#pragma once

#include <nlohmann/json.hpp>

#include "meso/backend.hpp"

namespace meso::bench {
void register_backends(BackendRegistry& registry);
// One GPU per rank: makes device local_rank % count current (no-op without CUDA).
void select_device_for_rank(int local_rank);
// Device-backend measurements for the benchmark JSON (memory per particle,
// per-kernel time, bytes, bandwidth against the measured copy bandwidth);
// null for backends without them.
nlohmann::json inspect_backend(Backend& b, uint64_t n);
// The same for the MPCD solvent (stream, cell list, cell properties, collide, sort).
nlohmann::json inspect_mpcd_backend(Backend& b, uint64_t n);
}
