// Reference Gay-Berne forces and torques: the Gay-Berne evaluator of the
// orientational pair loop (aniso_pair_force.hpp) over the shared evaluator
// (engine/include/meso/physics/gay_berne.hpp). A pair whose cores
// interpenetrate (|r| <= sigma - sigma0, where the potential has its pole)
// is an error named after the pass.
#include <string>

#include "meso/physics/gay_berne.hpp"
#include "meso/reference/aniso_pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
struct GayBerneEvaluator : AnisoPairTable<Real, physics::GayBerneParams> {
  using Result = physics::GayBernePair<>;

  bool pair(std::size_t i, std::size_t j, const Vec3d& dr, Result& out) const {
    const Vec3d ui = physics::body_axis_z(quat_cast<double>(this->p->orientation[i]));
    const Vec3d uj = physics::body_axis_z(quat_cast<double>(this->p->orientation[j]));
    out = physics::gay_berne_pair(dr, ui, uj, this->params(i, j));
    return !out.overlap;
  }
  static std::string broken(uint32_t a, uint32_t b) {
    return "Gay-Berne particles " + std::to_string(a) + " and " + std::to_string(b) +
           " overlap (|r| <= sigma(orientations) - sigma0, the pole of the potential): the configuration or the "
           "time step is broken";
  }
};

}  // namespace

MESO_REFERENCE_ANISO_PAIR_STYLE(gay_berne, GayBerneEvaluator);

}  // namespace meso::reference
