// Neighbor-list builders (the `nlist` variant axis) and the displacement check
// that decides when to rebuild. Lists are full (both i-j and j-i), in the
// column-major layout of NlistView, built for r_list = max r_c + skin.
// A particle with more than cap neighbors is never truncated silently: its
// count is stored in full, ctl->nlist_overflow records the largest count and
// the caller grows cap and rebuilds.
#pragma once

#include <cuda_runtime.h>

#include "device_views.cuh"

namespace meso::cuda {

// Stencil helpers of the atomic and tiled builders. wrap_cell: a cell index
// one step outside [0, n) brought back. image_shift: +L when the neighbour
// cell index wrapped below 0, -L when it wrapped past n - 1; (x_i - x_j) +
// shift is then bit for bit what MinImage gives for every pair within r_list
// (it subtracts L * rint(x / L) = -shift exactly), without a multiply and a
// rint per pair. Valid when every axis has at least 3 cells.
__device__ __forceinline__ int wrap_cell(int x, int n) { return x < 0 ? x + n : (x >= n ? x - n : x); }

template <class R>
__device__ __forceinline__ R image_shift(int c, R len, int n) {
  return c < 0 ? len : (c >= n ? -len : R(0));
}

struct NlistBuildArgs {
  CellGrid grid;
  CellView cells;
  NlistView nl;
  Box box;
  double r_list_sq;  // r_c + skin, squared
  double r_core_sq;  // max r_c squared: entries inside it go first (ballot)
  StepControl* ctl;
  uint32_t n;        // particles
  uint32_t tpp = 1;  // nlist=atomic: lanes per particle (variant axis tpp)
};

// ballot (Tang & Karniadakis, CPC 2014, Alg. 3): one warp per cell.
template <class S4>
void build_nlist_ballot(const S4* pos, const NlistBuildArgs& a, cudaStream_t s);
// Whether the ballot kernel's shared-memory tile fits for this capacity.
bool ballot_fits(uint32_t cap);

// atomic (HOOMD-blue NeighborListGPUBinned): a.tpp lanes per particle over the
// 27 stencil cells, appending to its own row (a private counter at tpp = 1,
// a ballot of the group's hits above). The list does not depend on tpp.
template <class S4>
void build_nlist_atomic(const S4* pos, const NlistBuildArgs& a, cudaStream_t s);

// tiled: one block per cell, the stencil's members staged in shared memory
// once and scanned there by every particle of the cell; the rows of atomic.
template <class S4>
void build_nlist_tiled(const S4* pos, const NlistBuildArgs& a, cudaStream_t s);

// Copies positions to last_pos (the reference of the displacement check) and
// bookkeeps the build in ctl (builds, steps_since_build, overflow -> abort).
template <class S4>
void finish_nlist_build(const S4* pos, S4* last_pos, uint32_t n, StepControl* ctl,
                        cudaStream_t s);

// Largest squared displacement since the last build, into ctl->max_disp_bits
// (atomicMax on the bits of a non-negative double, which order as integers).
template <class S4>
void max_displacement(const S4* pos, const S4* last_pos, uint32_t n, const Box& box,
                      StepControl* ctl, cudaStream_t s);

}  // namespace meso::cuda
