// Reference Gay-Berne forces and torques: the Gay-Berne evaluator of the
// orientational pair loop (aniso_pair_force.hpp) over the shared evaluator
// (engine/include/meso/physics/gay_berne.hpp). A pair whose cores
// interpenetrate (|r| <= sigma - sigma0, where the potential has its pole)
// is an error named after the pass.
#include "meso/reference/gay_berne_force.hpp"

#include <string>

#include "meso/physics/gay_berne.hpp"
#include "meso/reference/aniso_pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
struct GayBerneEvaluator {
  using Result = physics::GayBernePair<>;
  const ParticleData<Real>* p;
  const physics::GayBerneParams* table;
  uint32_t ntypes;

  static GayBerneEvaluator prepare(CpuContext<Real>& c) {
    return {&c.p, c.sys.gay_berne.data().data(), c.sys.ntypes()};
  }
  double rcut_sq(uint32_t a, uint32_t b) const {
    const double rc = table[a * ntypes + b].rcut;
    return rc * rc;
  }
  bool pair(std::size_t i, std::size_t j, const Vec3d& dr, Result& out) const {
    const Vec3d ui = physics::body_axis_z(quat_cast<double>(p->orientation[i]));
    const Vec3d uj = physics::body_axis_z(quat_cast<double>(p->orientation[j]));
    out = physics::gay_berne_pair(dr, ui, uj, table[p->type[i] * ntypes + p->type[j]]);
    return !out.overlap;
  }
  static std::string broken(uint32_t a, uint32_t b) {
    return "Gay-Berne particles " + std::to_string(a) + " and " + std::to_string(b) +
           " overlap (|r| <= sigma(orientations) - sigma0, the pole of the potential): the configuration or the "
           "time step is broken";
  }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_gay_berne_force(CpuContext<Real>& c) {
  return std::make_unique<CpuAnisoPairForce<Real, GayBerneEvaluator<Real>>>(c);
}

template std::unique_ptr<Operation> make_gay_berne_force<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_gay_berne_force<float>(CpuContext<float>&);

}  // namespace meso::reference
