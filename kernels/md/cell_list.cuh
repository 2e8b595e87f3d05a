// Cell-list builders (the `cells` variant axis). Both produce a CellView with
// the members of each cell in ascending particle index, so that the
// neighbor-list builders are deterministic whatever the insertion order.
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"

namespace meso::cuda {

// Insertion sort of one cell's row (one thread per row) by key(member),
// ascending: the atomic builders (cells=atomic by particle index, the MPCD
// solvent's cell list by tag, mpcd_cell_list.cu) sort each row so that the
// order of members does not depend on the order in which the atomics were
// served. Rows hold ~rho (r_c + skin)^3 members (7 at rho = 3, 110 at
// rho = 50) or ~10 solvent particles, where this beats any parallel sort.
struct IndexKey {
  __device__ uint32_t operator()(uint32_t i) const { return i; }
};
template <class Key = IndexKey>
__device__ inline void sort_row_ascending(uint32_t* row, uint32_t m, Key key = {}) {
  for (uint32_t a = 1; a < m; ++a) {
    const uint32_t v = row[a];
    const uint32_t kv = key(v);
    uint32_t b = a;
    while (b > 0 && key(row[b - 1]) > kv) {
      row[b] = row[b - 1];
      --b;
    }
    row[b] = v;
  }
}

// atomic (HOOMD-blue): each particle takes a slot of its cell's row of the
// ncells x cap matrix with atomicAdd, then each row is sorted. Occupancy
// beyond cap is recorded in ctl->list.cell_overflow (the largest count seen) and
// nothing is written out of bounds; the caller grows cap and rebuilds.
template <class S4>
void build_cells_atomic(const S4* pos, uint32_t n, const CellGrid& grid, uint32_t* count,
                        uint32_t* members, uint32_t cap, StepControl* ctl, cudaStream_t s);

// sorted (Tang & Karniadakis): keys = cell ids, radix sort of (key, index)
// pairs (stable, so ascending index within a cell), then cell boundaries by
// comparing each key with its neighbours. keys/vals are n-element scratch
// pairs (in and out); temp is CUB's scratch of temp_bytes.
struct SortedCellScratch {
  uint32_t* keys_in;
  uint32_t* keys_out;
  uint32_t* vals_in;
  void* temp;
  size_t temp_bytes;
};
size_t sorted_cells_temp_bytes(uint32_t n);
template <class S4>
void build_cells_sorted(const S4* pos, uint32_t n, const CellGrid& grid, uint32_t* start,
                        uint32_t* count, uint32_t* members, const SortedCellScratch& scratch,
                        cudaStream_t s);

}  // namespace meso::cuda
