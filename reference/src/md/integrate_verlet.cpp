#include "meso/reference/integrate_verlet.hpp"

#include "meso/ops/integration_method.hpp"
#include "meso/physics/lees_edwards.hpp"
#include "meso/physics/srd_slit.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

template <class Real>
void integrate_first_half(const System& sys, ParticleData<Real>& p, double dt, uint64_t step) {
  const Box box = sys.box;
  const std::size_t n = p.n_local;
  // Slit walls: the drift reflects at a wall it crosses (physics/dpd_wall.hpp).
  const physics::SlitWall wall = sys.wall.slit();
  // Lees-Edwards: a particle through a z face comes back through the other
  // with x and v_x carried by the images' offset and speed at the end of the
  // drift, t = step dt (physics/lees_edwards.hpp).
  const physics::LeesEdwards le = sys.lees_edwards(double(step) * dt);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const double h = 0.5 * dt / sys.type_mass[p.type[i]];
    Vec3d v = vec_cast<double>(p.velocity[i]) + h * vec_cast<double>(p.force[i]);
    Vec3d r = vec_cast<double>(p.position[i]);
    if (wall.active())
      physics::slit_stream(r, v, Vec3d{0.0, 0.0, 0.0}, dt, wall);
    else
      r += dt * v;
    if (le.active()) p.image[i].z += physics::le_wrap(r, v, box.lengths(), le);
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

template void integrate_first_half<double>(const System&, ParticleData<double>&, double, uint64_t);
template void integrate_first_half<float>(const System&, ParticleData<float>&, double, uint64_t);
template void predict_velocity<double>(const System&, const ParticleData<double>&, double, double,
                                       std::vector<Vec3<double>>&);
template void predict_velocity<float>(const System&, const ParticleData<float>&, double, double,
                                      std::vector<Vec3<float>>&);
template void integrate_second_half<double>(const System&, ParticleData<double>&, double);
template void integrate_second_half<float>(const System&, ParticleData<float>&, double);

namespace {

template <class Real>
class CpuVerlet final : public IntegrationMethodOp {
 public:
  CpuVerlet(CpuContext<Real>& c, bool gw) : c_(c), gw_(gw) {}
  void first_half(uint64_t step) override {
    integrate_first_half(c_.sys, c_.p, c_.params.dt, step);
    if (gw_) predict_velocity(c_.sys, c_.p, c_.params.dt, c_.params.lambda, c_.v_pred);
  }
  void second_half(uint64_t) override { integrate_second_half(c_.sys, c_.p, c_.params.dt); }

 private:
  CpuContext<Real>& c_;
  bool gw_;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_verlet(CpuContext<Real>& c, bool groot_warren) {
  return std::make_unique<CpuVerlet<Real>>(c, groot_warren);
}

template std::unique_ptr<Operation> make_verlet<double>(CpuContext<double>&, bool);
template std::unique_ptr<Operation> make_verlet<float>(CpuContext<float>&, bool);

}  // namespace meso::reference
