// Reference Yukawa forces (the pair style "yukawa"): the pair-force loop
// (pair_force.hpp) over the shared evaluator
// (engine/include/meso/physics/yukawa.hpp).
#include "meso/physics/yukawa.hpp"
#include "meso/reference/pair_force.hpp"

namespace meso::reference {

MESO_REFERENCE_ISOTROPIC_PAIR_STYLE(yukawa, physics::YukawaPair);

}  // namespace meso::reference
