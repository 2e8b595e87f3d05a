// Gay-Berne forces and torques on the GPU: aniso_pair_force.cuh's kernel
// with the Gay-Berne evaluator over the shared physics::gay_berne_pair
// (engine/include/meso/physics/gay_berne.hpp), the CUDA twin of
// reference/src/md/pair_gay_berne.cpp. A pair whose cores interpenetrate
// (|r| <= sigma - sigma0, the pole of the potential) is refused.
#include "md/aniso_pair_force.cuh"
#include "md/aniso_pair_force_op.cuh"
#include "md/pair_force_op.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/gay_berne.hpp"

namespace meso::cuda {
namespace {

// R: the pair's arithmetic, that of the storage (fp32 for mixed and
// single, as the LJ pairs; fp64 for double). The kernel's double inputs
// are exact in float for fp32 storage but for the minimum-image separation,
// rounded once here.
template <class R>
struct GayBerneEvaluator : AnisoPairTable<physics::GayBerneParams> {
  static constexpr const char* kRefused = "overlap (|r| <= sigma(orientations) - sigma0, the pole of the potential)";

  __device__ bool pair(uint32_t ti, uint32_t tj, const Quatd& qi, const Quatd& qj, const Vec3d& dr,
                       AnisoPair& out) const {
    const physics::GayBernePair<R> g =
        physics::gay_berne_pair(vec_cast<R>(dr), physics::body_axis_z(quat_cast<R>(qi)),
                                physics::body_axis_z(quat_cast<R>(qj)), params(ti, tj));
    out = aniso_pair_of(g);
    return !g.overlap;
  }
};

template <class P>
std::unique_ptr<Operation> make_force(CudaContext<P>& ctx) {
  return make_aniso_pair_force<P, physics::GayBerneParams, GayBerneEvaluator>(ctx);
}

}  // namespace

MESO_CUDA_PAIR_STYLE(gay_berne, make_force);

}  // namespace meso::cuda
