// The CUDA backend ("cuda"): the operations of meso/ops/ on the GPU (cell
// lists, neighbor lists, reordering, DPD and Lennard-Jones pair forces,
// bonded forces, the MD-SCF field, the vv, gw, nve, nvt and Langevin
// integrators, domain storage and the MPCD solvent's operations) with every
// variant axis of ARCHITECTURE.md, "Backends and variants" (nlist, cells,
// reorder + sort, pow, precision, rng, fuse, tpp, noise, gather, density).
// The step loop stays on the device: the engine's StepPlan is compiled into
// one CUDA graph per step whose neighbor-list rebuild is a conditional node
// set by a device-side displacement check, so the host never waits between
// rebuilds (see kernels/core/cuda_step_graph.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "meso/run/backend.hpp"

namespace meso::cuda {

// Whether this build has NCCL (the GPU ranks' --transport nccl: the
// backend's connect_device_links), and its version ("NCCL 2.28.9"; ""
// without).
bool nccl_available();
std::string nccl_version();

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
  // Device memory held by this backend and every operation it created, in bytes.
  virtual std::size_t device_bytes() const = 0;
  // The same by holder: "particles" (the particle arrays), "control", and
  // each live operation by its class (CudaNeighborList, CudaDomainStorage, ...).
  virtual std::map<std::string, std::size_t> device_bytes_by_part() const = 0;
  // Times each piece of a step `repeats` times (CUDA events) on the current
  // state and returns median times and byte counts, keyed by piece name
  // ("integrate_first_half", "displacement", "cells", "nlist",
  // "reorder+rebuild", "force", "integrate_second_half"), for the plan the
  // backend last advanced (throws std::logic_error before any). Leaves the
  // trajectory unchanged apart from an extra rebuild.
  virtual std::map<std::string, KernelProfile> profile_kernels(int repeats) = 0;
  // The same for the MPCD solvent's pieces, on its current state (set_mpcd
  // first; throws std::logic_error before): "mpcd_stream", "mpcd_cells" (the
  // shifted cell list), "mpcd_cell_properties", "mpcd_collide" (the
  // velocity update) and, when the variant sorts (reorder=cell, sort > 0),
  // "mpcd_sort". Moves the solvent on (streams and collides it, with
  // collision number 1): callers profile after their timed runs.
  virtual std::map<std::string, KernelProfile> profile_mpcd(int repeats) = 0;
  // Steps run by the graph path vs the host-driven path (diagnostics).
  virtual uint64_t graph_steps() const = 0;
  // MPCD collisions on one of several ranks run as graph launches (with
  // --transport nccl; the others are enqueued kernel by kernel).
  virtual uint64_t mpcd_graph_collisions() const = 0;
};

// Registers "cuda" (usable when a device is present).
void register_cuda_backend(BackendRegistry& registry);

}  // namespace meso::cuda
