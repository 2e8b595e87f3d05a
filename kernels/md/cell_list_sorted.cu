// Cell list, `cells=sorted` (Tang & Karniadakis, CPC 2014, sec. 3.2): radix
// sort of (cell id, particle index) pairs and cell boundaries found by
// comparing each sorted key with its neighbours. The sort is stable, so the
// members of a cell are contiguous and in ascending index; once the particles
// themselves are reordered (reorder=morton2/hilbert/cell), members[] is close
// to the identity and cells are contiguous ranges of particle indices.
#include <cub/device/device_radix_sort.cuh>

#include "md/cell_list.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

template <class S4>
__global__ void keys_kernel(const S4* __restrict__ pos, uint32_t n, CellGrid grid,
                            uint32_t* __restrict__ keys, uint32_t* __restrict__ vals) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = grid.cell_of(xyz(ldg4(pos + i)));
  vals[i] = i;
}

__global__ void bounds_kernel(const uint32_t* __restrict__ keys, uint32_t n,
                              uint32_t* __restrict__ start, uint32_t* __restrict__ count) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const uint32_t key = keys[k];
  if (k == 0 || keys[k - 1] != key) start[key] = k;
  if (k + 1 == n || keys[k + 1] != key) {
    // The first member's index is start[key]; written by another thread, so
    // find it by scanning back (cells are short) instead of reading start[].
    uint32_t b = k;
    while (b > 0 && keys[b - 1] == key) --b;
    count[key] = k + 1 - b;
  }
}

int key_bits(uint32_t ncells) {
  int b = 1;
  while (b < 32 && (1ull << b) < ncells) ++b;
  return b;
}

}  // namespace

size_t sorted_cells_temp_bytes(uint32_t n) {
  size_t bytes = 0;
  MESO_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, static_cast<uint32_t*>(nullptr),
                                                  static_cast<uint32_t*>(nullptr),
                                                  static_cast<uint32_t*>(nullptr),
                                                  static_cast<uint32_t*>(nullptr), int(n)));
  return bytes;
}

template <class S4>
void build_cells_sorted(const S4* pos, uint32_t n, const CellGrid& grid, uint32_t* start,
                        uint32_t* count, uint32_t* members, const SortedCellScratch& sc,
                        cudaStream_t s) {
  const uint32_t nc = grid.ncells();
  keys_kernel<<<(n + 255) / 256, 256, 0, s>>>(pos, n, grid, sc.keys_in, sc.vals_in);
  MESO_CUDA_CHECK(cudaGetLastError());
  size_t bytes = sc.temp_bytes;
  MESO_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(sc.temp, bytes, sc.keys_in, sc.keys_out,
                                                  sc.vals_in, members, int(n), 0,
                                                  key_bits(nc), s));
  MESO_CUDA_CHECK(cudaMemsetAsync(count, 0, nc * sizeof(uint32_t), s));
  bounds_kernel<<<(n + 255) / 256, 256, 0, s>>>(sc.keys_out, n, start, count);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void build_cells_sorted<Double4>(const Double4*, uint32_t, const CellGrid&, uint32_t*,
                                          uint32_t*, uint32_t*, const SortedCellScratch&,
                                          cudaStream_t);
template void build_cells_sorted<float4>(const float4*, uint32_t, const CellGrid&, uint32_t*,
                                         uint32_t*, uint32_t*, const SortedCellScratch&,
                                         cudaStream_t);

}  // namespace meso::cuda
