// DPD forces on the GPU (Tang & Karniadakis, CPC 2014, sec. 3.5; HOOMD-blue
// PotentialPairDPDThermoGPU): one thread per particle over a full,
// column-major neighbor list, through the pair-force driver of
// pair_force.cuh. Every pair is evaluated from both sides; the noise is a
// pure function of (tags, step, seed) and minimum image is exactly
// antisymmetric, so F_ji = -F_ij bit for bit without atomics, and the result
// does not depend on the order of particles or of list entries beyond the
// order of the accumulation (which the ballot list fixes). The evaluator and
// the launch over the axes are in dpd_evaluator.cuh; gather=masked is
// dpd_force_masked.cu, gather=record dpd_force_record.cu.
#include "md/dpd_evaluator.cuh"
#include "md/dpd_force.cuh"
#include "core/fixed_order_reduce.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

// Energy and virial: the fixed-order sum of the force kernels' block
// partials (two values per block) by one block of 256 threads.
constexpr uint32_t kReduceBlock = 256;

__global__ void reduce_partials_kernel(const double* __restrict__ partials, uint32_t nblocks,
                                       double* out) {
  __shared__ double se[kReduceBlock], sw[kReduceBlock];
  sum_partials<kBlockDim, PartialsLoad::plain>(partials, nblocks, {se, sw});
  if (threadIdx.x == 0) {
    out[0] = se[0];
    out[1] = sw[0];
  }
}

}  // namespace

template <class P>
void compute_dpd_forces(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c,
                        cudaStream_t s) {
  if (c.record) compute_dpd_forces_record<P>(a, c, s);
  else if (c.masked) compute_dpd_forces_masked<P>(a, c, s);
  else dpd_split::launch<P, dpd_split::Traversal::split>(a, c, s);
}

void reduce_partials(const double* partials, uint32_t nblocks, double* out, cudaStream_t s) {
  reduce_partials_kernel<<<1, kReduceBlock, 0, s>>>(partials, nblocks, out);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_dpd_forces<PrecDouble>(const DpdForceArgs<Double4>&, const DpdForceConfig&,
                                             cudaStream_t);
template void compute_dpd_forces<PrecMixed>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                            cudaStream_t);
template void compute_dpd_forces<PrecSingle>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                             cudaStream_t);

}  // namespace meso::cuda
