// Lennard-Jones forces on the GPU (the pair style "lj"): the isotropic
// kernels (isotropic_pair_force.cuh) over the shared evaluator
// (engine/include/meso/physics/lj_force.hpp).
#include "md/isotropic_pair_force.cuh"
#include "meso/physics/lj_force.hpp"

namespace meso::cuda {

MESO_CUDA_ISOTROPIC_PAIR_STYLE(lj, physics::LjPair);

}  // namespace meso::cuda
