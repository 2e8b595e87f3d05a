// The backends compiled into this build, registered by name.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "meso/run/backend.hpp"
#include "meso/run/simulation.hpp"

namespace meso::bench {
void register_backends(BackendRegistry& registry);
// One GPU per rank: makes device local_rank % count current (no-op without CUDA).
void select_device_for_rank(int local_rank);
// GPUs this process can use (0 without the CUDA backend).
int gpu_count();
// Whether the CUDA backend of this build has NCCL (--transport nccl).
bool nccl_transport_built();
// Device memory a backend and its operations hold (0 for a CPU backend).
std::size_t device_bytes_of(const Backend& b);
// The same by holder (the particle arrays, each operation), empty for a CPU backend.
std::map<std::string, std::size_t> device_bytes_by_part_of(const Backend& b);
// Device-backend measurements of a simulation's backend for the benchmark
// JSON (memory per particle, per-kernel time, bytes, bandwidth against the
// measured copy bandwidth): the kernels of the MD step, or of the solvent's
// collision period (stream, cell list, cell properties, collide, sort) when
// there are no MD particles; null for backends without them.
nlohmann::json inspect_backend(Simulation& sim);
}
