// Neighbor-list builders (the `nlist` variant axis); the displacement check
// that decides when to rebuild and the end of a build are in
// neighbor_list_bookkeeping.cuh. Lists are full (both i-j and j-i), in either
// layout of NlistView, or half (nlist=half: each pair once, column-major),
// built for r_list = max r_c + skin, and, with dynamic pruning, pruned from
// there to r_c + inner_skin (prune_nlist below).
// A particle with more than cap neighbors is never truncated silently: its
// count is stored in full, ctl->list.nlist_overflow records the largest count and
// the caller grows cap and rebuilds.
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "md/neighbor_list_bookkeeping.cuh"

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

// The stencil of cell (cx, cy, cz): cell(q) is its q-th neighbour in the
// order of CellGrid::stencil_cell (z outer, x inner), with that neighbour's
// image shifts.
struct Stencil {
  int cx, cy, cz, lx, ly, lz, wx, wy, size;
  __device__ Stencil(const CellGrid& g, int x, int y, int z) : cx(x), cy(y), cz(z) {
    int hx, hy, hz;
    CellGrid::offsets(g.nx, lx, hx);
    CellGrid::offsets(g.ny, ly, hy);
    CellGrid::offsets(g.nz, lz, hz);
    wx = hx - lx + 1;
    wy = hy - ly + 1;
    size = wx * wy * (hz - lz + 1);
  }
  template <class R>
  __device__ uint32_t cell(const CellGrid& g, int q, const MinImage<R>& box, R& sx, R& sy,
                           R& sz) const {
    const int x = cx + lx + q % wx, y = cy + ly + (q / wx) % wy, z = cz + lz + q / (wx * wy);
    sx = image_shift(x, box.lx, g.nx);
    sy = image_shift(y, box.ly, g.ny);
    sz = image_shift(z, box.lz, g.nz);
    return uint32_t((wrap_cell(z, g.nz) * g.ny + wrap_cell(y, g.ny)) * g.nx + wrap_cell(x, g.nx));
  }
};

struct NlistBuildArgs {
  CellGrid grid;
  CellView cells;
  NlistView nl;
  Box box;
  double r_list_sq;  // r_c + skin, squared
  double r_core_sq;  // max r_c squared: entries inside it go first (ballot)
  StepControl* ctl;
  uint32_t n;        // local particles: rows are built for them; ghosts (members >= n) are candidates only
  uint32_t tpp = 1;  // nlist=atomic: lanes per particle (variant axis tpp)
  bool half = false;  // nlist=half: each pair in one row (the tiled builder only)
  // Lees-Edwards shear (the ballot builder only): the sheared stencil below,
  // and a pair across a z face listed when within r_list in y and z
  // whatever its x, as the reference's NeighborList::build: the images'
  // offset along x moves with time, and the list then holds for any offset.
  bool sheared = false;
};

// The stencil of CellList::sheared_stencil (the reference): the layer of
// cells across a z face of the box takes its whole rows along x, the others
// the usual columns; z outer, x inner. The grid has at least 3 cells along z
// under shear (the cuda backend refuses fewer), so a cell has three distinct
// layers and at most one of them across a face.
__device__ inline int sheared_stencil_size(const CellGrid& g, uint32_t c) {
  int lx, hx, ly, hy;
  CellGrid::offsets(g.nx, lx, hx);
  CellGrid::offsets(g.ny, ly, hy);
  const int wx = hx - lx + 1, wy = hy - ly + 1;
  const int cz = int(c / uint32_t(g.nx * g.ny));
  const bool face = cz == 0 || cz == g.nz - 1;
  return wy * (3 * wx + (face ? g.nx - wx : 0));
}

__device__ inline uint32_t sheared_stencil_cell(const CellGrid& g, uint32_t c, int k) {
  int lx, hx, ly, hy;
  CellGrid::offsets(g.nx, lx, hx);
  CellGrid::offsets(g.ny, ly, hy);
  const int wx = hx - lx + 1, wy = hy - ly + 1;
  const int cx = int(c % uint32_t(g.nx)), cy = int((c / uint32_t(g.nx)) % uint32_t(g.ny)),
            cz = int(c / uint32_t(g.nx * g.ny));
  for (int dz = -1; dz <= 1; ++dz) {
    const int z = cz + dz;
    const bool across = z < 0 || z >= g.nz;
    const int w = across ? g.nx : wx;  // cells of a row
    if (k < w * wy) {
      const int y = (cy + ly + k / w + g.ny) % g.ny;
      const int x = across ? k % w : (cx + lx + k % w + g.nx) % g.nx;
      return uint32_t((((z + g.nz) % g.nz) * g.ny + y) * g.nx + x);
    }
    k -= w * wy;
  }
  return c;  // unreachable for k < sheared_stencil_size
}

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
// With a.half (nlist=half), each pair in one of its two rows only, split by
// index parity (neighbor_list_tiled.cu).
template <class S4>
void build_nlist_tiled(const S4* pos, const NlistBuildArgs& a, cudaStream_t s);

// Dynamic pruning (neighbor_list_prune.cu): each row of `outer` filtered
// to the entries within r_c + inner_skin, into `inner` (same layout, same
// order); last_pos = pos (the next displacement check's reference);
// ctl->list.prune_max, and an overflow of inner.cap into
// ctl->list.prune_overflow and ctl->abort.
struct NlistPruneArgs {
  NlistView outer, inner;
  Box box;
  double r_inner_sq;  // (r_c + inner_skin)^2, widened by 2^-20 relative for fp32 lists
  StepControl* ctl;
  uint32_t n;  // local particles (one rank)
};
// tpp: lanes a row (the list's: row-major when above 1).
template <class S4>
void prune_nlist(const S4* pos, S4* last_pos, const NlistPruneArgs& a, uint32_t tpp, cudaStream_t s);

// cluster (nlist=cluster, neighbor_list_cluster.cu): rows per i-cluster of
// kClusterI consecutive particles, naming the j-clusters (kClusterJ
// consecutive particles) with a member within r_list of the i-cluster's
// bounding box.
constexpr uint32_t kClusterI = 8;
constexpr uint32_t kClusterJ = 4;
template <class S4>
void build_nlist_cluster(const S4* pos, const NlistBuildArgs& a, cudaStream_t s);

// finish_nlist_build and max_displacement: neighbor_list_bookkeeping.cuh
// (included above).

}  // namespace meso::cuda
