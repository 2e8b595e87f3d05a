// Reference soft Janus forces and torques (GALAMOST's one-site anisotropic
// model): the Janus evaluator of the orientational pair loop
// (aniso_pair_force.hpp) over the shared evaluator
// (engine/include/meso/physics/janus.hpp). The potential is bounded, so no
// pair is refused.
#include "meso/reference/janus_force.hpp"

#include <string>

#include "meso/physics/janus.hpp"
#include "meso/physics/rigid_body.hpp"
#include "meso/reference/aniso_pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
struct JanusEvaluator {
  using Result = physics::JanusPair<>;
  const ParticleData<Real>* p;
  const physics::JanusParams* table;
  uint32_t ntypes;

  static JanusEvaluator prepare(CpuContext<Real>& c) { return {&c.p, c.sys.janus.data().data(), c.sys.ntypes()}; }
  double rcut_sq(uint32_t a, uint32_t b) const {
    const double rc = table[a * ntypes + b].rcut;
    return rc * rc;
  }
  bool pair(std::size_t i, std::size_t j, const Vec3d& dr, Result& out) const {
    // The evaluator's separation is d = r_j - r_i; the patch axes are body z.
    out = physics::soft_aniso_pair(-1.0 * dr, physics::body_axis_z(quat_cast<double>(p->orientation[i])),
                              physics::body_axis_z(quat_cast<double>(p->orientation[j])),
                              table[p->type[i] * ntypes + p->type[j]]);
    return true;
  }
  static std::string broken(uint32_t, uint32_t) { return "Janus pair refused"; }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_janus_force(CpuContext<Real>& c) {
  return std::make_unique<CpuAnisoPairForce<Real, JanusEvaluator<Real>>>(c);
}

template std::unique_ptr<Operation> make_janus_force<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_janus_force<float>(CpuContext<float>&);

}  // namespace meso::reference
