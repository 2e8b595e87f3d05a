// DPD forces, gather=masked: the split-array evaluator of dpd_force.cu with
// pair_force.cuh's masked traversal. Each thread first gathers the
// positions of up to 32 list slots (several loads in flight, no other
// work), keeps a bit per slot inside r_c, and then evaluates only the set
// bits, in slot order. The pair arithmetic and the order of the sums are
// those of gather=split, so the forces are bitwise the same.
//
// Why: with the split traversal a lane whose slot lies between r_c and
// r_c + skin (about 55% of the slots at rho = 3, skin 0.3) idles while the
// other lanes of its warp evaluate their pairs (ncu on an H200, N = 1M:
// 17 of 32 lanes active), and each slot's position gather waits alone
// (long-scoreboard stalls 38% of the cycles). Here the warp's pair loop
// runs max over lanes of the in-range count, not of the slot count.
#include "md/dpd_evaluator.cuh"

namespace meso::cuda {

template <class P>
void compute_dpd_forces_masked(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c,
                               cudaStream_t s) {
  dpd_split::launch<P, dpd_split::Traversal::masked>(a, c, s);
}

template void compute_dpd_forces_masked<PrecDouble>(const DpdForceArgs<Double4>&,
                                                    const DpdForceConfig&, cudaStream_t);
template void compute_dpd_forces_masked<PrecMixed>(const DpdForceArgs<float4>&,
                                                   const DpdForceConfig&, cudaStream_t);
template void compute_dpd_forces_masked<PrecSingle>(const DpdForceArgs<float4>&,
                                                    const DpdForceConfig&, cudaStream_t);

}  // namespace meso::cuda
