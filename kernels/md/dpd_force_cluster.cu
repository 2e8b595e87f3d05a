// DPD forces on cluster-pair rows (nlist=cluster): the split-array
// evaluator of dpd_force.cu over the i-cluster x j-cluster tiles of
// pair_force_cluster.cuh (rows by md/neighbor_list_cluster.cu).
#include "md/dpd_evaluator.cuh"

namespace meso::cuda {

template <class P>
void compute_dpd_forces_cluster(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c, cudaStream_t s) {
  dpd_split::launch<P, dpd_split::Traversal::cluster>(a, c, s);
}

template void compute_dpd_forces_cluster<PrecDouble>(const DpdForceArgs<Double4>&, const DpdForceConfig&,
                                                     cudaStream_t);
template void compute_dpd_forces_cluster<PrecMixed>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                                    cudaStream_t);
template void compute_dpd_forces_cluster<PrecSingle>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                                     cudaStream_t);

}  // namespace meso::cuda
