// Nose-Hoover and Langevin integration kernels (see integrate_thermostats.cuh).
// The kinetic energy for the thermostat is reduced in a fixed order (block
// partials of 256, then one block), so runs are deterministic; the reference
// sums serially, so the two agree to round-off, not bitwise.
#include <cmath>

#include "integrate_thermostats.cuh"
#include "meso/cuda/check.hpp"
#include "physics/langevin_noise.hpp"

namespace meso::cuda {
namespace {

constexpr int kKeBlock = 256;

template <class S4>
__global__ void ke_partials_kernel(ParticleView<S4> p, const double* mass, double* partials,
                                   const StepControl* ctl) {
  __shared__ double sh[kKeBlock];
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double t = 0.0;
  if (i < p.n && !ctl->abort) {
    const Vec3d v = xyz(p.vel[i]);
    t = mass[type_of(p.pos[i])] * dot(v, v);
  }
  sh[threadIdx.x] = t;
  __syncthreads();
  for (int s = kKeBlock / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = sh[0];
}

// One block: KE = 1/2 sum m v^2 in a fixed order, then the thermostat update.
// first: xi += dt/2 rate; eta += dt/2 xi.  second: eta += dt/2 xi; xi += dt/2 rate.
__global__ void nh_update_kernel(const double* partials, uint32_t nblocks, ThermostatArgs t,
                                 double dt, bool first, StepControl* ctl) {
  __shared__ double sh[kKeBlock];
  double s = 0.0;
  for (uint32_t b = threadIdx.x; b < nblocks; b += blockDim.x) s += partials[b];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int k = kKeBlock / 2; k > 0; k >>= 1) {
    if (int(threadIdx.x) < k) sh[threadIdx.x] += sh[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x != 0 || ctl->abort) return;
  const double kinetic = 0.5 * sh[0];
  const double rate = (2.0 * kinetic / t.dof / t.kT - 1.0) / (t.tau * t.tau);
  if (first) {
    ctl->nh_xi += 0.5 * dt * rate;
    ctl->nh_eta += 0.5 * dt * ctl->nh_xi;
  } else {
    ctl->nh_eta += 0.5 * dt * ctl->nh_xi;
    ctl->nh_xi += 0.5 * dt * rate;
  }
}

template <class S4>
__global__ void nh_first_kernel(ParticleView<S4> p, IntegrateArgs a, const StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  const double scale = exp(-0.5 * a.dt * ctl->nh_xi);
  const S4 r4 = p.pos[i];
  const double h = 0.5 * a.dt / a.type_mass[type_of(r4)];
  const Vec3d v = scale * xyz(p.vel[i]) + h * xyz(p.force[i]);
  Vec3d r = xyz(r4) + a.dt * v;
  Image img = p.image[i];
  a.box.wrap(r, img);
  p.pos[i] = make4<S4>(r, r4.w);
  p.image[i] = img;
  p.vel[i] = make4<S4>(v, 0.0);
}

template <class S4>
__global__ void nh_second_kernel(ParticleView<S4> p, IntegrateArgs a, const StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  const double scale = exp(-0.5 * a.dt * ctl->nh_xi);
  const double h = 0.5 * a.dt / a.type_mass[type_of(p.pos[i])];
  const Vec3d v = xyz(p.vel[i]) + h * xyz(p.force[i]);
  p.vel[i] = make4<S4>(scale * v, 0.0);
}

template <class S4>
__global__ void langevin_first_kernel(ParticleView<S4> p, IntegrateArgs a, ThermostatArgs t,
                                      const StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  const uint64_t step = ctl->step + 1;  // step_control runs after this kernel
  const S4 r4 = p.pos[i];
  const double m = a.type_mass[type_of(r4)];
  const double c1 = exp(-t.gamma * a.dt / m);
  const double c2 = sqrt((1.0 - c1 * c1) * t.kT / m);
  Vec3d v = xyz(p.vel[i]) + (0.5 * a.dt / m) * xyz(p.force[i]);
  Vec3d r = xyz(r4) + (0.5 * a.dt) * v;
  v = c1 * v + c2 * physics::langevin_gaussian3(p.tag[i], step, t.seed);
  r += (0.5 * a.dt) * v;
  Image img = p.image[i];
  a.box.wrap(r, img);
  p.pos[i] = make4<S4>(r, r4.w);
  p.image[i] = img;
  p.vel[i] = make4<S4>(v, 0.0);
}

}  // namespace

uint32_t ke_blocks(uint32_t n) { return (n + kKeBlock - 1) / kKeBlock; }

template <class S4>
void nose_hoover_first_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                            double* ke, StepControl* ctl, cudaStream_t s) {
  const uint32_t nb = ke_blocks(p.n);
  ke_partials_kernel<S4><<<nb, kKeBlock, 0, s>>>(p, a.type_mass, ke, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  nh_update_kernel<<<1, kKeBlock, 0, s>>>(ke, nb, t, a.dt, true, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  nh_first_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, a, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void nose_hoover_second_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                             double* ke, StepControl* ctl, cudaStream_t s) {
  const uint32_t nb = ke_blocks(p.n);
  nh_second_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, a, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  ke_partials_kernel<S4><<<nb, kKeBlock, 0, s>>>(p, a.type_mass, ke, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  nh_update_kernel<<<1, kKeBlock, 0, s>>>(ke, nb, t, a.dt, false, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void langevin_first_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                         const StepControl* ctl, cudaStream_t s) {
  langevin_first_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, a, t, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                     \
  template void nose_hoover_first_half<S4>(ParticleView<S4>, const IntegrateArgs&,             \
                                           const ThermostatArgs&, double*, StepControl*,        \
                                           cudaStream_t);                                       \
  template void nose_hoover_second_half<S4>(ParticleView<S4>, const IntegrateArgs&,            \
                                            const ThermostatArgs&, double*, StepControl*,       \
                                            cudaStream_t);                                      \
  template void langevin_first_half<S4>(ParticleView<S4>, const IntegrateArgs&,                \
                                        const ThermostatArgs&, const StepControl*, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
