// Tabulated pair forces on the GPU: pair_force.cuh's kernel with the table
// evaluator (see table_force.cuh). Same traversal and determinism argument
// as the LJ forces: each pair from both sides of a full list, F_ji = -F_ij
// bit for bit, no atomics but the out-of-range record; tpp lanes a particle
// with a fixed butterfly.
#include "core/tpp_dispatch.cuh"
#include "md/table_force.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

template <class P>
struct TableEvaluator {
  using Args = TableForceArgs<P>;
  using S4 = typename P::S4;
  using A = typename P::A;   // accumulation: the force sum, energy and virial
  using R = TablePairReal<P>;  // one pair: the storage precision
  using Pair = physics::TablePairForce<R>;
  static constexpr int kMinBlocks = 0;
  static constexpr uint32_t kUnroll = 4;

  const Args& a;
  const MinImage<R>& box_;

  struct Particle {
    const MinImage<R>& box_;
    const int32_t* row;
    const physics::TableView<R>* views;
    unsigned long long* fault;
    StepControl* ctl;

    __device__ __forceinline__ const MinImage<R>& box() const { return box_; }

    __device__ __forceinline__ bool pair(const uint32_t&, const S4& pj, const R&, const R&, const R&, const R& rsq,
                                         Pair& pf) const {
      const int32_t k = row[type_of(pj)];
      if (k < 0) return false;
      const physics::TableView<R>& t = views[k];
      if (!(rsq < t.z_max)) return false;
      if (rsq < t.z_min) {
        const float z = float(rsq);
        atomicMin(fault, (static_cast<unsigned long long>(__float_as_uint(z)) << 32) | uint32_t(k));
        ctl->abort = 1;
        return false;
      }
      pf = physics::table_pair_force<R>(rsq, t);
      return true;
    }
  };

  __device__ __forceinline__ Particle begin(uint32_t i, const S4* pos, S4& pi, uint32_t& ti) const {
    pi = ldg4(pos + i);
    ti = type_of(pi);
    return {box_, a.table_of + ti * a.ntypes, a.views, a.fault, a.ctl};
  }

  __device__ __forceinline__ static double virial_share(const Pair& pf, const R&) { return 0.5 * double(pf.virial); }
};

template <class P, uint32_t TPP>
void launch(const TableForceArgs<P>& a, bool sums, cudaStream_t s) {
  using E = TableEvaluator<P>;
  const uint32_t blocks = table_force_blocks(a.p.n, TPP);
  if (!blocks) return;
  const MinImage<TablePairReal<P>> box(a.box);
  launch_pair_force<E, TPP>(a, blocks, sums, a.fuse, s, box);
}

}  // namespace

uint32_t table_force_blocks(uint32_t n, uint32_t tpp) {
  return uint32_t((uint64_t(n) * tpp + kForceBlock - 1) / kForceBlock);
}

template <class P>
void compute_table_forces(const TableForceArgs<P>& a, bool sums, cudaStream_t s) {
  dispatch_tpp(a.tpp, "compute_table_forces", [&](auto tpp) { launch<P, decltype(tpp)::value>(a, sums, s); });
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_table_forces<PrecDouble>(const TableForceArgs<PrecDouble>&, bool, cudaStream_t);
template void compute_table_forces<PrecMixed>(const TableForceArgs<PrecMixed>&, bool, cudaStream_t);
template void compute_table_forces<PrecSingle>(const TableForceArgs<PrecSingle>&, bool, cudaStream_t);

}  // namespace meso::cuda
