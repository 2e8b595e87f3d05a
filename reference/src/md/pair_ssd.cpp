// Reference SSD/RF forces and torques: the SSD evaluator of the
// orientational pair loop (aniso_pair_force.hpp) over the shared evaluator
// (engine/include/meso/physics/ssd_water.hpp). The potential has no pole to
// guard (its LJ core repels every pair), so no pair is refused.
#include <string>

#include "meso/physics/ssd_water.hpp"
#include "meso/reference/aniso_pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
struct SsdEvaluator : AnisoPairTable<Real, physics::SsdParams> {
  using Result = physics::SsdPair<>;

  bool pair(std::size_t i, std::size_t j, const Vec3d& dr, Result& out) const {
    // The evaluator's separation is d = r_j - r_i.
    out = physics::ssd_pair(-1.0 * dr, quat_cast<double>(this->p->orientation[i]),
                            quat_cast<double>(this->p->orientation[j]), this->params(i, j));
    return true;
  }
};

}  // namespace

MESO_REFERENCE_ANISO_PAIR_STYLE(ssd, SsdEvaluator);

}  // namespace meso::reference
