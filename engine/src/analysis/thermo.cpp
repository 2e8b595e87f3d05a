#include "meso/analysis/thermo.hpp"

#include "meso/physics/rigid_body.hpp"

namespace meso {

template <class Real>
ThermoSample compute_thermo(const System& sys, const ParticleData<Real>& p, const PairSums& sums,
                            uint64_t step) {
  ThermoSample t;
  t.step = step;
  double twice_ke = 0.0;
  Vec3d mom{0, 0, 0};
  for (std::size_t i = 0; i < p.n_local; ++i) {
    const double m = sys.type_mass[p.type[i]];
    const Vec3d v = vec_cast<double>(p.velocity[i]);
    twice_ke += m * dot(v, v);
    mom += m * v;
  }
  const double n = static_cast<double>(p.n_local);
  t.kinetic_energy = 0.5 * twice_ke;
  t.potential_energy = sums.energy;
  t.temperature = p.n_local > 1 ? twice_ke / (3.0 * n - 3.0) : 0.0;
  t.pressure = (twice_ke + sums.virial) / (3.0 * sys.box.volume());
  t.momentum = mom;
  if (p.rotational) {
    double k_rot = 0.0, dof = 0.0;
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const Vec3d inertia = vec_cast<double>(p.inertia[i]);
      k_rot += physics::rotational_kinetic_energy(vec_cast<double>(p.angmom[i]), inertia);
      dof += physics::rotational_dof(inertia);
    }
    t.rotational_kinetic_energy = k_rot;
    t.rotational_dof = dof;
    t.rotational_temperature = dof > 0.0 ? 2.0 * k_rot / dof : 0.0;
  }
  return t;
}

template ThermoSample compute_thermo<double>(const System&, const ParticleData<double>&,
                                             const PairSums&, uint64_t);
template ThermoSample compute_thermo<float>(const System&, const ParticleData<float>&,
                                            const PairSums&, uint64_t);

Vec3d total_momentum(const System& sys, const ParticleData<double>& p) {
  Vec3d mom{0, 0, 0};
  for (std::size_t i = 0; i < p.n_local; ++i) mom += sys.type_mass[p.type[i]] * p.velocity[i];
  return mom;
}

}  // namespace meso
