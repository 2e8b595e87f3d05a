// The MPCD cell list of a collision, as a CSR counting sort (the layout of
// the reference's MpcdCellList): each member's cell on the grid shifted by
// the collision's random shift (Ihle & Kroll 2001) and its slot in that cell
// from an atomic count, in compact arrays; an
// exclusive scan of the counts gives each cell's first member, and a scatter
// puts every particle at start[cell] + slot. The atomics are aggregated per
// warp and cell (aggregated_slot).
//
// Why not HOOMD-blue's fixed-capacity cell matrix (Howard et al., CPC 230,
// 10 (2018), sec. 3.1), which this replaced: the matrix can overflow, and
// knowing that it did not costs the host a round trip every collision
// (~14 us of a ~100 us collision at L = 50); the CSR list cannot overflow
// (nothing to grow, nothing dropped), needs no capacity and no host wait,
// and takes less memory (8 bytes a particle plus 8 a cell against cap ~ 32
// words a cell). The order of the members within a cell is that of the
// atomics, i.e. arbitrary: the cell sums do not depend on it (fixed-point
// sums, meso/physics/fixed_point_sum.hpp).
#include <cub/device/device_scan.cuh>

#include "meso/cuda/check.hpp"
#include "mpcd/mpcd_kernels.cuh"

namespace meso::cuda {
namespace {

// Members j < p.n are solvent particles, j >= p.n embedded MD particles
// (those not of the embedded types get kMpcdNoCell and no slot).
__global__ void mpcd_advance_step_kernel(MpcdStepWord* w, uint32_t seed, double a, bool grid_shift) {
  const uint64_t step = w->step + 1;
  const Vec3d shift = grid_shift ? physics::srd_grid_shift(step, seed, a) : Vec3d{0.0, 0.0, 0.0};
  w->step = step;
  w->shift[0] = shift.x;
  w->shift[1] = shift.y;
  w->shift[2] = shift.z;
}

// A slot in `cell` for each calling lane: lanes of the warp that share a
// cell take consecutive slots from one atomic (warp-aggregated atomics,
// __match_any_sync): a sorted solvent puts the ~10 members of a cell next to
// each other, so a warp touches a few cells, and one atomic per cell and
// warp replaces one per particle. Every lane of the warp must call it (with
// kMpcdNoCell for none).
__device__ __forceinline__ uint32_t aggregated_slot(uint32_t* count, uint32_t cell) {
  const uint32_t lane = threadIdx.x % 32u;
  const uint32_t peers = __match_any_sync(0xffffffffu, cell);
  const uint32_t leader = __ffs(peers) - 1u;
  uint32_t base = 0;
  if (lane == leader && cell != kMpcdNoCell) base = atomicAdd(count + cell, uint32_t(__popc(peers)));
  base = __shfl_sync(0xffffffffu, base, leader);
  return base + __popc(peers & ((1u << lane) - 1u));
}

// Members j < p.n are solvent particles, j >= p.n embedded MD particles
// (those not of the embedded types get kMpcdNoCell and no slot).
template <class S4, bool kShear>
__global__ void mpcd_count_kernel(MpcdView<S4> p, MpcdEmbedView<S4> md, physics::MpcdGrid grid,
                                  const MpcdStepWord* w, MpcdCellView c, MpcdShearView sh) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  const Vec3d shift{w->shift[0], w->shift[1], w->shift[2]};
  uint32_t cell = kMpcdNoCell;  // also for the lanes past the end: they join the match
  if (j < p.n) {
    const Vec3d r = xyz(ldg4(p.pos + j));
    if constexpr (kShear) {
      cell = physics::srd_le_cell_of(grid, r, shift, physics::srd_le_image(grid, r, shift), sh.at(w->step));
    } else {
      cell = grid.cell_of(r, shift);
    }
  } else if (j - p.n < md.n) {
    const S4 r = ldg4(md.pos + (j - p.n));
    const uint32_t t = type_of(r);
    if (t < 32u && ((md.types >> t) & 1u)) cell = grid.cell_of(xyz(r), shift);
  }
  const uint32_t slot = aggregated_slot(c.count, cell);
  if (j < p.n + md.n) {
    c.cell[j] = cell;
    c.slot[j] = slot;
  }
}

// The same over a rank's touched cells (solvent only): local cell indices,
// and a count of the particles outside them.
template <class S4>
__global__ void mpcd_range_count_kernel(MpcdView<S4> p, physics::MpcdGrid grid, const MpcdStepWord* w,
                                        MpcdRangeView r, MpcdCellView c, uint32_t* outside) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  const Vec3d shift{w->shift[0], w->shift[1], w->shift[2]};
  const uint32_t n = solvent_count(p);  // slots [n, p.n) hold no particle
  uint32_t cell = kMpcdNoCell;
  if (j < n) {
    cell = r.local_of(grid.cell_of(xyz(ldg4(p.pos + j)), shift));
    if (cell == kMpcdNoCell) atomicAdd(outside, 1u);
  }
  const uint32_t slot = aggregated_slot(c.count, cell);
  if (j < p.n) {  // the vacant slots too: the scatter reads every one
    c.cell[j] = cell;
    c.slot[j] = slot;
  }
}

template <class S4>
__global__ void mpcd_scatter_kernel(MpcdView<S4> p, MpcdEmbedView<S4> md, MpcdCellView c) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= p.n + md.n) return;
  const uint32_t cell = c.cell[j];
  if (cell != kMpcdNoCell) c.members[c.start[cell] + c.slot[j]] = j;
}

}  // namespace

void mpcd_advance_step(MpcdStepWord* w, uint32_t seed, double cell_size, bool grid_shift,
                       cudaStream_t s) {
  mpcd_advance_step_kernel<<<1, 1, 0, s>>>(w, seed, cell_size, grid_shift);
  MESO_CUDA_CHECK(cudaGetLastError());
}

std::size_t mpcd_scan_temp_bytes(uint32_t ncells) {
  std::size_t bytes = 0;
  MESO_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<uint32_t*>(nullptr),
                                                static_cast<uint32_t*>(nullptr), int(ncells)));
  return bytes;
}

template <class S4>
void mpcd_build_cells(MpcdView<S4> p, const MpcdEmbedView<S4>& md, const physics::MpcdGrid& grid,
                      const MpcdStepWord* w, const MpcdCellView& c, cudaStream_t s, const MpcdShearView& sh) {
  MESO_CUDA_CHECK(cudaMemsetAsync(c.count, 0, size_t(c.ncells) * sizeof(uint32_t), s));
  const uint32_t total = p.n + md.n;
  const uint32_t blocks = (total + 255) / 256;
  if (total > 0) {
    if (sh.active())
      mpcd_count_kernel<S4, true><<<blocks, 256, 0, s>>>(p, md, grid, w, c, sh);
    else
      mpcd_count_kernel<S4, false><<<blocks, 256, 0, s>>>(p, md, grid, w, c, sh);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
  std::size_t bytes = c.scan_temp_bytes;
  MESO_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(c.scan_temp, bytes, c.count, c.start, int(c.ncells), s));
  if (total > 0) {
    mpcd_scatter_kernel<S4><<<blocks, 256, 0, s>>>(p, md, c);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
}

template <class S4>
void mpcd_build_range_cells(MpcdView<S4> p, const physics::MpcdGrid& grid, const MpcdStepWord* w,
                            const MpcdRangeView& r, const MpcdCellView& c, uint32_t* outside, cudaStream_t s) {
  MESO_CUDA_CHECK(cudaMemsetAsync(c.count, 0, size_t(c.ncells) * sizeof(uint32_t), s));
  MESO_CUDA_CHECK(cudaMemsetAsync(outside, 0, sizeof(uint32_t), s));
  const uint32_t blocks = (p.n + 255) / 256;
  if (p.n > 0) {
    mpcd_range_count_kernel<S4><<<blocks, 256, 0, s>>>(p, grid, w, r, c, outside);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
  std::size_t bytes = c.scan_temp_bytes;
  MESO_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(c.scan_temp, bytes, c.count, c.start, int(c.ncells), s));
  if (p.n > 0) {
    mpcd_scatter_kernel<S4><<<blocks, 256, 0, s>>>(p, MpcdEmbedView<S4>{}, c);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
}

template void mpcd_build_range_cells<Double4>(MpcdView<Double4>, const physics::MpcdGrid&, const MpcdStepWord*,
                                              const MpcdRangeView&, const MpcdCellView&, uint32_t*, cudaStream_t);
template void mpcd_build_range_cells<float4>(MpcdView<float4>, const physics::MpcdGrid&, const MpcdStepWord*,
                                             const MpcdRangeView&, const MpcdCellView&, uint32_t*, cudaStream_t);

template void mpcd_build_cells<Double4>(MpcdView<Double4>, const MpcdEmbedView<Double4>&,
                                        const physics::MpcdGrid&, const MpcdStepWord*,
                                        const MpcdCellView&, cudaStream_t, const MpcdShearView&);
template void mpcd_build_cells<float4>(MpcdView<float4>, const MpcdEmbedView<float4>&,
                                       const physics::MpcdGrid&, const MpcdStepWord*,
                                       const MpcdCellView&, cudaStream_t, const MpcdShearView&);

}  // namespace meso::cuda
