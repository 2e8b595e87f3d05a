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

// R: the pair's arithmetic, that of the storage (fp32 for mixed and
// single, as the LJ pairs; fp64 for double). The kernel's double inputs
// are exact in float for fp32 storage but for the minimum-image separation,
// rounded once here.
template <class R>
struct GayBerneEvaluator {
  const physics::GayBerneParams* table;
  uint32_t ntypes;

  __device__ double rcut_sq(uint32_t a, uint32_t b) const {
    const double rc = table[a * ntypes + b].rcut;
    return rc * rc;
  }
  __device__ bool pair(uint32_t ti, uint32_t tj, const Quatd& qi, const Quatd& qj, const Vec3d& dr,
                       AnisoPair& out) const {
    const physics::GayBernePair<R> g =
        physics::gay_berne_pair(vec_cast<R>(dr), physics::body_axis_z(quat_cast<R>(qi)),
                                physics::body_axis_z(quat_cast<R>(qj)), table[ti * ntypes + tj]);
    out = {vec_cast<double>(g.force_i), vec_cast<double>(g.torque_i), vec_cast<double>(g.torque_j),
           double(g.energy), double(g.virial)};
    return !g.overlap;
  }
};

}  // namespace

template <class S4>
void compute_gay_berne_forces(const AnisoForceArgs<S4>& a, const physics::GayBerneParams* params,
                              uint32_t ntypes, uint32_t tpp, bool sums, cudaStream_t s) {
  launch_aniso_pair_force(a, GayBerneEvaluator<BuildReal<S4>>{params, ntypes}, tpp, sums, s);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_gay_berne_forces<Double4>(const AnisoForceArgs<Double4>&, const physics::GayBerneParams*,
                                                uint32_t, uint32_t, bool, cudaStream_t);
template void compute_gay_berne_forces<float4>(const AnisoForceArgs<float4>&, const physics::GayBerneParams*,
                                               uint32_t, uint32_t, bool, cudaStream_t);

}  // namespace meso::cuda
