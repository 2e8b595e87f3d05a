// Device-side state of the neighbor-list update (StepControl::list): the
// largest displacement since the last build, this step's rebuild and sort
// decisions, overflow reports of the cell and neighbor-list builders, and
// the build counters. Written by the list kernels and by open_step.
#pragma once

#include <cuda_runtime.h>

namespace meso::cuda {

struct ListControl {
  unsigned long long max_disp_bits;  // max squared displacement since the build (double bits)
  unsigned long long step_disp_bits; // the same as the last open_step read it (max_disp_bits restarts)
  unsigned int rebuild;              // this step rebuilds the neighbor list
  unsigned int sort_due;             // this rebuild also reorders the particles
  unsigned int cell_overflow;        // atomic cells: largest occupancy seen when over capacity
  unsigned int nlist_overflow;       // largest list length seen when over capacity
  unsigned int nlist_max;            // largest row of the builds since the host last reset it
  unsigned int force_rebuild;        // 1: rebuild at the next step whatever the displacement; 2: refresh
  unsigned int steps_since_build;
  unsigned int steps_since_sort;
  unsigned long long builds;
  unsigned long long dangerous_builds;
  // Steps whose open_step decided a rebuild, since the context was made. On
  // several ranks the host compares it at each rebuild vote with the votes
  // that rebuilt for this rank: a step between votes that wanted one ran on
  // a stale list (VoteSchedule).
  unsigned long long rebuilds_wanted;
  // Dynamic pruning (StepRules::prune; md/neighbor_list_prune.cu).
  unsigned int prune;             // this step prunes the list the forces read (and does not rebuild)
  unsigned int prune_overflow;    // largest pruned row seen when over the pruned list's capacity
  unsigned int prune_max;         // longest pruned row since the host last reset it
  double outer_moved;             // bound on the displacement since the outer build, up to the last prune
  unsigned long long prunes;      // prunes, one after each build included
};

// The block's largest squared displacement d2 into list->max_disp_bits with
// one atomic per block (atomicMax on the bits of a non-negative double,
// which order as integers): per warp, 64000 particles would queue 2000
// atomics on one address every step. Every thread of the block must call it.
__device__ __forceinline__ void record_max_displacement(double d2, ListControl* list) {
  __shared__ double warp_max[32];
  for (int o = 16; o > 0; o >>= 1) d2 = fmax(d2, __shfl_xor_sync(0xffffffffu, d2, o));
  if ((threadIdx.x & 31u) == 0) warp_max[threadIdx.x >> 5] = d2;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (uint32_t w = 1; w < (blockDim.x + 31) / 32; ++w) d2 = fmax(d2, warp_max[w]);
    if (d2 > 0.0)
      atomicMax(&list->max_disp_bits, static_cast<unsigned long long>(__double_as_longlong(d2)));
  }
}

}  // namespace meso::cuda
