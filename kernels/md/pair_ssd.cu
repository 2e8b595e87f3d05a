// SSD/RF water forces and torques on the GPU: aniso_pair_force.cuh's kernel
// with the SSD evaluator over the shared physics::ssd_pair
// (engine/include/meso/physics/ssd_water.hpp), the CUDA twin of
// reference/src/md/pair_ssd.cpp. The potential has no pole (its LJ
// core repels every pair), so no pair is refused.
#include "md/aniso_pair_force.cuh"
#include "md/aniso_pair_force_op.cuh"
#include "md/pair_force_op.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/ssd_water.hpp"

namespace meso::cuda {
namespace {

// R: the pair's arithmetic, that of the storage (as pair_gay_berne.cu).
template <class R>
struct SsdEvaluator : AnisoPairTable<physics::SsdParams> {
  __device__ bool pair(uint32_t ti, uint32_t tj, const Quatd& qi, const Quatd& qj, const Vec3d& dr,
                       AnisoPair& out) const {
    // The evaluator's separation is d = r_j - r_i.
    out = aniso_pair_of(physics::ssd_pair(vec_cast<R>(-1.0 * dr), quat_cast<R>(qi), quat_cast<R>(qj), params(ti, tj)));
    return true;
  }
};

template <class P>
std::unique_ptr<Operation> make_force(CudaContext<P>& ctx) {
  return make_aniso_pair_force<P, physics::SsdParams, SsdEvaluator>(ctx);
}

}  // namespace

MESO_CUDA_PAIR_STYLE(ssd, make_force);

}  // namespace meso::cuda
