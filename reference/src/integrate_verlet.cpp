#include "meso/reference/integrate_verlet.hpp"

namespace meso::reference {

template <class Real>
void integrate_first_half(const System& sys, ParticleData<Real>& p, double dt) {
  const Box box = sys.box;
  const std::size_t n = p.n_local;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const double h = 0.5 * dt / sys.type_mass[p.type[i]];
    const Vec3d v = vec_cast<double>(p.velocity[i]) + h * vec_cast<double>(p.force[i]);
    Vec3d r = vec_cast<double>(p.position[i]) + dt * v;
    box.wrap(r, p.image[i]);
    p.velocity[i] = vec_cast<Real>(v);
    p.position[i] = vec_cast<Real>(r);
  }
}

template <class Real>
void predict_velocity(const System& sys, const ParticleData<Real>& p, double dt, double lambda,
                      std::vector<Vec3<Real>>& v_pred) {
  const std::size_t n = p.n_local;
  v_pred.resize(n);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const double c = (lambda - 0.5) * dt / sys.type_mass[p.type[i]];
    v_pred[i] = vec_cast<Real>(vec_cast<double>(p.velocity[i]) + c * vec_cast<double>(p.force[i]));
  }
}

template <class Real>
void integrate_second_half(const System& sys, ParticleData<Real>& p, double dt) {
  const std::size_t n = p.n_local;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const double h = 0.5 * dt / sys.type_mass[p.type[i]];
    p.velocity[i] = vec_cast<Real>(vec_cast<double>(p.velocity[i]) + h * vec_cast<double>(p.force[i]));
  }
}

template void integrate_first_half<double>(const System&, ParticleData<double>&, double);
template void integrate_first_half<float>(const System&, ParticleData<float>&, double);
template void predict_velocity<double>(const System&, const ParticleData<double>&, double, double,
                                       std::vector<Vec3<double>>&);
template void predict_velocity<float>(const System&, const ParticleData<float>&, double, double,
                                      std::vector<Vec3<float>>&);
template void integrate_second_half<double>(const System&, ParticleData<double>&, double);
template void integrate_second_half<float>(const System&, ParticleData<float>&, double);

}  // namespace meso::reference
