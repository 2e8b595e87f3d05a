#include "meso/reference/integrate_berendsen.hpp"

#include "meso/core/error.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/ops/integration_method.hpp"
#include "meso/physics/rigid_body.hpp"
#include "meso/physics/thermostats.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {
namespace {

// Twice the kinetic energies and the rotational degrees of freedom, in
// particle order.
struct KineticSums {
  double mv2 = 0.0, rot2 = 0.0, rot_dof = 0.0, n = 0.0;
};

template <class Real>
class CpuBerendsen final : public IntegrationMethodOp {
 public:
  CpuBerendsen(CpuContext<Real>& c, bool rotation) : c_(c), rotation_(rotation) {
    if (rotation && !c.p.rotational)
      throw_input_error("integrate/berendsen/aniso integrates orientational particles: the system has none");
  }
  void set_communicator(const Communicator* comm) override { comm_ = comm && comm->size() > 1 ? comm : nullptr; }

  void first_half(uint64_t) override {
    ParticleData<Real>& p = c_.p;
    const RunParams& rp = c_.params;
    const double dt = rp.dt;
    const KineticSums k = sums();
    const double lt = physics::berendsen_scale(k.mv2 / physics::nose_hoover_dof(std::size_t(k.n)), rp.kT, dt, rp.tau);
    const double tau_r = rp.tau_r > 0.0 ? rp.tau_r : rp.tau;
    const double lr = k.rot_dof > 0.0 ? physics::berendsen_scale(k.rot2 / k.rot_dof, rp.kT, dt, tau_r) : 1.0;
    const Box box = c_.sys.box;
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const double m = c_.sys.type_mass[p.type[i]];
      const Vec3d v = lt * (vec_cast<double>(p.velocity[i]) + (dt / m) * vec_cast<double>(p.force[i]));
      Vec3d r = vec_cast<double>(p.position[i]) + dt * v;
      box.wrap(r, p.image[i]);
      p.velocity[i] = vec_cast<Real>(v);
      p.position[i] = vec_cast<Real>(r);
      if (!rotation_) continue;
      Quatd q = quat_cast<double>(p.orientation[i]);
      const Vec3d inertia = vec_cast<double>(p.inertia[i]);
      Vec3d L = lr * physics::torque_kick(q, vec_cast<double>(p.angmom[i]), inertia, vec_cast<double>(p.torque[i]), dt);
      physics::free_rotation(q, L, inertia, dt);
      p.orientation[i] = quat_cast<Real>(q);
      p.angmom[i] = vec_cast<Real>(L);
    }
  }
  void second_half(uint64_t) override {}

 private:
  CpuContext<Real>& c_;
  bool rotation_;
  const Communicator* comm_ = nullptr;

  KineticSums sums() const {
    const ParticleData<Real>& p = c_.p;
    KineticSums k;
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const Vec3d v = vec_cast<double>(p.velocity[i]);
      k.mv2 += c_.sys.type_mass[p.type[i]] * dot(v, v);
      if (!rotation_) continue;
      const Vec3d inertia = vec_cast<double>(p.inertia[i]);
      k.rot2 += 2.0 * physics::rotational_kinetic_energy(vec_cast<double>(p.angmom[i]), inertia);
      k.rot_dof += physics::rotational_dof(inertia);
    }
    k.n = double(p.n_local);
    if (comm_) {
      k.mv2 = comm_->sum(k.mv2);
      k.rot2 = comm_->sum(k.rot2);
      k.rot_dof = comm_->sum(k.rot_dof);
      k.n = comm_->sum(k.n);
    }
    return k;
  }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_berendsen(CpuContext<Real>& c, bool rotation) {
  return std::make_unique<CpuBerendsen<Real>>(c, rotation);
}

template std::unique_ptr<Operation> make_berendsen<double>(CpuContext<double>&, bool);
template std::unique_ptr<Operation> make_berendsen<float>(CpuContext<float>&, bool);

}  // namespace meso::reference
