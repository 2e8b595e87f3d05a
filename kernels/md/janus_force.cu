// Soft Janus forces and torques on the GPU (GALAMOST's one-site anisotropic
// model): aniso_pair_force.cuh's kernel with the Janus evaluator over the
// shared physics::janus_pair (engine/include/meso/physics/janus.hpp), the
// CUDA twin of reference/src/md/janus_force.cpp. The potential is bounded,
// so no pair is refused.
#include "md/aniso_pair_force.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/janus.hpp"
#include "meso/physics/rigid_body.hpp"

namespace meso::cuda {
namespace {

// R: the pair's arithmetic, that of the storage (as ssd_water_force.cu).
template <class R>
struct JanusEvaluator {
  const physics::JanusParams* table;
  uint32_t ntypes;

  __device__ double rcut_sq(uint32_t a, uint32_t b) const {
    const double rc = table[a * ntypes + b].rcut;
    return rc * rc;
  }
  __device__ bool pair(uint32_t ti, uint32_t tj, const Quatd& qi, const Quatd& qj, const Vec3d& dr,
                       AnisoPair& out) const {
    // The evaluator's separation is d = r_j - r_i; the patch axes are body z.
    const physics::JanusPair<R> w =
        physics::soft_aniso_pair(vec_cast<R>(-1.0 * dr), physics::body_axis_z(quat_cast<R>(qi)),
                            physics::body_axis_z(quat_cast<R>(qj)), table[ti * ntypes + tj]);
    out = {vec_cast<double>(w.force_i), vec_cast<double>(w.torque_i), vec_cast<double>(w.torque_j),
           double(w.energy), double(w.virial)};
    return true;
  }
};

}  // namespace

template <class S4>
void compute_janus_forces(const AnisoForceArgs<S4>& a, const physics::JanusParams* params, uint32_t ntypes,
                          uint32_t tpp, bool sums, cudaStream_t s) {
  launch_aniso_pair_force(a, JanusEvaluator<BuildReal<S4>>{params, ntypes}, tpp, sums, s);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_janus_forces<Double4>(const AnisoForceArgs<Double4>&, const physics::JanusParams*, uint32_t,
                                            uint32_t, bool, cudaStream_t);
template void compute_janus_forces<float4>(const AnisoForceArgs<float4>&, const physics::JanusParams*, uint32_t,
                                           uint32_t, bool, cudaStream_t);

}  // namespace meso::cuda
