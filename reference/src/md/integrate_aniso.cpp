#include "meso/reference/integrate_aniso.hpp"

#include "meso/ops/integration_method.hpp"
#include "meso/physics/langevin_noise.hpp"
#include "meso/physics/rigid_body.hpp"
#include "meso/physics/thermostats.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {
namespace {

// B: the half kick of v by the force and of L by the torque.
template <class Real>
void kick(CpuContext<Real>& c, std::size_t i, double h) {
  ParticleData<Real>& p = c.p;
  const double m = c.sys.type_mass[p.type[i]];
  p.velocity[i] = vec_cast<Real>(vec_cast<double>(p.velocity[i]) + (h / m) * vec_cast<double>(p.force[i]));
  p.angmom[i] = vec_cast<Real>(physics::torque_kick(quat_cast<double>(p.orientation[i]),
                                                    vec_cast<double>(p.angmom[i]), vec_cast<double>(p.inertia[i]),
                                                    vec_cast<double>(p.torque[i]), h));
}

// Particle i's position and rotation in double while a step works on them.
struct Pose {
  Vec3d r;
  Quatd q;
  Vec3d L;
};

template <class Real>
Pose load(const ParticleData<Real>& p, std::size_t i) {
  return {vec_cast<double>(p.position[i]), quat_cast<double>(p.orientation[i]), vec_cast<double>(p.angmom[i])};
}

// Wraps r into the box and stores the pose.
template <class Real>
void store(ParticleData<Real>& p, std::size_t i, const Box& box, Pose s) {
  box.wrap(s.r, p.image[i]);
  p.position[i] = vec_cast<Real>(s.r);
  p.orientation[i] = quat_cast<Real>(s.q);
  p.angmom[i] = vec_cast<Real>(s.L);
}

// A: drift of r and the free rotor, both for time t.
template <class Real>
void drift(const CpuContext<Real>& c, std::size_t i, double t, Pose& s) {
  s.r += t * vec_cast<double>(c.p.velocity[i]);
  physics::free_rotation(s.q, s.L, vec_cast<double>(c.p.inertia[i]), t);
}

// Both methods close the step with the same B (the half kicks).
template <class Real>
class CpuAnisoMethod : public IntegrationMethodOp {
 public:
  explicit CpuAnisoMethod(CpuContext<Real>& c) : c_(c) {}
  void second_half(uint64_t) override {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < c_.p.n_local; ++i) kick(c_, i, 0.5 * c_.params.dt);
  }

 protected:
  CpuContext<Real>& c_;
};

template <class Real>
class CpuNveAniso final : public CpuAnisoMethod<Real> {
 public:
  using CpuAnisoMethod<Real>::CpuAnisoMethod;
  void first_half(uint64_t) override {
    CpuContext<Real>& c = this->c_;
    ParticleData<Real>& p = c.p;
    const double dt = c.params.dt;
    const Box box = c.sys.box;
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < p.n_local; ++i) {
      kick(c, i, 0.5 * dt);
      Pose s = load(p, i);
      drift(c, i, dt, s);
      store(p, i, box, s);
    }
  }
};

template <class Real>
class CpuLangevinAniso final : public CpuAnisoMethod<Real> {
 public:
  using CpuAnisoMethod<Real>::CpuAnisoMethod;
  void first_half(uint64_t step) override {
    CpuContext<Real>& c = this->c_;
    ParticleData<Real>& p = c.p;
    const RunParams& rp = c.params;
    const double dt = rp.dt;
    const Box box = c.sys.box;
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < p.n_local; ++i) {
      kick(c, i, 0.5 * dt);
      Pose s = load(p, i);
      drift(c, i, 0.5 * dt, s);
      // O: translation, then each body axis with inertia.
      const double m = c.sys.type_mass[p.type[i]];
      const auto [c1, c2] = physics::langevin_coeffs(rp.gamma, dt, m, rp.kT);
      p.velocity[i] = vec_cast<Real>(c1 * vec_cast<double>(p.velocity[i]) +
                                     c2 * physics::langevin_gaussian3(p.tag[i], step, rp.seed));
      const Vec3d I = vec_cast<double>(p.inertia[i]);
      const Vec3d xi = physics::langevin_gaussian3_rotation(p.tag[i], step, rp.seed);
      auto thermalize = [&](double inertia, double l, double noise) {
        if (!(inertia > 0.0)) return 0.0;
        const auto [d1, d2] = physics::langevin_coeffs(rp.gamma_r, dt, inertia, rp.kT);
        return d1 * l + inertia * d2 * noise;  // L = I omega: the noise of omega times I
      };
      s.L = {thermalize(I.x, s.L.x, xi.x), thermalize(I.y, s.L.y, xi.y), thermalize(I.z, s.L.z, xi.z)};
      drift(c, i, 0.5 * dt, s);
      store(p, i, box, s);
    }
  }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_nve_aniso(CpuContext<Real>& c) {
  return std::make_unique<CpuNveAniso<Real>>(c);
}
template <class Real>
std::unique_ptr<Operation> make_langevin_aniso(CpuContext<Real>& c) {
  return std::make_unique<CpuLangevinAniso<Real>>(c);
}

template std::unique_ptr<Operation> make_nve_aniso<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_nve_aniso<float>(CpuContext<float>&);
template std::unique_ptr<Operation> make_langevin_aniso<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_langevin_aniso<float>(CpuContext<float>&);

}  // namespace meso::reference
