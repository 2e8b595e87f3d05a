// DPD forces, gather=record: the pair-force driver of pair_force.cuh with a
// DPD evaluator that reads one record per neighbour (dpd_force.cuh,
// DpdRecord) instead of the split arrays of dpd_force.cu.
//
// Why: with split arrays a pair inside r_c costs three dependent gathers
// from three arrays (position, then velocity and tag, and the signature for
// TEA), each a separate L2 sector, one list slot at a time (ncu at
// N = 262144, mixed: 13% L1 hit rate, 40% of stalls on loads). Here every
// slot costs one 32-byte record (fp32 storage; 64 bytes in fp64), and the
// grouped traversal (kUnroll slots per thread: their indices, then their
// records, loaded before any is used) keeps several gathers in flight per
// thread. The records are packed from the arrays by one streaming kernel
// before every force evaluation (pack_kernel), so the rest of the backend
// (integrators, reordering, copy-out) keeps its arrays. The pairs are summed
// kUnroll at a time in A before the particle's sum: the same arithmetic as
// dpd_force.cu in another order, so results agree to round-off, and two runs
// are bitwise identical (fixed slot order, no atomics).
//
// Measured on an H200 (dpd-fluid N = 1M, mixed, morton2, results/cuda-dpd/
// issue13): slower than the split gather, 511 against 466 us a force
// evaluation with the packing (416 against 356 with noise=fp32), and tpp = 4
// slower still. ncu: L1 hit rate 83% (split 76%) and long-scoreboard stalls
// halved, but 94 registers leave 31% theoretical occupancy (split: 64, 50%),
// and every slot loads a whole record although only ~45% of the slots are
// inside r_c. Kept as a variant value: correct, tested, and the layout a
// half list or a cluster list would start from.
#include <stdexcept>
#include <type_traits>

#include "md/dpd_force.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/fast_math.hpp"
#include "meso/physics/pair_noise.hpp"

// Minimum blocks per SM of the record kernel's launch bounds (0: no register
// cap); a build-time knob for tuning, not a variant. ptxas (CUDA 13.0,
// sm_90), mixed: 104 to 124 registers uncapped (4 blocks of 128 per SM),
// 96 with 5 (5 blocks; at most 8 bytes of spills in the fused-with-sums
// kernels, the once-per-run ones).
#ifndef MESO_DPD_RECORD_MIN_BLOCKS
#define MESO_DPD_RECORD_MIN_BLOCKS 5
#endif

namespace meso::cuda {
namespace {

__device__ __forceinline__ uint32_t record_bits(float w) { return __float_as_uint(w); }
__device__ __forceinline__ uint32_t record_bits(double w) {
  return static_cast<uint32_t>(__double_as_longlong(w));
}
template <class T>
__device__ __forceinline__ T record_word(uint32_t u) {
  if constexpr (sizeof(T) == 4) return __uint_as_float(u);
  else return __longlong_as_double(static_cast<long long>(u));
}

// One record by 16-byte read-only loads (two in fp32, four in fp64), issued
// together.
__device__ __forceinline__ DpdRecord<float> ldg_record(const DpdRecord<float>* p) {
  const float4* q = reinterpret_cast<const float4*>(p);
  const float4 a = __ldg(q), b = __ldg(q + 1);
  return {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
}
__device__ __forceinline__ DpdRecord<double> ldg_record(const DpdRecord<double>* p) {
  const double2* q = reinterpret_cast<const double2*>(p);
  const double2 a = __ldg(q), b = __ldg(q + 1), c = __ldg(q + 2), d = __ldg(q + 3);
  return {a.x, a.y, b.x, b.y, c.x, c.y, d.x, d.y};
}

// rec[i] = {position, tag << 8 | type, velocity the dissipation reads, TEA
// signature or 0}. Returns at once after an overflow (abort), like every
// kernel of the step.
template <class S4>
__global__ void pack_kernel(ParticleView<S4> p, const S4* __restrict__ vel,
                            DpdRecordOf<S4>* __restrict__ rec, const StepControl* ctl, bool tea) {
  using T = decltype(S4{}.x);
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n_all || ctl->abort) return;
  const S4 r = ldg4(p.pos + i), v = ldg4(vel + i);
  const uint32_t key = (__ldg(p.tag + i) << 8) | type_of(r);
  const uint32_t sig = tea ? __ldg(p.signature + i) : 0u;
  S4* out = reinterpret_cast<S4*>(rec + i);
  out[0] = S4{r.x, r.y, r.z, record_word<T>(key)};
  out[1] = S4{v.x, v.y, v.z, record_word<T>(sig)};
}

// The DPD pair of dpd_force.cu's evaluator (same formula, noise and pow
// policies), with everything about j from its record. kUnroll: 4 records in
// flight per thread in fp32 (8 registers each), 2 in fp64 (16 each).
template <class P, class Pow, class Noise, bool TEA>
struct DpdRecordEvaluator {
  using Args = DpdForceArgs<typename P::S4>;
  using S4 = typename P::S4;
  using T = decltype(S4{}.x);
  using A = typename P::A;
  using R = A;
  using Pair = physics::DpdPairForceT<A>;
  using Neighbor = DpdRecord<T>;
  static constexpr uint32_t kUnroll = sizeof(T) == 4 ? 4 : 2;
  static constexpr int kMinBlocks = MESO_DPD_RECORD_MIN_BLOCKS;

  const Args& a;
  const MinImage<A>& box_;  // a kernel parameter: its 1/L once on the host, not per thread

  __device__ __forceinline__ Neighbor neighbor(uint32_t j) const { return ldg_record(a.rec + j); }

  struct Particle {
    const Args& a;
    const MinImage<A>& box_;
    uint64_t step;
    physics::TeaPairKey key;
    T vx, vy, vz;
    uint32_t tag_i, sig_i;
    const physics::DpdPairParams* row;
    A inv_sqrt_dt;

    __device__ __forceinline__ const MinImage<A>& box() const { return box_; }

    __device__ __forceinline__ bool pair(const uint32_t&, const Neighbor& pj, const A& dx,
                                         const A& dy, const A& dz, const A& rsq, Pair& pf) const {
      const uint32_t kj = record_bits(pj.key);
      const physics::DpdPairParams& pp = row[kj & 0xffu];
      const A rc = A(pp.rcut);
      if (rsq >= rc * rc || rsq == A(0)) return false;
      const A rdotv = dx * (A(vx) - A(pj.vx)) + dy * (A(vy) - A(pj.vy)) + dz * (A(vz) - A(pj.vz));
      const uint32_t tag_j = kj >> 8;
      decltype(Noise::philox(0u, 0u, 0ull, 0u)) xi;
      if constexpr (TEA)
        xi = Noise::tea(tag_i, sig_i, tag_j, record_bits(pj.sig), key);
      else
        xi = Noise::philox(tag_i, tag_j, step, a.seed);
      pf = physics::dpd_pair_force<A>(rsq, rdotv, A(xi), inv_sqrt_dt, pp, Pow{});
      return true;
    }
  };

  __device__ __forceinline__ Particle begin(uint32_t i, const S4*, S4& pi, uint32_t& ti) const {
    const StepControl* ctl = a.ctl;
    physics::TeaPairKey key{};
    if constexpr (TEA) key = {{ctl->tea_key[0], ctl->tea_key[1], ctl->tea_key[2], ctl->tea_key[3]}};
    const Neighbor r = ldg_record(a.rec + i);
    pi = S4{r.x, r.y, r.z, T(0)};
    const uint32_t k = record_bits(r.key);
    ti = k & 0xffu;
    return {a,    box_, ctl->step,          key,  r.vx, r.vy, r.vz, k >> 8,
            record_bits(r.sig), a.params + ti * a.ntypes, A(a.inv_sqrt_dt)};
  }

  __device__ __forceinline__ static double virial_share(const Pair& pf, const A& rsq) {
    return 0.5 * double(pf.f_over_r) * double(rsq);
  }
};

// tpp lanes per particle (1, 2 or 4; the operation refuses others for DPD):
// lane s of a particle takes list slots s, s + tpp, ... (row-major list).
template <class P, class Pow, class Noise, bool TEA, bool SUMS, bool FUSE>
void launch_record(const DpdForceArgs<typename P::S4>& a, uint32_t tpp, cudaStream_t s) {
  using E = DpdRecordEvaluator<P, Pow, Noise, TEA>;
  const MinImage<typename P::A> box(a.box);  // its 1/L once here, not per thread
  const uint32_t blocks = uint32_t((uint64_t(a.p.n) * tpp + kForceBlock - 1) / kForceBlock);
  switch (tpp) {
    case 1: pair_force_kernel<E, 1, SUMS, FUSE><<<blocks, kForceBlock, 0, s>>>(a, box); break;
    case 2: pair_force_kernel<E, 2, SUMS, FUSE><<<blocks, kForceBlock, 0, s>>>(a, box); break;
    case 4: pair_force_kernel<E, 4, SUMS, FUSE><<<blocks, kForceBlock, 0, s>>>(a, box); break;
    default: throw std::logic_error("dpd force: gather=record takes tpp 1, 2 or 4");
  }
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class P, class Pow, class Noise, bool TEA>
void launch_record2(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c, cudaStream_t s) {
  if (c.sums) {
    if (c.fuse) launch_record<P, Pow, Noise, TEA, true, true>(a, c.tpp, s);
    else launch_record<P, Pow, Noise, TEA, true, false>(a, c.tpp, s);
  } else {
    if (c.fuse) launch_record<P, Pow, Noise, TEA, false, true>(a, c.tpp, s);
    else launch_record<P, Pow, Noise, TEA, false, false>(a, c.tpp, s);
  }
}

template <class P, class Pow, class Noise>
void launch_record1(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c, cudaStream_t s) {
  if (c.tea) launch_record2<P, Pow, Noise, true>(a, c, s);
  else launch_record2<P, Pow, Noise, false>(a, c, s);
}

}  // namespace

template <class P>
void compute_dpd_forces_record(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c,
                               cudaStream_t s) {
  using S4 = typename P::S4;
  if (!a.rec) throw std::logic_error("dpd force: gather=record without records");
  // Records of the ghosts too (several ranks): list entries name them.
  pack_kernel<S4><<<(a.p.n_all + 255) / 256, 256, 0, s>>>(a.p, c.predicted ? a.p.vel_pred : a.p.vel,
                                                       a.rec, a.ctl, c.tea);
  MESO_CUDA_CHECK(cudaGetLastError());
  if (c.fp32_noise) {
    if constexpr (std::is_same_v<S4, float4>) {
      if (c.fast_math) launch_record1<P, physics::FastPow, NoiseF32>(a, c, s);
      else launch_record1<P, physics::LibmPow, NoiseF32>(a, c, s);
    } else {
      throw std::logic_error("dpd force: noise=fp32 with fp64 storage");
    }
  } else if (c.fast_math) {
    launch_record1<P, physics::FastPow, NoiseF64<physics::FastBoxMuller>>(a, c, s);
  } else {
    launch_record1<P, physics::LibmPow, NoiseF64<physics::LibmBoxMuller>>(a, c, s);
  }
}

template void compute_dpd_forces_record<PrecDouble>(const DpdForceArgs<Double4>&,
                                                    const DpdForceConfig&, cudaStream_t);
template void compute_dpd_forces_record<PrecMixed>(const DpdForceArgs<float4>&,
                                                   const DpdForceConfig&, cudaStream_t);
template void compute_dpd_forces_record<PrecSingle>(const DpdForceArgs<float4>&,
                                                    const DpdForceConfig&, cudaStream_t);

}  // namespace meso::cuda
