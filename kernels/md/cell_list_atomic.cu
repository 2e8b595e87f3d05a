// Cell list, `cells=atomic` (HOOMD-blue CellListGPU): atomic insertion into a
// row-major cell matrix, overflow detected and reported for a grow-and-rebuild,
// then each row sorted so that membership order does not depend on the order
// in which the atomics were served.
#include "md/cell_list.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

template <class S4>
__global__ void insert_kernel(const S4* __restrict__ pos, uint32_t n, CellGrid grid,
                              uint32_t* __restrict__ count, uint32_t* __restrict__ members,
                              uint32_t cap, StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || ctl->abort) return;
  const uint32_t c = grid.cell_of(xyz(ldg4(pos + i)));
  const uint32_t slot = atomicAdd(count + c, 1u);
  if (slot < cap)
    members[size_t(c) * cap + slot] = i;
  else
    atomicMax(&ctl->list.cell_overflow, slot + 1);
}

// One row per thread (sort_row_ascending, cell_list.cuh).
__global__ void sort_rows_kernel(uint32_t ncells, const uint32_t* __restrict__ count,
                                 uint32_t* __restrict__ members, uint32_t cap,
                                 const StepControl* ctl) {
  const uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= ncells || ctl->abort || ctl->list.cell_overflow) return;
  sort_row_ascending(members + size_t(c) * cap, count[c]);
}

}  // namespace

template <class S4>
void build_cells_atomic(const S4* pos, uint32_t n, const CellGrid& grid, uint32_t* count,
                        uint32_t* members, uint32_t cap, StepControl* ctl, cudaStream_t s) {
  const uint32_t nc = grid.ncells();
  MESO_CUDA_CHECK(cudaMemsetAsync(count, 0, nc * sizeof(uint32_t), s));
  insert_kernel<<<(n + 255) / 256, 256, 0, s>>>(pos, n, grid, count, members, cap, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  sort_rows_kernel<<<(nc + 127) / 128, 128, 0, s>>>(nc, count, members, cap, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void build_cells_atomic<Double4>(const Double4*, uint32_t, const CellGrid&, uint32_t*,
                                          uint32_t*, uint32_t, StepControl*, cudaStream_t);
template void build_cells_atomic<float4>(const float4*, uint32_t, const CellGrid&, uint32_t*,
                                         uint32_t*, uint32_t, StepControl*, cudaStream_t);

}  // namespace meso::cuda
