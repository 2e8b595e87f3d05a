// Reference SSD/RF forces and torques: the SSD evaluator of the
// orientational pair loop (aniso_pair_force.hpp) over the shared evaluator
// (engine/include/meso/physics/ssd_water.hpp). The potential has no pole to
// guard (its LJ core repels every pair), so no pair is refused.
#include "meso/reference/ssd_water_force.hpp"

#include <string>

#include "meso/physics/ssd_water.hpp"
#include "meso/reference/aniso_pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
struct SsdEvaluator {
  using Result = physics::SsdPair<>;
  const ParticleData<Real>* p;
  const physics::SsdParams* table;
  uint32_t ntypes;

  static SsdEvaluator prepare(CpuContext<Real>& c) { return {&c.p, c.sys.ssd.data().data(), c.sys.ntypes()}; }
  double rcut_sq(uint32_t a, uint32_t b) const {
    const double rc = table[a * ntypes + b].rcut;
    return rc * rc;
  }
  bool pair(std::size_t i, std::size_t j, const Vec3d& dr, Result& out) const {
    // The evaluator's separation is d = r_j - r_i.
    out = physics::ssd_pair(-1.0 * dr, quat_cast<double>(p->orientation[i]), quat_cast<double>(p->orientation[j]),
                            table[p->type[i] * ntypes + p->type[j]]);
    return true;
  }
  static std::string broken(uint32_t, uint32_t) { return "SSD pair refused"; }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_ssd_water_force(CpuContext<Real>& c) {
  return std::make_unique<CpuAnisoPairForce<Real, SsdEvaluator<Real>>>(c);
}

template std::unique_ptr<Operation> make_ssd_water_force<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_ssd_water_force<float>(CpuContext<float>&);

}  // namespace meso::reference
