// The pair-force kernel of half lists (nlist=half): each pair is in one of
// its two rows, evaluated once (one noise draw), and its force goes to both
// particles by Newton's third law. The j side is added by other threads, so
// every contribution is summed with 64-bit integer atomics in fixed point
// (AMBER's SPFP, Le Grand et al., CPC 184, 374, 2013; the MPCD cell sums do
// the same): integer addition is exact and associative, so the forces are
// bitwise the same in any order of threads, rows or list entries, and the
// run stays deterministic.
//
// Fixed point: a force component f is held as llrint(f 2^40): a resolution of
// 9.1e-13 (each pair's rounding at most half of it, far below fp64 sums of
// forces of order 1-100 at 1e-12 relative). Every pair component is checked
// below 2^14 (kHalfPairBound), so a sum overflows 2^63 only past 2^9 pairs of
// one particle; its pairs number about twice its half row, and rows longer
// than kHalfMaxRow are refused. A pair at or beyond the bound, or not finite,
// stops the run (HalfForceSums::fault) with the value named. DPD pair forces
// are of order a_ij + sigma xi / sqrt(dt): 10-1000.
//
// Atomics: a pair's j-side force is three integer atomics, about 22M a step
// at N = 1M. Summing the block's own particles in shared memory first was
// measured slower on an H200 (1444 against 1608 TPS at N = 1M, mixed): sm_90
// has no 64-bit shared-memory integer add, so each is a compare-and-swap
// loop.
//
// Several ranks: a pair with a ghost is in the local's row on each of the
// two ranks (neighbor_list_tiled.cu), and each adds it to its own particle
// only. Both ranks draw the same value from both sides (the evaluator is
// symmetric in i and j, ghosts carry their owners' coordinates verbatim,
// and llrint(-x) = -llrint(x)), so every particle's fixed-point sum is
// bitwise the one-rank sum, with no ghost force sent back.
//
// Two kernels: half_pair_force_kernel adds every pair into the fixed-point
// sums, then finish_half_kernel reads each particle's sum, clears it for the
// next step and ends as pair_force_kernel does (finish_particle: body force,
// store, optional fused half-step). The evaluator E is pair_force.cuh's
// (begin, pair, virial_share), with the direct traversal.
#pragma once

#include <cuda_runtime.h>

#include <cstring>

#include "core/step_control.cuh"
#include "meso/cuda/check.hpp"
#include "meso/cuda/device_buffer.hpp"
#include "md/pair_force.cuh"

namespace meso::cuda {

constexpr int kHalfFixedShift = 40;
constexpr double kHalfPairBound = 16384.0;  // 2^14: |pair component| below it
constexpr uint32_t kHalfMaxRow = 255;       // half rows; a particle's pairs then stay far below 2^9

// The fixed-point force sums: f[4 i + k] for component k of particle i (one
// 32-byte sector a particle, so a pair's three atomics meet one sector), all
// zero between steps; fault holds the largest offending |component| as float
// bits (0: none; a NaN's bits order above every finite value).
struct HalfForceSums {
  unsigned long long* f;
  unsigned int* fault;
  unsigned int* abort;  // ctl->abort: a fault stops the step loop
};

__device__ __forceinline__ unsigned long long to_fixed(double v) {
  return static_cast<unsigned long long>(__double2ll_rn(v * 0x1p40));
}

// One pair's force on i, (cx, cy, cz), in fixed point: into i's running sums
// (fx, fy, fz) and, when add_j, into j's sums with the opposite sign (F_ji =
// -F_ij: llrint(-x) = -llrint(x)); a component at or beyond kHalfPairBound,
// or not finite, recorded in worst (float bits; a NaN above every value).
template <class A>
__device__ __forceinline__ void add_fixed_pair(A cx, A cy, A cz, long long& fx, long long& fy, long long& fz,
                                               unsigned int& worst, unsigned long long* g, uint32_t j,
                                               bool add_j) {
  const A big = fmax(fabs(cx), fmax(fabs(cy), fabs(cz)));
  if (!(big < A(kHalfPairBound))) worst = max(worst, isnan(big) ? 0x7fc00000u : __float_as_uint(float(big)));
  const unsigned long long qx = to_fixed(double(cx)), qy = to_fixed(double(cy)), qz = to_fixed(double(cz));
  fx += static_cast<long long>(qx);
  fy += static_cast<long long>(qy);
  fz += static_cast<long long>(qz);
  if (add_j) {
    atomicAdd(g + 4 * size_t(j), 0ull - qx);
    atomicAdd(g + 4 * size_t(j) + 1, 0ull - qy);
    atomicAdd(g + 4 * size_t(j) + 2, 0ull - qz);
  }
}

// One thread a particle over its half row; SUMS: energy and virial (each pair
// counted once, in full) into a.partials by the fixed-order block partials.
template <class E, bool SUMS>
__global__ void __launch_bounds__(kForceBlock, E::kMinBlocks)
    half_pair_force_kernel(typename E::Args a, HalfForceSums h) {
  static_assert(E::kUnroll == 1, "half rows take the direct traversal");
  using S4 = typename E::S4;
  using A = typename E::A;
  using R = typename E::R;
  const E ev{a};
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = i < a.p.n && !a.ctl->abort;
  long long fx = 0, fy = 0, fz = 0;
  double e = 0.0, w = 0.0;
  unsigned int worst = 0;  // float bits of the largest offending |component|
  if (active) {
    const S4* __restrict__ pos = a.p.pos;
    S4 pi{};
    uint32_t ti = 0;
    const auto pe = ev.begin(i, pos, pi, ti);
    const uint32_t cnt = min(a.nl.count[i], a.nl.cap);
    const uint32_t* __restrict__ idx = a.nl.idx + a.nl.at(i, 0);
    unsigned long long* __restrict__ g = h.f;
    for (uint32_t k = 0; k < cnt; ++k) {
      const uint32_t j = __ldg(idx + size_t(k) * a.nl.slot_stride);
      const S4 pj = ldg4(pos + j);
      R dx, dy, dz;
      const R rsq = pair_separation(pi, pj, pe.box(), dx, dy, dz);
      typename E::Pair pf;
      if (!pe.pair(j, pj, dx, dy, dz, rsq, pf)) continue;
      const A cx = pf.f_over_r * dx, cy = pf.f_over_r * dy, cz = pf.f_over_r * dz;
      const bool local = j < a.p.n;  // a ghost's rank adds the pair to its owner (pair_in_half_row)
      add_fixed_pair(cx, cy, cz, fx, fy, fz, worst, g, j, local);
      if constexpr (SUMS) {
        // A pair between locals once, in full; a pair with a ghost is
        // counted on both ranks, half on each (as full rows count every pair).
        const double share = local ? 1.0 : 0.5;
        e += share * double(pf.energy);
        w += share * 2.0 * E::virial_share(pf, rsq);  // the whole r_ij . F_ij
      }
    }
    atomicAdd(g + 4 * size_t(i), static_cast<unsigned long long>(fx));
    atomicAdd(g + 4 * size_t(i) + 1, static_cast<unsigned long long>(fy));
    atomicAdd(g + 4 * size_t(i) + 2, static_cast<unsigned long long>(fz));
    if (worst) {
      atomicMax(h.fault, worst);
      atomicExch(h.abort, 1u);
    }
  }
  if constexpr (SUMS) block_partials(e, w, a.partials);
}

// Particle i's sum back to floating point (exact: an integer below 2^63 times
// 2^-40), cleared for the next step, then finish_particle. Nothing is
// written after an abort (a list overflow, or a fault above), as in
// pair_force_kernel.
template <bool FUSE, class S4>
__global__ void finish_half_kernel(ParticleView<S4> p, HalfForceSums h, const StepControl* ctl,
                                   physics::BodyForce body, const double* type_mass, double dt,
                                   bool base_in_pred) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  ulonglong4_32a* f = reinterpret_cast<ulonglong4_32a*>(h.f) + i;  // one 32-byte load
  const ulonglong4_32a q = *f;
  const Vec3d sum{double(static_cast<long long>(q.x)) * 0x1p-40, double(static_cast<long long>(q.y)) * 0x1p-40,
                  double(static_cast<long long>(q.z)) * 0x1p-40};
  *f = ulonglong4_32a{0, 0, 0, 0};
  const S4 pi = p.pos[i];
  finish_particle<FUSE>(p, i, sum, pi, type_of(pi), body, type_mass, dt, base_in_pred);
}

template <class S4>
void launch_finish_half(const ParticleView<S4>& p, const HalfForceSums& h, const StepControl* ctl,
                        const physics::BodyForce& body, const double* type_mass, double dt, bool base_in_pred,
                        bool fuse, cudaStream_t s) {
  const uint32_t blocks = (p.n + kForceBlock - 1) / kForceBlock;
  if (!blocks) return;
  if (fuse)
    finish_half_kernel<true, S4><<<blocks, kForceBlock, 0, s>>>(p, h, ctl, body, type_mass, dt, base_in_pred);
  else
    finish_half_kernel<false, S4><<<blocks, kForceBlock, 0, s>>>(p, h, ctl, body, type_mass, dt, base_in_pred);
}

// The sums and the fault word of an operation using half rows (host side).
class HalfForceStore {
 public:
  // Zero sums for `capacity` particles, and no fault.
  void clear(uint32_t capacity) {
    f_.resize(4 * std::size_t(capacity));
    fault_.resize(1);
    MESO_CUDA_CHECK(cudaMemset(f_.data(), 0, f_.bytes()));
    MESO_CUDA_CHECK(cudaMemset(fault_.data(), 0, fault_.bytes()));
    capacity_ = capacity;
  }
  uint32_t capacity() const { return capacity_; }
  HalfForceSums view(unsigned int* abort) { return {f_.data(), fault_.data(), abort}; }
  // The largest offending |component| of the steps so far (waits; 0: none).
  float fault(cudaStream_t s) const {
    unsigned int bits = 0;
    MESO_CUDA_CHECK(cudaMemcpyAsync(&bits, fault_.data(), sizeof bits, cudaMemcpyDeviceToHost, s));
    MESO_CUDA_CHECK(cudaStreamSynchronize(s));
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  std::size_t bytes() const { return f_.bytes() + fault_.bytes(); }

 private:
  DeviceBuffer<unsigned long long> f_;
  DeviceBuffer<unsigned int> fault_;
  uint32_t capacity_ = 0;
};

}  // namespace meso::cuda
