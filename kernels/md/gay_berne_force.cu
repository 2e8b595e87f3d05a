// Gay-Berne forces and torques on the GPU: aniso_pair_force.cuh's kernel
// with the Gay-Berne evaluator over the shared physics::gay_berne_pair
// (engine/include/meso/physics/gay_berne.hpp), the CUDA twin of
// reference/src/md/gay_berne_force.cpp. A pair whose cores interpenetrate
// (|r| <= sigma - sigma0, the pole of the potential) is refused.
#include "md/aniso_pair_force.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/gay_berne.hpp"

namespace meso::cuda {
namespace {

struct GayBerneEvaluator {
  const physics::GayBerneParams* table;
  uint32_t ntypes;

  __device__ double rcut_sq(uint32_t a, uint32_t b) const {
    const double rc = table[a * ntypes + b].rcut;
    return rc * rc;
  }
  __device__ bool pair(uint32_t ti, uint32_t tj, const Quatd& qi, const Quatd& qj, const Vec3d& dr,
                       AnisoPair& out) const {
    const physics::GayBernePair g = physics::gay_berne_pair(dr, physics::body_axis_z(qi), physics::body_axis_z(qj),
                                                            table[ti * ntypes + tj]);
    out = {g.force_i, g.torque_i, g.torque_j, g.energy, g.virial};
    return !g.overlap;
  }
};

}  // namespace

template <class S4>
void compute_gay_berne_forces(const AnisoForceArgs<S4>& a, const physics::GayBerneParams* params,
                              uint32_t ntypes, bool sums, cudaStream_t s) {
  launch_aniso_pair_force(a, GayBerneEvaluator{params, ntypes}, sums, s);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_gay_berne_forces<Double4>(const AnisoForceArgs<Double4>&, const physics::GayBerneParams*,
                                                uint32_t, bool, cudaStream_t);
template void compute_gay_berne_forces<float4>(const AnisoForceArgs<float4>&, const physics::GayBerneParams*,
                                               uint32_t, bool, cudaStream_t);

}  // namespace meso::cuda
