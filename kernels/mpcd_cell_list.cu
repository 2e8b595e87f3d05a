// The MPCD cell list of a collision (HOOMD-blue's mpcd::CellListGPU; Howard
// et al., CPC 230, 10 (2018), sec. 3.1): each particle's cell on the grid
// shifted by the collision's random shift (Ihle & Kroll 2001), cached in
// vel.w for the collide kernel; atomic insertion into a row-major
// ncells x cap matrix; an overflow records the largest count seen and the
// caller grows cap and rebuilds (nothing is ever dropped). Each row is then
// sorted by TAG, as the reference's cell list is (reference/src/
// mpcd_collide.cpp): the cell sums then follow an order that depends
// neither on which atomic was served first nor on how the solvent is stored,
// so a run with mpcd/sort is bitwise the run without it.
#include "cell_list.cuh"
#include "meso/cuda/check.hpp"
#include "mpcd_kernels.cuh"

namespace meso::cuda {
namespace {

template <class S4>
__global__ void mpcd_insert_kernel(MpcdView<S4> p, physics::MpcdGrid grid, Vec3d shift,
                                   MpcdCellView c) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  const uint32_t cell = grid.cell_of(xyz(ldg4(p.pos + i)), shift);
  p.vel[i].w = static_cast<decltype(S4{}.w)>(cell);  // exact: load() bounds the cell count
  const uint32_t slot = atomicAdd(c.count + cell, 1u);
  if (slot < c.cap)
    c.members[size_t(cell) * c.cap + slot] = i;
  else
    atomicMax(c.overflow, slot + 1);
}

struct TagKey {
  const uint32_t* tag;
  __device__ uint32_t operator()(uint32_t i) const { return __ldg(tag + i); }
};

__global__ void mpcd_sort_rows_kernel(MpcdCellView c, const uint32_t* __restrict__ tag) {
  const uint32_t cell = blockIdx.x * blockDim.x + threadIdx.x;
  if (cell >= c.ncells || *c.overflow) return;
  sort_row_ascending(c.members + size_t(cell) * c.cap, c.count[cell], TagKey{tag});
}

}  // namespace

template <class S4>
void mpcd_build_cells(MpcdView<S4> p, const physics::MpcdGrid& grid, const Vec3d& shift,
                      const MpcdCellView& c, cudaStream_t s) {
  MESO_CUDA_CHECK(cudaMemsetAsync(c.count, 0, size_t(c.ncells) * sizeof(uint32_t), s));
  if (p.n > 0) {
    mpcd_insert_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, grid, shift, c);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
  mpcd_sort_rows_kernel<<<(c.ncells + 127) / 128, 128, 0, s>>>(c, p.tag);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void mpcd_build_cells<Double4>(MpcdView<Double4>, const physics::MpcdGrid&,
                                        const Vec3d&, const MpcdCellView&, cudaStream_t);
template void mpcd_build_cells<float4>(MpcdView<float4>, const physics::MpcdGrid&, const Vec3d&,
                                       const MpcdCellView&, cudaStream_t);

}  // namespace meso::cuda
