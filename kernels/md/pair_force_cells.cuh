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
// Two passes a round (measured on an H200, dpd-fluid 1M mixed, TPS of the
// whole step at rho 3 / rho 8; results/cuda-dpd/cells/): the first screens
// the candidates (a half stencil of cells of r_c holds about 13.5 rho r_c^3
// of them, 2.1 rho r_c^3 within r_c) in fp32 where the storage is fp32 and
// keeps those within r_c in shared memory; the second evaluates them, so a
// warp's lanes evaluate together instead of each candidate costing a pair's
// time in a divergent warp (one pass: 895 / 528; two: 1,047 / 590; with the
// fp32 screen and 80 registers, no spills: 1,405 / 849). The whole stencil,
// each pair by both particles and no atomics, was slower (1,073 / 551):
// the atomics are not what limits this kernel, the pairs' evaluation is.
// The evaluator E is pair_force.cuh's (begin, pair, virial_share), built as
// E{args, x...}: DPD's and the isotropic styles'.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

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
  uint32_t slots;         // shared-memory slots a lane for the pairs a round keeps, at least 1
};

// The slots a lane keeps for the partners it found within r_c before it
// evaluates them: the mean count of an ideal gas (a lane's share of a half
// sphere) plus five of its standard deviations, at most 64 (shared memory);
// a lane with more (a dense cluster) finds and evaluates them in further
// rounds.
inline CellPairArgs make_cell_pair_args(const CellGrid& grid, const uint32_t* start, double rcut, double density,
                                        uint32_t tpp) {
  CellPairArgs c{grid, start, rcut * rcut, tpp, uint32_t(__builtin_ctz(tpp)), 0u};
  const double mean = 4.18879 * rcut * rcut * rcut * density / 2.0 / tpp;  // a half sphere's
  c.slots = uint32_t(std::clamp(std::ceil(mean + 5.0 * std::sqrt(mean) + 2.0), 1.0, 64.0));
  return c;
}

// Blocks of 128 an SM at least: 6 leaves 80 registers, which the two passes
// and the evaluator's state need without spilling in mixed (8, the list
// kernels' bound, spilled about 100 bytes a thread).
constexpr int kCellMinBlocks = 6;

template <class E, bool SUMS, class... X>
__global__ void __launch_bounds__(kForceBlock, kCellMinBlocks)
    cell_pair_force_kernel(typename E::Args a, CellPairArgs c, HalfForceSums h, X... x) {
  using S4 = typename E::S4;
  using A = typename E::A;
  using R = typename E::R;
  extern __shared__ uint32_t found[];  // slot k of this thread at found[k * blockDim.x + threadIdx.x]
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
    // The first pass only screens: with fp32 storage it measures in fp32
    // against r_c widened by 2^-20 relative (far above the rounding of |r|^2,
    // about 2^-22), so it can keep a pair just outside r_c, which the
    // evaluator's own test in R then drops, but never loses one inside.
    using C = std::conditional_t<std::is_same_v<S4, float4>, float, R>;
    const MinImage<C> box(a.box);
    const S4 pi = ldg4(pos + i);
    const C rc_sq = C(c.rcut_sq * (std::is_same_v<C, float> ? 1.0 + 0x1p-20 : 1.0));
    // The cell of i, as the sort binned it (the same position, the same rule).
    const CellGrid& gr = c.grid;
    const int nx = gr.nx, ny = gr.ny, nz = gr.nz;
    const int ix = gr.bin_x(double(pi.x)), iy = gr.bin_y(double(pi.y)), iz = gr.bin_z(double(pi.z));
    const bool inner = ix > 0 && ix < nx - 1;  // its row's three cells do not wrap in x
    // Range k of the five rows (four of three cells, then its own row below
    // i): one range of slots, two where the row wraps in x (k odd: the
    // second part; false when there is none).
    constexpr int nranges = 10;
    auto range = [&](int k, uint32_t& lo, uint32_t& hi) {
      const int r = k >> 1;
      const bool second = k & 1;
      const bool own = r == 4;
      if (second && (!own ? inner : ix > 0)) return false;
      const int oy = r < 3 ? r - 1 : (r == 3 ? -1 : 0), oz = r < 3 ? -1 : 0;  // the row's offset
      const int y = iy + oy < 0 ? ny - 1 : iy + oy >= ny ? 0 : iy + oy;
      const int z = iz + oz < 0 ? nz - 1 : iz + oz;
      const uint32_t row = uint32_t(z * ny + y) * uint32_t(nx);
      if (!own) {  // cells x - 1 .. x + 1
        if (inner) lo = start[row + ix - 1], hi = start[row + ix + 2];
        else if (ix == 0) lo = start[second ? row + nx - 1 : row], hi = start[second ? row + nx : row + 2];
        else lo = start[second ? row + nx - 2 : row], hi = start[second ? row + nx : row + 1];
      } else {  // its own row: cell x - 1, then its own cell below i
        if (ix > 0) lo = start[row + ix - 1], hi = i;
        else if (second) lo = start[row], hi = i;
        else lo = start[row + nx - 1], hi = start[row + nx];
      }
      return true;
    };
    // Rounds of two passes. The first finds the candidates within r_c and
    // keeps them in shared memory, up to c.slots (then the round ends and
    // the next resumes at (k, j)); the second evaluates them, so the lanes
    // of a warp evaluate pairs together (about one candidate in six is
    // within r_c: evaluated where found, each candidate would cost a pair's
    // time in a divergent warp). The first pass holds no evaluator state,
    // which keeps its registers few.
    int k = 0;
    uint32_t j = ~0u;  // the next candidate of range k (~0: its first)
    for (;;) {
      uint32_t nfound = 0;
      bool slots_full = false;
      for (; k < nranges; ++k, j = ~0u) {
        uint32_t lo, hi;
        if (!range(k, lo, hi)) continue;
        if (j == ~0u) j = lo + sub;
        for (; j < hi; j += c.tpp) {
          if (nfound == c.slots) {
            slots_full = true;
            break;
          }
          const S4 pj = ldg4(pos + j);
          C dx, dy, dz;
          if (!(pair_separation(pi, pj, box, dx, dy, dz) < rc_sq)) continue;
          found[nfound++ * blockDim.x + threadIdx.x] = j;
        }
        if (slots_full) break;
      }
      S4 pi_e{};
      uint32_t ti = 0;
      const auto pe = ev.begin(i, pos, pi_e, ti);
      for (uint32_t q = 0; q < nfound; ++q) {
        const uint32_t jj = found[q * blockDim.x + threadIdx.x];
        const S4 pj = ldg4(pos + jj);
        R dx, dy, dz;
        const R rsq = pair_separation(pi, pj, pe.box(), dx, dy, dz);
        // The pair's force on i into i's sums, the opposite into j's.
        typename E::Pair pf;
        if (!pe.pair(jj, pj, dx, dy, dz, rsq, pf)) continue;
        const A cx = pf.f_over_r * dx, cy = pf.f_over_r * dy, cz = pf.f_over_r * dz;
        add_fixed_pair(cx, cy, cz, fx, fy, fz, worst, h.f, jj, true);
        if constexpr (SUMS) {
          e += double(pf.energy);  // each pair once, in full
          w += 2.0 * E::virial_share(pf, rsq);
        }
      }
      if (!slots_full) break;
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
  const std::size_t shared = std::size_t(c.slots) * kForceBlock * sizeof(uint32_t);
  // At most 64 slots of 128 lanes: 32 kB, within the default 48 kB a block.
  if (sums) cell_pair_force_kernel<E, true><<<blocks, kForceBlock, shared, s>>>(a, c, h, x...);
  else cell_pair_force_kernel<E, false><<<blocks, kForceBlock, shared, s>>>(a, c, h, x...);
  MESO_CUDA_CHECK(cudaGetLastError());
}

}  // namespace meso::cuda
