// Integration kernels of orientational particles (see integrate_aniso.cuh).
#include "md/integrate_aniso.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/langevin_noise.hpp"
#include "meso/physics/rigid_body.hpp"
#include "meso/physics/thermostats.hpp"

namespace meso::cuda {
namespace {

constexpr uint32_t kBlock = 256;

template <class S4>
__global__ void aniso_first_kernel(ParticleView<S4> p, RotationalView<S4> rot, IntegrateArgs a, AnisoMethod method,
                                   ThermostatArgs t, double gamma_r, const StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  const S4 r4 = p.pos[i];
  const double m = a.type_mass[type_of(r4)], dt = a.dt, h = 0.5 * dt;
  // B: the half kicks.
  Vec3d v = xyz(p.vel[i]) + (h / m) * xyz(p.force[i]);
  Quatd q = quat_of(rot.orient[i]);
  const Vec3d inertia = xyz(rot.inertia[i]);
  Vec3d L = physics::torque_kick(q, xyz(rot.angmom[i]), inertia, xyz(rot.torque[i]), h);
  Vec3d r = xyz(r4);
  if (method == AnisoMethod::nve) {
    r += dt * v;
    physics::free_rotation(q, L, inertia, dt);
  } else {
    r += h * v;
    physics::free_rotation(q, L, inertia, h);
    // O: translation, then each body axis with inertia (L = I omega: the
    // noise of omega times I).
    const uint64_t step = ctl->step + 1;  // step_control runs after this kernel
    const uint32_t tag = p.tag[i];
    const physics::LangevinCoeffs c = physics::langevin_coeffs(t.gamma, dt, m, t.kT);
    v = c.c1 * v + c.c2 * physics::langevin_gaussian3(tag, step, t.seed);
    const Vec3d xi = physics::langevin_gaussian3_rotation(tag, step, t.seed);
    const auto thermalize = [&](double I, double l, double noise) {
      if (!(I > 0.0)) return 0.0;
      const physics::LangevinCoeffs d = physics::langevin_coeffs(gamma_r, dt, I, t.kT);
      return d.c1 * l + I * d.c2 * noise;
    };
    L = {thermalize(inertia.x, L.x, xi.x), thermalize(inertia.y, L.y, xi.y), thermalize(inertia.z, L.z, xi.z)};
    r += h * v;
    physics::free_rotation(q, L, inertia, h);
  }
  Image img = p.image[i];
  a.box.wrap(r, img);
  p.pos[i] = make4<S4>(r, r4.w);
  p.image[i] = img;
  p.vel[i] = make4<S4>(v, 0.0);
  rot.orient[i] = make_quat4<S4>(q);
  rot.angmom[i] = make4<S4>(L, 0.0);
}

template <class S4>
__global__ void aniso_second_kernel(ParticleView<S4> p, RotationalView<S4> rot, IntegrateArgs a,
                                    const StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  const double m = a.type_mass[type_of(p.pos[i])], h = 0.5 * a.dt;
  p.vel[i] = make4<S4>(xyz(p.vel[i]) + (h / m) * xyz(p.force[i]), 0.0);
  const Vec3d L = physics::torque_kick(quat_of(rot.orient[i]), xyz(rot.angmom[i]), xyz(rot.inertia[i]),
                                       xyz(rot.torque[i]), h);
  rot.angmom[i] = make4<S4>(L, 0.0);
}

}  // namespace

template <class S4>
void aniso_first_half(ParticleView<S4> p, RotationalView<S4> rot, const IntegrateArgs& a, AnisoMethod method,
                      const ThermostatArgs& t, double gamma_r, const StepControl* ctl, cudaStream_t s) {
  if (!p.n) return;
  aniso_first_kernel<S4><<<(p.n + kBlock - 1) / kBlock, kBlock, 0, s>>>(p, rot, a, method, t, gamma_r, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void aniso_second_half(ParticleView<S4> p, RotationalView<S4> rot, const IntegrateArgs& a, const StepControl* ctl,
                       cudaStream_t s) {
  if (!p.n) return;
  aniso_second_kernel<S4><<<(p.n + kBlock - 1) / kBlock, kBlock, 0, s>>>(p, rot, a, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                                    \
  template void aniso_first_half<S4>(ParticleView<S4>, RotationalView<S4>, const IntegrateArgs&, AnisoMethod, \
                                     const ThermostatArgs&, double, const StepControl*, cudaStream_t);         \
  template void aniso_second_half<S4>(ParticleView<S4>, RotationalView<S4>, const IntegrateArgs&,              \
                                      const StepControl*, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
