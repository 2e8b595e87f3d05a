// The reference pair-force operation, one loop for every pair style
// templated on its evaluator (HOOMD-blue's PotentialPair<Evaluator>): one
// pass per particle over its full neighbor list. Each pair is evaluated from
// both sides with bitwise opposite separations, so F_ji == -F_ij exactly and
// the loop needs no atomics: the result is deterministic under OpenMP.
//
// An evaluator (pair_dpd.cpp, IsotropicEvaluator below) provides
//   static E prepare(CpuContext&, const ForceRequest&);  the evaluator of one
//                                      compute (step keys, TEA signatures)
//   using Arith = ...;                 separation and force-sum arithmetic
//   Particle particle(i) const;        what pair(i, j) needs of i
//   bool pair(const Particle&, i, j, const Vec3<Arith>& dr, Arith rsq,
//             Result& out) const;      false: no interaction (skip)
//   static double virial(const Result&, Arith rsq);  r . F of the pair
//   void add_particle_forces(CpuContext&) const;  optional: forces on single
//                                      particles after the pairs (the DPD walls)
// with Result carrying f_over_r and energy. Energy and virial sums are
// always accumulated in double.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "meso/ops/force.hpp"
#include "meso/physics/body_force.hpp"
#include "meso/physics/isotropic_pair.hpp"
#include "meso/physics/lees_edwards.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

// le: Lees-Edwards images (meso/physics/lees_edwards.hpp), inactive by
// default. A pair then takes its sheared minimum image, and an evaluator
// whose pair() takes the image index n too (DPD: the image's velocity is
// shifted by n gdot L_z) gets it.
template <class Real, class Evaluator>
PairSums accumulate_pair_forces(const Box& box, const Vec3<Real>* pos, std::size_t n,
                                const NeighborList& nlist, bool want_sums, bool overwrite,
                                const Evaluator& ev, Vec3<Real>* force,
                                const physics::LeesEdwards& le = {}) {
  using A = typename Evaluator::Arith;
  double energy = 0.0, virial = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : energy, virial)
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3d ri = vec_cast<double>(pos[i]);
    const typename Evaluator::Particle pi = ev.particle(i);
    Vec3<A> fi{A(0), A(0), A(0)};
    double ei = 0.0, wi = 0.0;
    const uint32_t* nb = nlist.neighbors(i);
    const uint32_t count = nlist.count(i);
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t j = nb[k];
      Vec3d d = ri - vec_cast<double>(pos[j]);
      int image = 0;
      if (le.active())
        image = physics::le_min_image(d, box.lengths(), le);
      else
        d = box.min_image(d);
      const Vec3<A> dr = vec_cast<A>(d);
      const A rsq = dot(dr, dr);
      typename Evaluator::Result pf;
      bool interacts = false;
      if constexpr (requires { ev.pair(pi, uint32_t(i), j, dr, rsq, pf, image); })
        interacts = ev.pair(pi, uint32_t(i), j, dr, rsq, pf, image);
      else
        interacts = ev.pair(pi, uint32_t(i), j, dr, rsq, pf);
      if (!interacts) continue;
      fi += pf.f_over_r * dr;
      if (want_sums) {
        ei += 0.5 * static_cast<double>(pf.energy);  // each pair is visited from both sides
        wi += 0.5 * Evaluator::virial(pf, rsq);
      }
    }
    force[i] = overwrite ? vec_cast<Real>(fi) : vec_cast<Real>(vec_cast<A>(force[i]) + fi);
    energy += ei;
    virial += wi;
  }
  return {energy, virial};
}

// Adds the body force (meso/physics/body_force.hpp) to every local particle.
template <class Real>
void add_body_force(CpuContext<Real>& c) {
  const physics::BodyForce bf = c.sys.body_force;
  ParticleData<Real>& p = c.p;
  const std::size_t n = p.n_local;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3d f = bf.force(vec_cast<double>(p.position[i]), p.type[i], c.sys.type_mass[p.type[i]]);
    p.force[i] = vec_cast<Real>(vec_cast<double>(p.force[i]) + f);
  }
}

// The pair-force operation of an evaluator: the loop above, then the body
// force of the system, when it has one.
template <class Real, class Evaluator>
class CpuPairForce final : public ForceOp {
 public:
  explicit CpuPairForce(CpuContext<Real>& c) : c_(c) {}

  void compute(const ForceRequest& r) override {
    const Evaluator ev = Evaluator::prepare(c_, r);
    ParticleData<Real>& p = c_.p;
    const PairSums s = accumulate_pair_forces(c_.sys.box, p.position.data(), p.n_local, c_.nlist,
                                              r.sums, first(), ev, p.force.data(),
                                              c_.sys.lees_edwards(double(r.step) * c_.params.dt));
    if (r.sums) sums_ = s;
    if (c_.sys.body_force.active()) add_body_force(c_);
    if constexpr (requires { ev.add_particle_forces(c_); }) ev.add_particle_forces(c_);
  }
  PairSums sums() const override { return sums_; }

 private:
  CpuContext<Real>& c_;
  PairSums sums_;
};

// The evaluator of an isotropic pair style E (meso/physics/isotropic_pair.hpp)
// in the storage's arithmetic: double storage evaluates and accumulates in
// double; float storage (precision=single) separates in double, rounds r_ij
// to float once, then evaluates and accumulates each particle's force in
// float, like a single-precision MD code (HOOMD-blue's CPU-SP build). The
// coefficients are prepared per pair from the parameters (the reference's
// form; the same arithmetic as the kernels' table of coefficients).
template <class Real, class E>
struct IsotropicEvaluator {
  using Arith = Real;
  using Params = typename E::Params;
  struct Particle {
    const Params* row;
  };
  using Result = physics::IsotropicPairForce<Real>;

  const uint32_t* type;
  const Params* table;
  uint32_t ntypes;

  Particle particle(std::size_t i) const { return {table + type[i] * ntypes}; }
  bool pair(const Particle& pi, uint32_t, uint32_t j, const Vec3<Real>&, Real rsq, Result& out) const {
    const Params& p = pi.row[type[j]];
    // Coincident particles have no direction (and infinite energy): skip,
    // as for DPD; the evaluator returns zero at and beyond r_cut.
    if (rsq == Real(0) || !(rsq < Real(p.rcut) * Real(p.rcut))) return false;
    out = E::template force<Real>(rsq, E::template coeffs<Real>(p));
    return true;
  }
  static double virial(const Result& pf, Real) { return static_cast<double>(pf.virial); }

  static IsotropicEvaluator prepare(CpuContext<Real>& c, const ForceRequest&) {
    return {c.p.type.data(), c.sys.template pair_table<Params>().data().data(), c.sys.ntypes()};
  }
};

// Registers the reference force of the pair style NAME under
// "pair_force/NAME" (meso/core/pair_style.hpp): defines
// register_pair_style_NAME<Real>, for FACTORY<Real>(CpuContext<Real>&). One
// line at the end of the style's file, reference/src/md/pair_NAME.cpp; CMake
// finds the files by name and the backend's registration
// (cpu_operations.cpp) calls each (LAMMPS's generated style_pair.h).
#define MESO_REFERENCE_PAIR_STYLE(NAME, FACTORY)                                          \
  template <class Real>                                                                  \
  void register_pair_style_##NAME(OperationTable<CpuContext<Real>>& t) {                 \
    t.add("pair_force/" #NAME, [](CpuContext<Real>& c) { return FACTORY<Real>(c); });     \
  }                                                                                      \
  template void register_pair_style_##NAME<double>(OperationTable<CpuContext<double>>&); \
  template void register_pair_style_##NAME<float>(OperationTable<CpuContext<float>>&)

// The same for an isotropic style E: the pair loop over IsotropicEvaluator.
#define MESO_REFERENCE_ISOTROPIC_PAIR_STYLE(NAME, E)                                        \
  template <class Real>                                                                    \
  std::unique_ptr<Operation> make_pair_force_##NAME(CpuContext<Real>& c) {                 \
    return std::make_unique<CpuPairForce<Real, IsotropicEvaluator<Real, E>>>(c);          \
  }                                                                                        \
  MESO_REFERENCE_PAIR_STYLE(NAME, make_pair_force_##NAME)

}  // namespace meso::reference
