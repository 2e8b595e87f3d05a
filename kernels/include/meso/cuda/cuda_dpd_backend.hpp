// The CUDA DPD backend ("cuda"): cell lists, neighbor lists, reordering, DPD
// forces and Verlet integration on the GPU, with every variant axis of
// DESIGN.md (nlist, cells, reorder + sort, pow, precision, rng, fuse). The
// step loop stays on the device: each step is one CUDA graph whose neighbor
// list rebuild is a conditional node set by a device-side displacement check,
// so the host never waits between rebuilds (see kernels/cuda_dpd_backend.cu).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "meso/backend.hpp"

namespace meso::cuda {

// Per-kernel timing of one step's pieces (for benchmarks): median device
// time in microseconds and the minimum bytes each must move (each array read
// or written once), from which the achieved bandwidth follows.
struct KernelProfile {
  double median_us = 0.0;
  double bytes = 0.0;
};

// Extra, CUDA-only introspection. Obtain with dynamic_cast from a Backend.
class CudaBackendInfo {
 public:
  virtual ~CudaBackendInfo() = default;
  // Device memory held by this backend's allocations, in bytes.
  virtual std::size_t device_bytes() const = 0;
  // Times each piece of a step `repeats` times (CUDA events) on the current
  // state and returns median times and byte counts, keyed by piece name
  // ("integrate_first_half", "displacement", "cells", "nlist", "reorder",
  // "force", "integrate_second_half"). Leaves the trajectory unchanged apart
  // from an extra rebuild.
  virtual std::map<std::string, KernelProfile> profile_kernels(int repeats) = 0;
  // Steps run by the graph path vs the host-driven path (diagnostics).
  virtual uint64_t graph_steps() const = 0;
  // Neighbor rows as stored (particle indices, storage order of particles
  // and of entries): for tests of the ballot list's ordering.
  virtual std::vector<std::vector<uint32_t>> neighbor_rows() const = 0;
  // Test hook: forces a rebuild at the next step and, if cap > 0, shrinks the
  // per-particle capacity to cap first, so that this in-graph rebuild
  // overflows and exercises the recovery path.
  virtual void set_neighbor_capacity_for_test(uint32_t cap) = 0;
};

// Registers "cuda" (usable when a device is present).
void register_cuda_backend(BackendRegistry& registry);

}  // namespace meso::cuda
