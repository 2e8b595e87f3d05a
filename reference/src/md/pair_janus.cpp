// Reference soft Janus forces and torques (GALAMOST's one-site anisotropic
// model): the Janus evaluator of the orientational pair loop
// (aniso_pair_force.hpp) over the shared evaluator
// (engine/include/meso/physics/janus.hpp). The potential is bounded, so no
// pair is refused.
#include <string>

#include "meso/physics/janus.hpp"
#include "meso/physics/rigid_body.hpp"
#include "meso/reference/aniso_pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
struct JanusEvaluator : AnisoPairTable<Real, physics::JanusParams> {
  using Result = physics::JanusPair<>;

  bool pair(std::size_t i, std::size_t j, const Vec3d& dr, Result& out) const {
    // The evaluator's separation is d = r_j - r_i; the patch axes are body z.
    out = physics::soft_aniso_pair(-1.0 * dr, physics::body_axis_z(quat_cast<double>(this->p->orientation[i])),
                                   physics::body_axis_z(quat_cast<double>(this->p->orientation[j])),
                                   this->params(i, j));
    return true;
  }
};

}  // namespace

MESO_REFERENCE_ANISO_PAIR_STYLE(janus, JanusEvaluator);

}  // namespace meso::reference
