#include "meso/reference/dpd_force.hpp"

#include <cmath>

#include "physics/dpd_force.hpp"
#include "physics/tea.hpp"

namespace meso::reference {

template <class Real>
PairSums compute_dpd_forces(const System& sys, const Vec3<Real>* pos, const Vec3<Real>* velocity,
                            const uint32_t* type, const uint32_t* tag, const uint32_t* signature,
                            std::size_t n, const NeighborList& nlist, const DpdForceArgs& args,
                            Vec3<Real>* force) {
  const Box box = sys.box;
  const uint32_t ntypes = sys.ntypes();
  const physics::DpdPairParams* table = sys.dpd.data().data();
  const double inv_sqrt_dt = 1.0 / std::sqrt(args.dt);
  const physics::TeaPairKey tea_key = physics::tea_pair_key(args.timestep, args.seed);
  double energy = 0.0, virial = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : energy, virial)
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3d ri = vec_cast<double>(pos[i]);
    const Vec3d vi = vec_cast<double>(velocity[i]);
    const physics::DpdPairParams* row = table + type[i] * ntypes;
    Vec3d fi{0.0, 0.0, 0.0};
    double ei = 0.0, wi = 0.0;
    const uint32_t* nb = nlist.neighbors(i);
    const uint32_t count = nlist.count(i);
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t j = nb[k];
      const Vec3d dr = box.min_image(ri - vec_cast<double>(pos[j]));
      const double rsq = dot(dr, dr);
      const physics::DpdPairParams& p = row[type[j]];
      // rsq == 0 (coincident particles) has no direction: skip, as the
      // evaluator's e_ij is undefined there. At r == r_c every term vanishes.
      if (rsq >= p.rcut * p.rcut || rsq == 0.0) continue;
      const Vec3d dv = vi - vec_cast<double>(velocity[j]);
      const double xi =
          args.rng == physics::RngKind::philox
              ? physics::pair_gaussian_philox(tag[i], tag[j], args.timestep, args.seed)
              : physics::pair_gaussian_tea(tag[i], signature[i], tag[j], signature[j], tea_key);
      const auto pf = physics::dpd_pair_force(rsq, dot(dr, dv), xi, inv_sqrt_dt, p);
      fi += pf.f_over_r * dr;
      if (args.want_sums) {
        ei += 0.5 * pf.energy;  // each pair is visited from both sides
        wi += 0.5 * pf.f_over_r * rsq;
      }
    }
    force[i] = vec_cast<Real>(fi);
    energy += ei;
    virial += wi;
  }
  return {energy, virial};
}

template <class Real>
void compute_tea_signatures(const Vec3<Real>* velocity, const uint32_t* tag, std::size_t n,
                            uint32_t seed, std::vector<uint32_t>& out) {
  out.resize(n);
  const uint32_t whitening = physics::tea_seed_whitening(seed);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i)
    out[i] = physics::tea_signature_whitened(tag[i], static_cast<float>(velocity[i].x),
                                             static_cast<float>(velocity[i].y),
                                             static_cast<float>(velocity[i].z), whitening);
}

template PairSums compute_dpd_forces<double>(const System&, const Vec3<double>*, const Vec3<double>*,
                                             const uint32_t*, const uint32_t*, const uint32_t*,
                                             std::size_t, const NeighborList&, const DpdForceArgs&,
                                             Vec3<double>*);
template PairSums compute_dpd_forces<float>(const System&, const Vec3<float>*, const Vec3<float>*,
                                            const uint32_t*, const uint32_t*, const uint32_t*,
                                            std::size_t, const NeighborList&, const DpdForceArgs&,
                                            Vec3<float>*);
template void compute_tea_signatures<double>(const Vec3<double>*, const uint32_t*, std::size_t,
                                             uint32_t, std::vector<uint32_t>&);
template void compute_tea_signatures<float>(const Vec3<float>*, const uint32_t*, std::size_t,
                                            uint32_t, std::vector<uint32_t>&);

}  // namespace meso::reference
