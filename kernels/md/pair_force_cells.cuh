// The pair-force kernel of nlist=cells: no neighbor list at all (Mirheo's
// design, Alexeev et al., CPC 2020). The particles are in cell order
// (md/cell_order.cuh sorts them every step, cells of r_c), so the cells of
// one x-row are one contiguous range of slots, and a particle's half stencil
// is five such row ranges:
//
//   z - 1: the rows y - 1, y, y + 1, each cells x - 1 .. x + 1
//   z:     the row y - 1, cells x - 1 .. x + 1
//          its own row, from cell x - 1 up to its own slot (j < i)
//
// These offsets and their negatives cover the 26 neighbouring cells once
// each (lexicographic order on (dz, dy, dx)), so every pair within r_c is
// evaluated exactly once, by one of its two particles, when every axis has
// at least 3 cells (the neighbor list refuses fewer). A row that wraps
// around the box in x is two ranges.
//
// The pair's force goes to both particles by Newton's third law, in the
// 64-bit fixed point of pair_force_half.cuh (integer atomics: exact in any
// order, so the forces are bitwise reproducible and do not depend on the
// storage order); finish_half_kernel then converts each sum, clears it and
// finishes the particle. tpp lanes share a particle (a run-time power of two
// up to 32, one kernel for all): lane s takes slots lo + s, lo + s + tpp, ...
// of each range, and the lanes' integer sums are joined by a butterfly.
//
// Candidates beyond the largest r_c are skipped before the evaluator sees
// them (a half stencil of cells of r_c holds about 13.5 rho r_c^3 of them,
// against 2.1 rho r_c^3 within r_c). The evaluator E is pair_force.cuh's
// (begin, pair, virial_share), built as E{args, x...}: DPD's and the
// isotropic styles'.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_views.cuh"
#include "md/pair_force.cuh"
#include "md/pair_force_half.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {

struct CellPairArgs {
  CellGrid grid;          // the context's: cells of r_c, at least 3 an axis
  const uint32_t* start;  // first slot of each cell, n at [ncells]
  double rcut_sq;         // the largest r_c, squared
  uint32_t tpp;           // lanes a particle: 1, 2, 4, ..., 32
  uint32_t tpp_shift;     // log2(tpp)
};

template <class E, bool SUMS, class... X>
__global__ void __launch_bounds__(kForceBlock, E::kMinBlocks)
    cell_pair_force_kernel(typename E::Args a, CellPairArgs c, HalfForceSums h, X... x) {
  using S4 = typename E::S4;
  using A = typename E::A;
  using R = typename E::R;
  const E ev{a, x...};
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t i = t >> c.tpp_shift, sub = t & (c.tpp - 1);
  const bool active = i < a.p.n && !a.ctl->abort;
  long long fx = 0, fy = 0, fz = 0;
  double e = 0.0, w = 0.0;
  unsigned int worst = 0;  // float bits of the largest offending |component|
  if (active) {
    const S4* __restrict__ pos = a.p.pos;
    const uint32_t* __restrict__ start = c.start;
    unsigned long long* __restrict__ g = h.f;
    S4 pi{};
    uint32_t ti = 0;
    const auto pe = ev.begin(i, pos, pi, ti);
    const R rc_sq = R(c.rcut_sq);
    // The cell of i, as the sort binned it (the same position, the same rule).
    const CellGrid& gr = c.grid;
    const int nx = gr.nx, ny = gr.ny, nz = gr.nz;
    const int ix = gr.bin_x(double(pi.x)), iy = gr.bin_y(double(pi.y)), iz = gr.bin_z(double(pi.z));
    const bool inner = ix > 0 && ix < nx - 1;  // its row's three cells do not wrap in x
    // Ten ranges at most: part 0 and 1 of each of the five rows (part 1
    // only where the row wraps), one loop, so that the evaluator is
    // inlined once.
    for (int k = 0; k < 10; ++k) {
      const int r = k >> 1;
      const bool second = k & 1;
      if (second && (r < 4 ? inner : ix > 0)) continue;
      const int oy = r < 3 ? r - 1 : (r == 3 ? -1 : 0), oz = r < 3 ? -1 : 0;  // the row's offset
      const int y = iy + oy < 0 ? ny - 1 : iy + oy >= ny ? 0 : iy + oy;
      const int z = iz + oz < 0 ? nz - 1 : iz + oz;
      const uint32_t row = uint32_t(z * ny + y) * uint32_t(nx);
      uint32_t lo, hi;
      if (r < 4) {  // cells x - 1 .. x + 1
        if (inner) lo = start[row + ix - 1], hi = start[row + ix + 2];
        else if (ix == 0) lo = start[second ? row + nx - 1 : row], hi = start[second ? row + nx : row + 2];
        else lo = start[second ? row + nx - 2 : row], hi = start[second ? row + nx : row + 1];
      } else {  // its own row: cell x - 1, then its own cell below i
        if (ix > 0) lo = start[row + ix - 1], hi = i;
        else if (second) lo = start[row], hi = i;
        else lo = start[row + nx - 1], hi = start[row + nx];
      }
      for (uint32_t j = lo + sub; j < hi; j += c.tpp) {
        const S4 pj = ldg4(pos + j);
        R dx, dy, dz;
        const R rsq = pair_separation(pi, pj, pe.box(), dx, dy, dz);
        if (!(rsq < rc_sq)) continue;
        typename E::Pair pf;
        if (!pe.pair(j, pj, dx, dy, dz, rsq, pf)) continue;
        const A cx = pf.f_over_r * dx, cy = pf.f_over_r * dy, cz = pf.f_over_r * dz;
        add_fixed_pair(cx, cy, cz, fx, fy, fz, worst, g, j, true);
        if constexpr (SUMS) {
          e += double(pf.energy);  // each pair once, in full
          w += 2.0 * E::virial_share(pf, rsq);
        }
      }
    }
  }
  // The particle's lanes joined (integers: exact) by a butterfly in which
  // every lane of the warp takes part; the first lane adds the sum.
  for (uint32_t o = c.tpp / 2; o > 0; o >>= 1) {
    fx += __shfl_xor_sync(0xffffffffu, fx, o);
    fy += __shfl_xor_sync(0xffffffffu, fy, o);
    fz += __shfl_xor_sync(0xffffffffu, fz, o);
  }
  if (active && sub == 0) {
    atomicAdd(h.f + 4 * size_t(i), static_cast<unsigned long long>(fx));
    atomicAdd(h.f + 4 * size_t(i) + 1, static_cast<unsigned long long>(fy));
    atomicAdd(h.f + 4 * size_t(i) + 2, static_cast<unsigned long long>(fz));
  }
  if (worst) {
    atomicMax(h.fault, worst);
    atomicExch(h.abort, 1u);
  }
  if constexpr (SUMS) block_partials(e, w, a.partials);
}

// Blocks of kForceBlock threads for n particles at tpp lanes each.
inline uint32_t cell_force_blocks(uint32_t n, uint32_t tpp) {
  return uint32_t((uint64_t(n) * tpp + kForceBlock - 1) / kForceBlock);
}

// The pairs into h (SUMS: energy and virial into a.partials); the caller
// then finishes the particles with launch_finish_half.
template <class E, class... X>
void launch_cell_pair_force(const typename E::Args& a, const CellPairArgs& c, const HalfForceSums& h, bool sums,
                            cudaStream_t s, X... x) {
  const uint32_t blocks = cell_force_blocks(a.p.n, c.tpp);
  if (!blocks) return;
  if (sums) cell_pair_force_kernel<E, true><<<blocks, kForceBlock, 0, s>>>(a, c, h, x...);
  else cell_pair_force_kernel<E, false><<<blocks, kForceBlock, 0, s>>>(a, c, h, x...);
  MESO_CUDA_CHECK(cudaGetLastError());
}

}  // namespace meso::cuda
