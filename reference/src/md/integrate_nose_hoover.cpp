#include "meso/reference/integrate_nose_hoover.hpp"

#include <cmath>

#include "meso/ops/communicator.hpp"
#include "meso/ops/integration_method.hpp"
#include "meso/physics/thermostats.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

template <class Real>
double kinetic_energy_ordered(const System& sys, const ParticleData<Real>& p) {
  double twice = 0.0;
  for (std::size_t i = 0; i < p.n_local; ++i) {
    const Vec3d v = vec_cast<double>(p.velocity[i]);
    twice += sys.type_mass[p.type[i]] * dot(v, v);
  }
  return 0.5 * twice;
}

namespace {

double xi_rate(double kinetic, std::size_t n, const RunParams& rp) {
  return physics::nose_hoover_rate(2.0 * kinetic, physics::nose_hoover_dof(n), rp.kT, rp.tau);
}

// The thermostat's rate from the kinetic energy and N of every rank.
template <class Real>
double global_xi_rate(const System& sys, const ParticleData<Real>& p, const RunParams& rp,
                      const Communicator* comm) {
  const double ke = kinetic_energy_ordered(sys, p);
  if (!comm) return xi_rate(ke, p.n_local, rp);
  return xi_rate(comm->sum(ke), static_cast<std::size_t>(comm->sum(static_cast<double>(p.n_local))), rp);
}

}  // namespace

template <class Real>
void nose_hoover_first_half(const System& sys, ParticleData<Real>& p, const RunParams& rp,
                            IntegratorState& s, const Communicator* comm) {
  const double dt = rp.dt;
  s.xi = physics::nose_hoover_xi_half(s.xi, dt, global_xi_rate(sys, p, rp, comm));
  s.eta = physics::nose_hoover_eta_half(s.eta, dt, s.xi);
  const double scale = physics::nose_hoover_scale(dt, s.xi);
  const Box box = sys.box;
  const std::size_t n = p.n_local;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const double h = 0.5 * dt / sys.type_mass[p.type[i]];
    const Vec3d v =
        physics::nose_hoover_first_velocity(vec_cast<double>(p.velocity[i]), vec_cast<double>(p.force[i]), scale, h);
    Vec3d r = vec_cast<double>(p.position[i]) + dt * v;
    box.wrap(r, p.image[i]);
    p.velocity[i] = vec_cast<Real>(v);
    p.position[i] = vec_cast<Real>(r);
  }
}

template <class Real>
void nose_hoover_second_half(const System& sys, ParticleData<Real>& p, const RunParams& rp,
                             IntegratorState& s, const Communicator* comm) {
  const double dt = rp.dt;
  const double scale = physics::nose_hoover_scale(dt, s.xi);
  const std::size_t n = p.n_local;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const double h = 0.5 * dt / sys.type_mass[p.type[i]];
    p.velocity[i] = vec_cast<Real>(physics::nose_hoover_second_velocity(
        vec_cast<double>(p.velocity[i]), vec_cast<double>(p.force[i]), scale, h));
  }
  s.eta = physics::nose_hoover_eta_half(s.eta, dt, s.xi);
  s.xi = physics::nose_hoover_xi_half(s.xi, dt, global_xi_rate(sys, p, rp, comm));
}

namespace {

template <class Real>
class CpuNoseHoover final : public IntegrationMethodOp {
 public:
  explicit CpuNoseHoover(CpuContext<Real>& c) : c_(c) {}
  void first_half(uint64_t) override { nose_hoover_first_half(c_.sys, c_.p, c_.params, s_, comm_); }
  void second_half(uint64_t) override { nose_hoover_second_half(c_.sys, c_.p, c_.params, s_, comm_); }
  void set_communicator(const Communicator* comm) override {
    comm_ = comm;
    n_global_ = static_cast<std::size_t>(comm->sum(static_cast<double>(c_.p.n_local)));
  }
  IntegratorState state() const override { return s_; }
  void set_state(const IntegratorState& s) override { s_ = s; }
  double thermostat_energy() const override {
    return physics::nose_hoover_energy(physics::nose_hoover_dof(comm_ ? n_global_ : c_.p.n_local), c_.params.kT,
                                       c_.params.tau, s_.xi, s_.eta);
  }

 private:
  CpuContext<Real>& c_;
  IntegratorState s_;  // xi, eta
  const Communicator* comm_ = nullptr;  // several ranks: K and N summed over them
  std::size_t n_global_ = 0;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_nose_hoover(CpuContext<Real>& c) {
  return std::make_unique<CpuNoseHoover<Real>>(c);
}

template std::unique_ptr<Operation> make_nose_hoover<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_nose_hoover<float>(CpuContext<float>&);
template double kinetic_energy_ordered<double>(const System&, const ParticleData<double>&);
template double kinetic_energy_ordered<float>(const System&, const ParticleData<float>&);
template void nose_hoover_first_half<double>(const System&, ParticleData<double>&, const RunParams&,
                                             IntegratorState&, const Communicator*);
template void nose_hoover_first_half<float>(const System&, ParticleData<float>&, const RunParams&,
                                            IntegratorState&, const Communicator*);
template void nose_hoover_second_half<double>(const System&, ParticleData<double>&, const RunParams&,
                                              IntegratorState&, const Communicator*);
template void nose_hoover_second_half<float>(const System&, ParticleData<float>&, const RunParams&,
                                             IntegratorState&, const Communicator*);

}  // namespace meso::reference
