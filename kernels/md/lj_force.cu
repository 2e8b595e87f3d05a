// Lennard-Jones forces on the GPU: pair_force.cuh's kernel with the LJ
// evaluator. Same traversal and the same determinism argument as the DPD
// forces: each pair evaluated from both sides from a full list, F_ji = -F_ij
// bit for bit, no atomics; energy and virial by fixed-order block partials
// (reduced by reduce_partials in dpd_force.cu). nlist=cluster takes the same
// evaluator over cluster-pair tiles (pair_force_cluster.cuh).
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
#include "md/lj_force.cuh"
#include "md/pair_force_cluster.cuh"
#include "meso/cuda/check.hpp"
#include "core/tpp_dispatch.cuh"

namespace meso::cuda {
namespace {

// The LJ pair in R = LjPairReal<P> (the storage precision; see lj_force.cuh),
// summed into P::A: the evaluator returns exact zeros at and beyond r_cut,
// so no pair is skipped, and the grouped traversal (kUnroll = 4 slots per
// lane at a time) hides the gathers.
template <class P>
struct LjEvaluator {
  using Args = LjForceArgs<P>;
  using S4 = typename P::S4;
  using A = typename P::A;  // accumulation: the force sum, energy and virial
  using R = LjPairReal<P>;  // one pair: the storage precision
  using Pair = physics::LjPairForce<R>;
  static constexpr int kMinBlocks = 0;  // no register cap
  static constexpr uint32_t kUnroll = 4;

  const Args& a;
  const MinImage<R>& box_;  // a kernel parameter: its 1/L once on the host, not per thread

  struct Particle {
    const MinImage<R>& box_;
    bool one_type;
    const physics::LjPairCoeffs<R>* row;
    physics::LjPairCoeffs<R> c0;

    __device__ __forceinline__ const MinImage<R>& box() const { return box_; }

    // The geometry by reference: see pair_force_kernel.
    __device__ __forceinline__ bool pair(const uint32_t&, const S4& pj, const R&, const R&,
                                         const R&, const R& rsq, Pair& pf) const {
      // if/else rather than ?: (the same pair): with ?: nvcc merged the
      // two calls' zero initialisations into other SASS than before.
      if (one_type) pf = physics::lj_pair_force<R>(rsq, c0);
      else pf = physics::lj_pair_force<R>(rsq, row[type_of(pj)]);
      return true;
    }
  };

  __device__ __forceinline__ Particle begin(uint32_t i, const S4* pos, S4& pi,
                                            uint32_t& ti) const {
    pi = ldg4(pos + i);
    ti = type_of(pi);
    // One type (the common case, lj-liquid): the coefficients live in
    // registers and the loop has no third dependent load.
    const bool one_type = a.ntypes == 1;
    const physics::LjPairCoeffs<R>* row = a.coeffs + ti * a.ntypes;
    const physics::LjPairCoeffs<R> c0 = row[0];
    return {box_, one_type, row, c0};
  }

  __device__ __forceinline__ static double virial_share(const Pair& pf, const R&) {
    return 0.5 * double(pf.virial);
  }
};

template <class P, uint32_t TPP>
void launch(const LjForceArgs<P>& a, bool sums, cudaStream_t s) {
  using E = LjEvaluator<P>;
  const uint32_t blocks = lj_force_blocks(a.p.n, TPP);
  const MinImage<LjPairReal<P>> box(a.box);  // its 1/L once here, not per thread
  launch_pair_force<E, TPP>(a, blocks, sums, a.fuse, s, box);
}

}  // namespace

uint32_t lj_force_blocks(uint32_t n, uint32_t tpp, bool cluster) {
  if (cluster) return cluster_force_blocks(n);
  return uint32_t((uint64_t(n) * tpp + kForceBlock - 1) / kForceBlock);
}

template <class P>
void compute_lj_forces(const LjForceArgs<P>& a, bool sums, cudaStream_t s) {
  if (a.cluster) {  // nlist=cluster: one warp an i-cluster (the operation takes tpp=1)
    launch_cluster_pair_force<LjEvaluator<P>>(a, sums, a.fuse, s, MinImage<LjPairReal<P>>(a.box));
    MESO_CUDA_CHECK(cudaGetLastError());
    return;
  }
  dispatch_tpp(a.tpp, "compute_lj_forces",
               [&](auto tpp) { launch<P, decltype(tpp)::value>(a, sums, s); });
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_lj_forces<PrecDouble>(const LjForceArgs<PrecDouble>&, bool, cudaStream_t);
template void compute_lj_forces<PrecMixed>(const LjForceArgs<PrecMixed>&, bool, cudaStream_t);
template void compute_lj_forces<PrecSingle>(const LjForceArgs<PrecSingle>&, bool, cudaStream_t);

}  // namespace meso::cuda
