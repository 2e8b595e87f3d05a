// Soft Janus forces and torques on the GPU (GALAMOST's one-site anisotropic
// model): aniso_pair_force.cuh's kernel with the Janus evaluator over the
// shared physics::janus_pair (engine/include/meso/physics/janus.hpp), the
// CUDA twin of reference/src/md/pair_janus.cpp. The potential is bounded,
// so no pair is refused.
#include "md/aniso_pair_force.cuh"
#include "md/aniso_pair_force_op.cuh"
#include "md/pair_force_op.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/janus.hpp"
#include "meso/physics/rigid_body.hpp"

namespace meso::cuda {
namespace {

// R: the pair's arithmetic, that of the storage (as pair_ssd.cu).
template <class R>
struct JanusEvaluator : AnisoPairTable<physics::JanusParams> {
  __device__ bool pair(uint32_t ti, uint32_t tj, const Quatd& qi, const Quatd& qj, const Vec3d& dr,
                       AnisoPair& out) const {
    // The evaluator's separation is d = r_j - r_i; the patch axes are body z.
    out = aniso_pair_of(physics::soft_aniso_pair(vec_cast<R>(-1.0 * dr), physics::body_axis_z(quat_cast<R>(qi)),
                                                 physics::body_axis_z(quat_cast<R>(qj)), params(ti, tj)));
    return true;
  }
};

template <class P>
std::unique_ptr<Operation> make_force(CudaContext<P>& ctx) {
  return make_aniso_pair_force<P, physics::JanusParams, JanusEvaluator>(ctx);
}

}  // namespace

MESO_CUDA_PAIR_STYLE(janus, make_force);

}  // namespace meso::cuda
