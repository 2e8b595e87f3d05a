// DPD forces straight from the cells (nlist=cells): the split-array
// evaluator of dpd_force.cu over each particle's half stencil of cells,
// each pair once with one noise draw, added to both particles in 64-bit
// fixed point (pair_force_cells.cuh), then every particle finished from its
// sum as with half rows (body force, store, fused half-step).
#include "md/dpd_evaluator.cuh"

namespace meso::cuda {

template <class P>
void compute_dpd_forces_cells(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c,
                              const CellPairArgs& cp, const HalfForceSums& h, cudaStream_t s) {
  dpd_split::launch<P, dpd_split::Traversal::cells>(a, c, s, &h, &cp);
  launch_finish_half(a.p, h, a.ctl, a.body, a.type_mass, a.dt, a.fuse_base_pred, c.fuse, s);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_dpd_forces_cells<PrecDouble>(const DpdForceArgs<Double4>&, const DpdForceConfig&,
                                                   const CellPairArgs&, const HalfForceSums&, cudaStream_t);
template void compute_dpd_forces_cells<PrecMixed>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                                  const CellPairArgs&, const HalfForceSums&, cudaStream_t);
template void compute_dpd_forces_cells<PrecSingle>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                                   const CellPairArgs&, const HalfForceSums&, cudaStream_t);

}  // namespace meso::cuda
