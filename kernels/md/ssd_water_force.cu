// SSD/RF water forces and torques on the GPU: aniso_pair_force.cuh's kernel
// with the SSD evaluator over the shared physics::ssd_pair
// (engine/include/meso/physics/ssd_water.hpp), the CUDA twin of
// reference/src/md/ssd_water_force.cpp. The potential has no pole (its LJ
// core repels every pair), so no pair is refused.
#include "md/aniso_pair_force.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/ssd_water.hpp"

namespace meso::cuda {
namespace {

// R: the pair's arithmetic, that of the storage (as gay_berne_force.cu).
template <class R>
struct SsdEvaluator {
  const physics::SsdParams* table;
  uint32_t ntypes;

  __device__ double rcut_sq(uint32_t a, uint32_t b) const {
    const double rc = table[a * ntypes + b].rcut;
    return rc * rc;
  }
  __device__ bool pair(uint32_t ti, uint32_t tj, const Quatd& qi, const Quatd& qj, const Vec3d& dr,
                       AnisoPair& out) const {
    // The evaluator's separation is d = r_j - r_i.
    const physics::SsdPair<R> w =
        physics::ssd_pair(vec_cast<R>(-1.0 * dr), quat_cast<R>(qi), quat_cast<R>(qj), table[ti * ntypes + tj]);
    out = {vec_cast<double>(w.force_i), vec_cast<double>(w.torque_i), vec_cast<double>(w.torque_j),
           double(w.energy), double(w.virial)};
    return true;
  }
};

}  // namespace

template <class S4>
void compute_ssd_forces(const AnisoForceArgs<S4>& a, const physics::SsdParams* params, uint32_t ntypes, uint32_t tpp,
                        bool sums, cudaStream_t s) {
  launch_aniso_pair_force(a, SsdEvaluator<BuildReal<S4>>{params, ntypes}, tpp, sums, s);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_ssd_forces<Double4>(const AnisoForceArgs<Double4>&, const physics::SsdParams*, uint32_t, uint32_t,
                                          bool, cudaStream_t);
template void compute_ssd_forces<float4>(const AnisoForceArgs<float4>&, const physics::SsdParams*, uint32_t, uint32_t,
                                         bool, cudaStream_t);

}  // namespace meso::cuda
