// MD-SCF density, density=gather (GALAMOST, Zhu et al., J. Comput. Chem. 34
// (2013) 2197, Algorithm 1: density assignment without atomic adds). The
// particles are binned into the MD-SCF grid cells (cell c has vertex c as
// its lower corner, the cell cic_stencil puts a particle in), then one
// thread per vertex sums the cloud-in-cell weights of the particles of the
// 8 cells that touch it. Each vertex is written by exactly one thread, so
// the fp64 sums need no atomics, and with the cell members in ascending
// particle index and the 8 cells in a fixed order, every vertex is summed
// in the same order in every run: phi is bitwise reproducible (scatter's
// atomics are not), and agrees with the reference to round-off.
//
// The binning is a counting sort with kernels that can all return early
// when the field is not due (MdscfGate; a CUB device-wide sort or scan
// could not, and would run at every step of the captured graph):
//   bin      particle -> its cell, and a rank among the cell's arrivals
//            (atomicAdd on an integer count: exact, only the rank's order
//            varies);
//   scan     the exclusive scan of the counts in tiles of kMdscfBlock cells:
//            tile sums, scanned by the last block; then each tile's cells
//            (this clears the counts for the next update);
//   fill     members[start[cell] + rank] = particle;
//   sort     each cell's members into ascending particle index (insertion
//            sort by one thread per cell: a cell holds ~rho0 h^3 particles,
//            a few to a few tens), which removes the atomics' order;
//   gather   one thread per vertex, per present type.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include <cstddef>

#include "core/fixed_order_reduce.cuh"
#include "mdscf/mdscf_force.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

template <class S4>
__global__ void bin_kernel(MdscfGate gate, MdscfParticles<S4> p, MdscfGrid grid, MdscfCellList cl) {
  if (!gate.due()) return;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  // vertex[0] is the cell's lower corner: the cell's index.
  const uint32_t c = physics::cic_stencil(xyz(ldg4(p.pos + i)), gate.state->lo, grid.h, grid.g).vertex[0];
  cl.key[i] = c;
  cl.slot[i] = atomicAdd(cl.count + c, 1u);
}

// Tile sums of the counts; the last block to finish scans them in place
// (exclusive), in chunks of kMdscfBlock with a running carry.
__global__ void tile_scan_kernel(MdscfGate gate, const uint32_t* __restrict__ count, uint32_t ncells,
                                 uint32_t* tile_sums, uint32_t ntiles, unsigned int* counter) {
  if (!gate.due()) return;  // the same for every thread: last_block's barriers are safe
  using Reduce = cub::BlockReduce<uint32_t, kMdscfBlock>;
  using Scan = cub::BlockScan<uint32_t, kMdscfBlock>;
  __shared__ union {
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } tmp;
  const uint32_t c = blockIdx.x * kMdscfBlock + threadIdx.x;
  const uint32_t total = Reduce(tmp.reduce).Sum(c < ncells ? count[c] : 0u);
  if (threadIdx.x == 0) tile_sums[blockIdx.x] = total;
  if (!last_block(counter)) return;
  // last_block's barrier also ends every use of tmp.reduce.
  uint32_t carry = 0;
  for (uint32_t base = 0; base < ntiles; base += kMdscfBlock) {
    const uint32_t t = base + threadIdx.x;
    // Written by other blocks: read through L2 (last_block fenced them).
    const uint32_t x = t < ntiles ? __ldcg(tile_sums + t) : 0u;
    uint32_t ex, chunk;
    Scan(tmp.scan).ExclusiveSum(x, ex, chunk);
    if (t < ntiles) tile_sums[t] = carry + ex;
    carry += chunk;
    __syncthreads();  // tmp.scan is reused by the next chunk
  }
}

// start[c] of each cell from its tile's offset and the scan inside the
// tile; the count is then cleared for the next update.
__global__ void cell_start_kernel(MdscfGate gate, uint32_t* __restrict__ count, uint32_t ncells,
                                  const uint32_t* __restrict__ tile_offset, uint32_t* __restrict__ start) {
  if (!gate.due()) return;
  using Scan = cub::BlockScan<uint32_t, kMdscfBlock>;
  __shared__ typename Scan::TempStorage tmp;
  const uint32_t c = blockIdx.x * kMdscfBlock + threadIdx.x;
  const uint32_t x = c < ncells ? count[c] : 0u;
  uint32_t ex;
  Scan(tmp).ExclusiveSum(x, ex);
  if (c < ncells) {
    start[c] = tile_offset[blockIdx.x] + ex;
    count[c] = 0;
  }
}

__global__ void fill_kernel(MdscfGate gate, uint32_t n, MdscfCellList cl) {
  if (!gate.due()) return;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cl.members[cl.start[cl.key[i]] + cl.slot[i]] = i;
}

__global__ void sort_cells_kernel(MdscfGate gate, const uint32_t* __restrict__ start,
                                  uint32_t* __restrict__ members, uint32_t ncells) {
  if (!gate.due()) return;
  const uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= ncells) return;
  const uint32_t b = start[c], e = start[c + 1];
  for (uint32_t x = b + 1; x < e; ++x) {
    const uint32_t m = members[x];
    uint32_t y = x;
    for (; y > b && members[y - 1] > m; --y) members[y] = members[y - 1];
    members[y] = m;
  }
}

// One thread per vertex v = (i, j, k): the particles of cell (i - dx, j -
// dy, k - dz) have v as their stencil's corner dx + 2 dy + 4 dz.
template <class S4>
__global__ void gather_kernel(MdscfGate gate, MdscfParticles<S4> p, MdscfGrid grid,
                              const uint32_t* __restrict__ start, const uint32_t* __restrict__ members,
                              double* __restrict__ phi, uint32_t na) {
  if (!gate.due()) return;
  const physics::GridShape g = grid.g;
  const Vec3d lo = gate.state->lo;
  const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= g.size()) return;
  const uint32_t i = v % g.nx, j = (v / g.nx) % g.ny, k = v / (g.nx * g.ny);
  const uint32_t im = i == 0 ? g.nx - 1 : i - 1, jm = j == 0 ? g.ny - 1 : j - 1, km = k == 0 ? g.nz - 1 : k - 1;
  double acc[kMdscfMaxTypes];
  for (uint32_t a = 0; a < na; ++a) acc[a] = 0.0;
#pragma unroll
  for (int corner = 0; corner < 8; ++corner) {
    const int dx = corner & 1, dy = (corner >> 1) & 1, dz = corner >> 2;
    const uint32_t c = g.index(dx ? im : i, dy ? jm : j, dz ? km : k);
    const uint32_t end = start[c + 1];
    for (uint32_t m = start[c]; m < end; ++m) {
      const S4 r = ldg4(p.pos + members[m]);
      const physics::CicStencil s = physics::cic_stencil(xyz(r), lo, grid.h, g);
      acc[p.slot_of_type[type_of(r)]] += s.weight[corner] * grid.per_particle;
    }
  }
  for (uint32_t a = 0; a < na; ++a) phi[std::size_t(a) * g.size() + v] = acc[a];
}

uint32_t blocks_for(uint32_t n) { return (n + kMdscfBlock - 1) / kMdscfBlock; }

}  // namespace

template <class S4>
void mdscf_density_gather(const MdscfParticles<S4>& p, const MdscfGrid& grid, const MdscfCellList& cl,
                          double* phi, uint32_t na, const MdscfGate& gate, cudaStream_t s) {
  const uint32_t ncells = grid.nv(), ntiles = mdscf_scan_tiles(ncells);
  if (p.n > 0) {
    bin_kernel<S4><<<blocks_for(p.n), kMdscfBlock, 0, s>>>(gate, p, grid, cl);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
  tile_scan_kernel<<<ntiles, kMdscfBlock, 0, s>>>(gate, cl.count, ncells, cl.tile_sums, ntiles, cl.counter);
  MESO_CUDA_CHECK(cudaGetLastError());
  cell_start_kernel<<<ntiles, kMdscfBlock, 0, s>>>(gate, cl.count, ncells, cl.tile_sums, cl.start);
  MESO_CUDA_CHECK(cudaGetLastError());
  if (p.n > 0) {
    fill_kernel<<<blocks_for(p.n), kMdscfBlock, 0, s>>>(gate, p.n, cl);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
  sort_cells_kernel<<<blocks_for(ncells), kMdscfBlock, 0, s>>>(gate, cl.start, cl.members, ncells);
  MESO_CUDA_CHECK(cudaGetLastError());
  gather_kernel<S4><<<blocks_for(ncells), kMdscfBlock, 0, s>>>(gate, p, grid, cl.start, cl.members, phi, na);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void mdscf_density_gather<Double4>(const MdscfParticles<Double4>&, const MdscfGrid&,
                                            const MdscfCellList&, double*, uint32_t, const MdscfGate&,
                                            cudaStream_t);
template void mdscf_density_gather<float4>(const MdscfParticles<float4>&, const MdscfGrid&,
                                           const MdscfCellList&, double*, uint32_t, const MdscfGate&,
                                           cudaStream_t);

}  // namespace meso::cuda
