// DPD forces on half rows (nlist=half): the split-array evaluator of
// dpd_force.cu, each pair evaluated once with one noise draw and applied to
// both particles in 64-bit fixed point (pair_force_half.cuh), then every
// particle finished from its sum (body force, store, fused half-step).
//
// Why: a full row evaluates every pair twice, from both sides (Tang &
// Karniadakis's deterministic scheme): twice the gathers, the pair
// arithmetic and the noise draws, and twice the list's slots. The price is
// three integer atomics per pair and a second, per-particle pass: on an H200
// at N = 1M (mixed) the atomics cost about what the halved pair work saves
// (results/cuda-dpd/half-list).
#include "md/dpd_evaluator.cuh"

namespace meso::cuda {

template <class P>
void compute_dpd_forces_half(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c,
                             const HalfForceSums& h, cudaStream_t s) {
  dpd_split::launch<P, dpd_split::Traversal::half>(a, c, s, &h);
  launch_finish_half(a.p, h, a.ctl, a.body, a.type_mass, a.dt, a.fuse_base_pred, c.fuse, s);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_dpd_forces_half<PrecDouble>(const DpdForceArgs<Double4>&, const DpdForceConfig&,
                                                  const HalfForceSums&, cudaStream_t);
template void compute_dpd_forces_half<PrecMixed>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                                 const HalfForceSums&, cudaStream_t);
template void compute_dpd_forces_half<PrecSingle>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                                  const HalfForceSums&, cudaStream_t);

}  // namespace meso::cuda
