// Yukawa forces on the GPU (the pair style "yukawa"): the isotropic kernels
// (isotropic_pair_force.cuh) over the shared evaluator
// (engine/include/meso/physics/yukawa.hpp).
#include "md/isotropic_pair_force.cuh"
#include "meso/physics/yukawa.hpp"

namespace meso::cuda {

MESO_CUDA_ISOTROPIC_PAIR_STYLE(yukawa, physics::YukawaPair);

}  // namespace meso::cuda
