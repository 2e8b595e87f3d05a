// BAOAB Langevin integration kernel (see integrate_langevin.cuh).
#include <cmath>

#include "md/integrate_langevin.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/langevin_noise.hpp"
#include "meso/physics/thermostats.hpp"

namespace meso::cuda {
namespace {

template <class S4>
__global__ void langevin_first_kernel(ParticleView<S4> p, IntegrateArgs a, ThermostatArgs t,
                                      const StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  const uint64_t step = ctl->step + 1;  // step_control runs after this kernel
  const S4 r4 = p.pos[i];
  const double m = a.type_mass[type_of(r4)];
  const physics::LangevinCoeffs c = physics::langevin_coeffs(t.gamma, a.dt, m, t.kT);
  Vec3d v = xyz(p.vel[i]) + (0.5 * a.dt / m) * xyz(p.force[i]);
  Vec3d r = xyz(r4) + (0.5 * a.dt) * v;
  v = c.c1 * v + c.c2 * physics::langevin_gaussian3(p.tag[i], step, t.seed);
  r += (0.5 * a.dt) * v;
  Image img = p.image[i];
  a.box.wrap(r, img);
  p.pos[i] = make4<S4>(r, r4.w);
  p.image[i] = img;
  p.vel[i] = make4<S4>(v, 0.0);
}

}  // namespace

template <class S4>
void langevin_first_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                         const StepControl* ctl, cudaStream_t s) {
  langevin_first_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, a, t, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void langevin_first_half<Double4>(ParticleView<Double4>, const IntegrateArgs&,
                                           const ThermostatArgs&, const StepControl*,
                                           cudaStream_t);
template void langevin_first_half<float4>(ParticleView<float4>, const IntegrateArgs&,
                                          const ThermostatArgs&, const StepControl*, cudaStream_t);

}  // namespace meso::cuda
