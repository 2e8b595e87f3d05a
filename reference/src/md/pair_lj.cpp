// Reference Lennard-Jones forces (the pair style "lj"): the pair-force loop
// (pair_force.hpp) over the shared evaluator
// (engine/include/meso/physics/lj_force.hpp). The result is independent of
// when the list was rebuilt: pairs beyond r_cut are skipped, the others
// summed in index order.
#include "meso/physics/lj_force.hpp"
#include "meso/reference/pair_force.hpp"

namespace meso::reference {

MESO_REFERENCE_ISOTROPIC_PAIR_STYLE(lj, physics::LjPair);

}  // namespace meso::reference
