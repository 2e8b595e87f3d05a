// Space-filling-curve reordering (the `reorder` axis; ARCHITECTURE.md,
// "Backends and variants").
//
// morton2 (Tang & Karniadakis, CPC 2014, sec. 3.4): two-level Morton order,
//   cells in Morton (Z) order of their coordinates, then particles inside a
//   cell along a local Morton curve on a 4 x 4 x 4 sub-grid. The sub-grid is
//   aligned with the cell list, so every cell's particles are contiguous.
// hilbert (HOOMD-blue SFCPackTuner): Hilbert curve over the same fine grid
//   (cells x 4 per axis), which keeps face neighbours closer than Z order.
// cell (HOOMD-MPCD cell order): row-major cell id; inside a cell, index order.
//
// Keys are 64-bit; the radix sort (sort_permute.cuh, shared with the MPCD
// solvent's sort) is stable, so equal keys keep their order and the
// permutation is deterministic.
#include <algorithm>

#include "meso/cuda/check.hpp"
#include "md/reorder.cuh"
#include "core/sort_permute.cuh"

namespace meso::cuda {
namespace {

constexpr int kFineBits = 2;  // 4 sub-bins per cell and axis

__host__ __device__ unsigned long long spread3(unsigned long long x) {
  // Inserts two zero bits between the low 21 bits of x.
  x &= 0x1fffffULL;
  x = (x | (x << 32)) & 0x1f00000000ffffULL;
  x = (x | (x << 16)) & 0x1f0000ff0000ffULL;
  x = (x | (x << 8)) & 0x100f00f00f00f00fULL;
  x = (x | (x << 4)) & 0x10c30c30c30c30c3ULL;
  x = (x | (x << 2)) & 0x1249249249249249ULL;
  return x;
}
__host__ __device__ unsigned long long morton3(uint32_t x, uint32_t y, uint32_t z) {
  return spread3(x) | (spread3(y) << 1) | (spread3(z) << 2);
}

// Hilbert index of (x, y, z) with `bits` bits per axis: Skilling's transform
// (AIP Conf. Proc. 707, 381 (2004)) to the transposed Hilbert index, then
// bit interleaving.
__host__ __device__ unsigned long long hilbert3(uint32_t x, uint32_t y, uint32_t z, int bits) {
  uint32_t X[3] = {x, y, z};
  const uint32_t M = 1u << (bits - 1);
  for (uint32_t Q = M; Q > 1; Q >>= 1) {  // inverse undo
    const uint32_t P = Q - 1;
    for (int i = 0; i < 3; ++i) {
      if (X[i] & Q) {
        X[0] ^= P;
      } else {
        const uint32_t t = (X[0] ^ X[i]) & P;
        X[0] ^= t;
        X[i] ^= t;
      }
    }
  }
  X[1] ^= X[0];  // Gray encode
  X[2] ^= X[1];
  uint32_t t = 0;
  for (uint32_t Q = M; Q > 1; Q >>= 1)
    if (X[2] & Q) t ^= Q - 1;
  for (int i = 0; i < 3; ++i) X[i] ^= t;
  // X now holds the transposed index: bit b of the index's digit b comes from
  // X[0], X[1], X[2] (most significant first).
  unsigned long long h = 0;
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < 3; ++i) h = (h << 1) | ((X[i] >> b) & 1u);
  return h;
}

// The sort key of a position for each curve.
__device__ unsigned long long reorder_key(ReorderKind kind, const CellGrid& g,
                                                   const Vec3d& r) {
  if (kind == ReorderKind::cell) return g.cell_of(r);
  // Fine bins: cell index * 2^kFineBits + sub-bin, clamped like the cells.
  constexpr int kSub = 1 << kFineBits;
  const uint32_t fx = uint32_t(g.bin_x(r.x, kSub)), fy = uint32_t(g.bin_y(r.y, kSub)),
                 fz = uint32_t(g.bin_z(r.z, kSub));
  if (kind == ReorderKind::morton2) {
    const uint32_t m = (1u << kFineBits) - 1u;
    return (morton3(fx >> kFineBits, fy >> kFineBits, fz >> kFineBits) << (3 * kFineBits)) |
           morton3(fx & m, fy & m, fz & m);
  }
  const int nmax = g.nx > g.ny ? (g.nx > g.nz ? g.nx : g.nz) : (g.ny > g.nz ? g.ny : g.nz);
  return hilbert3(fx, fy, fz, bits_for(uint32_t(nmax)) + kFineBits);
}

template <class S4>
__global__ void keys_kernel(const S4* __restrict__ pos, uint32_t n, ReorderKind kind,
                            CellGrid grid, unsigned long long* __restrict__ keys,
                            uint32_t* __restrict__ vals, StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) ctl->list.steps_since_sort = 0;
  if (i >= n) return;
  keys[i] = reorder_key(kind, grid, xyz(ldg4(pos + i)));
  vals[i] = i;
}

}  // namespace

size_t reorder_temp_bytes(uint32_t n) { return key_sort_temp_bytes(n, false); }

template <class S4>
void reorder_particles(ReorderKind kind, ParticleView<S4> p, RotationalView<S4> rot, const CellGrid& grid,
                       const ReorderScratch& sc, StepControl* ctl, cudaStream_t s) {
  const uint32_t n = p.n;
  keys_kernel<S4><<<(n + 255) / 256, 256, 0, s>>>(p.pos, n, kind, grid, sc.keys_in, sc.vals_in,
                                                  ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  const int nmax = std::max(grid.nx, std::max(grid.ny, grid.nz));
  const int end_bit = kind == ReorderKind::cell ? bits_for(grid.ncells())
                                                : 3 * (bits_for(uint32_t(nmax)) + kFineBits);
  const KeySort ks{{sc.keys_in, sc.keys_out}, {sc.vals_in, sc.perm}, sc.temp, sc.temp_bytes, false};
  const uint32_t* perm = sort_pairs(ks, n, end_bit, s);  // == sc.perm
  permute(p.pos, perm, sc.gather, n, s);
  permute(p.vel, perm, sc.gather, n, s);
  permute(p.force, perm, sc.gather, n, s);
  permute(p.vel_pred, perm, sc.gather, n, s);
  permute(p.tag, perm, sc.gather, n, s);
  permute(p.image, perm, sc.gather, n, s);
  permute(p.signature, perm, sc.gather, n, s);
  S4* const rotational[] = {rot.orient, rot.angmom, rot.inertia, rot.torque};
  for (S4* a : rotational) permute(a, perm, sc.gather, n, s);
}

template void reorder_particles<Double4>(ReorderKind, ParticleView<Double4>, RotationalView<Double4>, const CellGrid&,
                                         const ReorderScratch&, StepControl*, cudaStream_t);
template void reorder_particles<float4>(ReorderKind, ParticleView<float4>, RotationalView<float4>, const CellGrid&,
                                        const ReorderScratch&, StepControl*, cudaStream_t);

}  // namespace meso::cuda
