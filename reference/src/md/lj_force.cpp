// Reference Lennard-Jones forces: the LJ evaluator of the pair-force loop
// (pair_force.hpp), calling the shared evaluator
// (engine/include/meso/physics/lj_force.hpp). The result is independent of
// when the list was rebuilt: pairs beyond r_cut are skipped, the others summed
// in index order.
//
// Arithmetic precision follows the storage: double storage evaluates and
// accumulates in double; float storage (precision=single) separates in
// double, rounds r_ij to float once, then evaluates and accumulates each
// particle's force in float, like a single-precision MD code (HOOMD-blue's
// CPU-SP build). Energy and virial sums are always accumulated in double.
#include "meso/reference/lj_force.hpp"

#include "meso/physics/lj_force.hpp"
#include "meso/reference/pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
struct LjEvaluator {
  using Arith = Real;
  struct Particle {
    const physics::LjPairParams* row;
  };
  using Result = physics::LjPairForce<Real>;

  const uint32_t* type;
  const physics::LjPairParams* table;
  uint32_t ntypes;

  Particle particle(std::size_t i) const { return {table + type[i] * ntypes}; }
  bool pair(const Particle& pi, uint32_t, uint32_t j, const Vec3<Real>&, Real rsq,
            Result& out) const {
    const physics::LjPairParams& p = pi.row[type[j]];
    // Coincident particles have no direction (and infinite energy): skip,
    // as for DPD; the evaluator returns zero at and beyond r_cut.
    if (rsq == Real(0) || !(rsq < Real(p.rcut) * Real(p.rcut))) return false;
    out = physics::lj_pair_force<Real>(rsq, p);
    return true;
  }
  static double virial(const Result& pf, Real) { return static_cast<double>(pf.virial); }

  static LjEvaluator prepare(CpuContext<Real>& c, const ForceRequest&) {
    return {c.p.type.data(), c.sys.lj.data().data(), c.sys.ntypes()};
  }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_lj_force(CpuContext<Real>& c) {
  return std::make_unique<CpuPairForce<Real, LjEvaluator<Real>>>(c);
}

template std::unique_ptr<Operation> make_lj_force<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_lj_force<float>(CpuContext<float>&);

}  // namespace meso::reference
