// Lennard-Jones forces on the GPU. Same traversal and the same determinism
// argument as dpd_force.cu: each pair evaluated from both sides from a full
// list, F_ji = -F_ij bit for bit, no atomics; energy and virial by fixed-order
// block partials (reduced by reduce_partials in dpd_force.cu).
//
// Threads per particle (variant axis tpp, HOOMD-blue's threads_per_particle):
// TPP adjacent lanes of a warp share particle i; lane s of the group takes
// neighbor slots s, s + TPP, s + 2 TPP, ... and the group's partial forces are
// summed by a fixed XOR butterfly, so the result is deterministic for a given
// TPP (and differs between TPPs by summation order only). Why: at N = 64000
// and ~65 neighbors, one thread per particle leaves ~15 warps per SM on an
// H100/H200, too few to hide the latency of the gathered j positions; TPP
// lanes multiply the warps in flight. The column-major list keeps each
// group's loads of one slot row in one 32-byte sector (8 particles x 4 lanes).
#include <stdexcept>

#include "dpd_force.cuh"
#include "lj_force.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

template <class P, bool SUMS, bool FUSE, uint32_t TPP>
__global__ void __launch_bounds__(kForceBlock) lj_force_kernel(LjForceArgs<P> a,
                                                              MinImage<LjPairReal<P>> box) {
  static_assert(TPP >= 1 && TPP <= 32 && (TPP & (TPP - 1)) == 0, "TPP: a power of two up to 32");
  using S4 = typename P::S4;
  using A = typename P::A;    // accumulation: the force sum, energy and virial
  using R = LjPairReal<P>;    // one pair: the storage precision
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t i = t / TPP, sub = t % TPP;
  const bool active = i < a.p.n && !a.ctl->abort;
  double e = 0.0, w = 0.0;
  A fx = 0, fy = 0, fz = 0;
  S4 pi{};
  uint32_t ti = 0;
  if (active) {
    const S4* __restrict__ pos = a.p.pos;
    pi = ldg4(pos + i);
    ti = type_of(pi);
    // One type (the common case, lj-liquid): the coefficients live in
    // registers and the loop has no third dependent load.
    const bool one_type = a.ntypes == 1;
    const physics::LjPairCoeffs<R>* __restrict__ row = a.coeffs + ti * a.ntypes;
    const physics::LjPairCoeffs<R> c0 = row[0];
    const uint32_t cnt = min(a.nl.count[i], a.nl.cap);
    const size_t step = size_t(TPP) * a.nl.slot_stride;  // from one of this lane's slots to the next
    const uint32_t* __restrict__ idx = a.nl.idx + a.nl.at(i, sub);
    // kUnroll slots per lane at a time: their indices, then their positions,
    // are loaded before any is used, so each lane has kUnroll gathers in
    // flight instead of one (ncu: the one-at-a-time loop waited on L1TEX).
    // The pairs are still summed in slot order.
    constexpr uint32_t kUnroll = 4;
    for (uint32_t k0 = sub; k0 < cnt; k0 += kUnroll * TPP, idx += kUnroll * step) {
      uint32_t j[kUnroll];
#pragma unroll
      for (uint32_t u = 0; u < kUnroll; ++u) j[u] = k0 + u * TPP < cnt ? __ldg(idx + u * step) : i;
      S4 pj[kUnroll];
#pragma unroll
      for (uint32_t u = 0; u < kUnroll; ++u) pj[u] = ldg4(pos + j[u]);
      // The kUnroll pairs are summed in R, then added to the A sums: for
      // mixed, fp32 sums of at most 4 fp32 pair forces (rounding no larger
      // than that of the pair forces themselves) and the particle's total in
      // fp64, where the cancellation of ~65 terms happens; it saves the
      // fp64 conversion and add of every pair.
      R gx = 0, gy = 0, gz = 0;
#pragma unroll
      for (uint32_t u = 0; u < kUnroll; ++u) {
        if (k0 + u * TPP >= cnt) break;
        R dx = R(pi.x) - R(pj[u].x), dy = R(pi.y) - R(pj[u].y), dz = R(pi.z) - R(pj[u].z);
        box.apply(dx, dy, dz);
        const R rsq = dx * dx + dy * dy + dz * dz;
        // The evaluator returns exact zeros at and beyond r_cut.
        const auto pf = one_type ? physics::lj_pair_force<R>(rsq, c0)
                                 : physics::lj_pair_force<R>(rsq, row[type_of(pj[u])]);
        gx += pf.f_over_r * dx;
        gy += pf.f_over_r * dy;
        gz += pf.f_over_r * dz;
        if constexpr (SUMS) {
          e += 0.5 * double(pf.energy);  // each pair is visited from both sides
          w += 0.5 * double(pf.virial);
        }
      }
      fx += A(gx);
      fy += A(gy);
      fz += A(gz);
    }
  }
  // Every lane takes part (inactive ones with zeros): the groups never
  // straddle a warp because TPP divides 32 and kForceBlock.
  for (uint32_t o = TPP / 2; o > 0; o >>= 1) {
    fx += __shfl_xor_sync(0xffffffffu, fx, o);
    fy += __shfl_xor_sync(0xffffffffu, fy, o);
    fz += __shfl_xor_sync(0xffffffffu, fz, o);
    if constexpr (SUMS) {
      e += __shfl_xor_sync(0xffffffffu, e, o);
      w += __shfl_xor_sync(0xffffffffu, w, o);
    }
  }
  if (active && sub == 0)
    finish_particle<FUSE>(a.p, i, Vec3d{double(fx), double(fy), double(fz)}, pi, ti, a.body,
                          a.type_mass, a.dt, a.fuse_base_pred);
  if constexpr (SUMS) block_partials(sub == 0 ? e : 0.0, sub == 0 ? w : 0.0, a.partials);
}

template <class P, uint32_t TPP>
void launch(const LjForceArgs<P>& a, bool sums, cudaStream_t s) {
  const uint32_t blocks = lj_force_blocks(a.p.n, TPP);
  const MinImage<LjPairReal<P>> box(a.box);  // its 1/L once here, not per thread
  if (sums) {
    if (a.fuse) lj_force_kernel<P, true, true, TPP><<<blocks, kForceBlock, 0, s>>>(a, box);
    else lj_force_kernel<P, true, false, TPP><<<blocks, kForceBlock, 0, s>>>(a, box);
  } else {
    if (a.fuse) lj_force_kernel<P, false, true, TPP><<<blocks, kForceBlock, 0, s>>>(a, box);
    else lj_force_kernel<P, false, false, TPP><<<blocks, kForceBlock, 0, s>>>(a, box);
  }
}

}  // namespace

uint32_t lj_force_blocks(uint32_t n, uint32_t tpp) {
  return uint32_t((uint64_t(n) * tpp + kForceBlock - 1) / kForceBlock);
}

template <class P>
void compute_lj_forces(const LjForceArgs<P>& a, bool sums, cudaStream_t s) {
  switch (a.tpp) {
    case 1: launch<P, 1>(a, sums, s); break;
    case 2: launch<P, 2>(a, sums, s); break;
    case 4: launch<P, 4>(a, sums, s); break;
    case 8: launch<P, 8>(a, sums, s); break;
    case 16: launch<P, 16>(a, sums, s); break;
    case 32: launch<P, 32>(a, sums, s); break;
    default: throw std::invalid_argument("compute_lj_forces: tpp must be 1, 2, 4, 8, 16 or 32");
  }
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_lj_forces<PrecDouble>(const LjForceArgs<PrecDouble>&, bool, cudaStream_t);
template void compute_lj_forces<PrecMixed>(const LjForceArgs<PrecMixed>&, bool, cudaStream_t);
template void compute_lj_forces<PrecSingle>(const LjForceArgs<PrecSingle>&, bool, cudaStream_t);

}  // namespace meso::cuda
