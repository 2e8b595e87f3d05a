#include "meso/reference/integrate_langevin.hpp"

#include <cmath>

#include "physics/langevin_noise.hpp"

namespace meso::reference {

template <class Real>
void langevin_first_half(const System& sys, ParticleData<Real>& p, const RunParams& rp,
                         uint64_t step) {
  const double dt = rp.dt;
  const Box box = sys.box;
  const std::size_t n = p.n_local;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const double m = sys.type_mass[p.type[i]];
    const double c1 = std::exp(-rp.gamma * dt / m);
    const double c2 = std::sqrt((1.0 - c1 * c1) * rp.kT / m);
    Vec3d v = vec_cast<double>(p.velocity[i]) + (0.5 * dt / m) * vec_cast<double>(p.force[i]);
    Vec3d r = vec_cast<double>(p.position[i]) + (0.5 * dt) * v;
    v = c1 * v + c2 * physics::langevin_gaussian3(p.tag[i], step, rp.seed);
    r += (0.5 * dt) * v;
    box.wrap(r, p.image[i]);
    p.velocity[i] = vec_cast<Real>(v);
    p.position[i] = vec_cast<Real>(r);
  }
}

template void langevin_first_half<double>(const System&, ParticleData<double>&, const RunParams&,
                                          uint64_t);
template void langevin_first_half<float>(const System&, ParticleData<float>&, const RunParams&,
                                         uint64_t);

}  // namespace meso::reference
