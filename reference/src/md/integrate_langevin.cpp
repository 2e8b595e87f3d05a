#include "meso/reference/integrate_langevin.hpp"

#include <cmath>

#include "meso/ops/integration_method.hpp"
#include "meso/physics/langevin_noise.hpp"
#include "meso/physics/thermostats.hpp"
#include "meso/reference/cpu_context.hpp"
#include "meso/reference/integrate_verlet.hpp"

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
    const auto [c1, c2] = physics::langevin_coeffs(rp.gamma, dt, m, rp.kT);
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

namespace {

template <class Real>
class CpuLangevin final : public IntegrationMethodOp {
 public:
  explicit CpuLangevin(CpuContext<Real>& c) : c_(c) {}
  void first_half(uint64_t step) override { langevin_first_half(c_.sys, c_.p, c_.params, step); }
  void second_half(uint64_t) override { integrate_second_half(c_.sys, c_.p, c_.params.dt); }

 private:
  CpuContext<Real>& c_;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_langevin(CpuContext<Real>& c) {
  return std::make_unique<CpuLangevin<Real>>(c);
}

template std::unique_ptr<Operation> make_langevin<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_langevin<float>(CpuContext<float>&);

}  // namespace meso::reference
