#include "meso/reference/lj_force.hpp"

#include "physics/lj_force.hpp"

namespace meso::reference {

template <class Real>
PairSums compute_lj_forces(const System& sys, const Vec3<Real>* pos, const uint32_t* type,
                           std::size_t n, const NeighborList& nlist, bool want_sums,
                           Vec3<Real>* force) {
  const Box box = sys.box;
  const uint32_t ntypes = sys.ntypes();
  const physics::LjPairParams* table = sys.lj.data().data();
  double energy = 0.0, virial = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : energy, virial)
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3d ri = vec_cast<double>(pos[i]);
    const physics::LjPairParams* row = table + type[i] * ntypes;
    Vec3<Real> fi{Real(0), Real(0), Real(0)};
    double ei = 0.0, wi = 0.0;
    const uint32_t* nb = nlist.neighbors(i);
    const uint32_t count = nlist.count(i);
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t j = nb[k];
      const Vec3<Real> dr = vec_cast<Real>(box.min_image(ri - vec_cast<double>(pos[j])));
      const Real rsq = dot(dr, dr);
      const physics::LjPairParams& p = row[type[j]];
      // Coincident particles have no direction (and infinite energy): skip,
      // as for DPD; the evaluator returns zero at and beyond r_cut.
      if (rsq == Real(0) || !(rsq < Real(p.rcut) * Real(p.rcut))) continue;
      const auto pf = physics::lj_pair_force<Real>(rsq, p);
      fi += pf.f_over_r * dr;
      if (want_sums) {
        ei += 0.5 * static_cast<double>(pf.energy);  // each pair is visited from both sides
        wi += 0.5 * static_cast<double>(pf.virial);
      }
    }
    force[i] = fi;
    energy += ei;
    virial += wi;
  }
  return {energy, virial};
}

template PairSums compute_lj_forces<double>(const System&, const Vec3<double>*, const uint32_t*,
                                            std::size_t, const NeighborList&, bool, Vec3<double>*);
template PairSums compute_lj_forces<float>(const System&, const Vec3<float>*, const uint32_t*,
                                           std::size_t, const NeighborList&, bool, Vec3<float>*);

}  // namespace meso::reference
