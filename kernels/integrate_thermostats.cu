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

// Sum of a kKeBlock-thread block's values in a fixed tree order; the total
// is in sh[0] (every thread must call it).
__device__ __forceinline__ void block_sum(double t, double* sh) {
  sh[threadIdx.x] = t;
  __syncthreads();
  for (int s = kKeBlock / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
}

// The per-block partials summed in a fixed order by one kKeBlock-thread
// block (every thread must call it); the total is in sh[0]. __ldcg: the
// partials may have been written by other blocks of the same kernel.
__device__ __forceinline__ void sum_partials(const double* partials, uint32_t nblocks, double* sh) {
  double s = 0.0;
  for (uint32_t b = threadIdx.x; b < nblocks; b += blockDim.x) s += __ldcg(partials + b);
  block_sum(s, sh);
}

// True in the one block that finishes last (the CUDA threadFenceReduction
// pattern): every block's global writes before the call are visible to it.
// It resets the counter for the next kernel. Every thread must call it.
// One fence per block, by the thread that counts: the barrier orders the
// block's writes before it, and the fence is cumulative.
__device__ __forceinline__ bool last_block(unsigned int* counter) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) *counter = 0;
  return last;
}

template <class S4>
__device__ __forceinline__ double mv2_of(const ParticleView<S4>& p, const double* mass, uint32_t i) {
  const Vec3d v = xyz(p.vel[i]);
  return mass[type_of(p.pos[i])] * dot(v, v);
}

template <class S4>
__global__ void ke_partials_kernel(ParticleView<S4> p, const double* mass, double* partials,
                                   const StepControl* ctl) {
  __shared__ double sh[kKeBlock];
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  block_sum(i < p.n && !ctl->abort ? mv2_of(p, mass, i) : 0.0, sh);
  if (threadIdx.x == 0) partials[blockIdx.x] = sh[0];
}

// One block: ctl->nh_mv2 = sum m v^2 from the partials (the start of a run,
// before any second half has left it there).
__global__ void store_mv2_kernel(const double* partials, uint32_t nblocks, StepControl* ctl) {
  __shared__ double sh[kKeBlock];
  sum_partials(partials, nblocks, sh);
  if (threadIdx.x == 0 && !ctl->abort) ctl->nh_mv2 = sh[0];
}

__device__ __forceinline__ double nh_rate(double mv2, const ThermostatArgs& t) {
  const double kinetic = 0.5 * mv2;
  return (2.0 * kinetic / t.dof / t.kT - 1.0) / (t.tau * t.tau);
}

// First half-step: xi += dt/2 rate(KE); eta += dt/2 xi; v = e^{-dt xi/2} v +
// dt/2 f/m; r += dt v; and the largest squared displacement since the last
// build into ctl->max_disp_bits (what displacement_kernel does, fused here
// because the new position is in registers). KE is that of the velocities
// the previous second half left, which it summed into ctl->nh_mv2: the same
// sum in the same order as recomputing it here. Every thread derives the new
// xi itself; the last block stores xi and eta once all blocks have read the
// old ones.
template <class S4>
__global__ void nh_first_kernel(ParticleView<S4> p, IntegrateArgs a, ThermostatArgs t,
                                StepControl* ctl, StepOpening open) {
  if (ctl->abort) return;  // every thread of every block: the counter stays untouched
  const double xi = ctl->nh_xi + 0.5 * a.dt * nh_rate(ctl->nh_mv2, t);
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double d2 = 0.0;
  if (i < p.n) {
    const double scale = exp(-0.5 * a.dt * xi);
    const S4 r4 = p.pos[i];
    const double h = 0.5 * a.dt / a.type_mass[type_of(r4)];
    const Vec3d v = scale * xyz(p.vel[i]) + h * xyz(p.force[i]);
    Vec3d r = xyz(r4) + a.dt * v;
    Image img = p.image[i];
    a.box.wrap(r, img);
    const S4 stored = make4<S4>(r, r4.w);
    p.pos[i] = stored;
    p.image[i] = img;
    p.vel[i] = make4<S4>(v, 0.0);
    const Vec3d d = a.box.min_image(xyz(stored) - xyz(p.last_pos[i]));
    d2 = dot(d, d);
  }
  record_max_displacement(d2, ctl);
  if (last_block(&ctl->blocks_done) && threadIdx.x == 0) {
    ctl->nh_xi = xi;
    ctl->nh_eta += 0.5 * a.dt * xi;
    // The displacements of every block are in: open the step here rather
    // than in a one-thread kernel of its own.
    if (open.enabled) open_step(ctl, open.args, open.handle, open.graph);
  }
}

// Second half-step: v = e^{-dt xi/2} (v + dt/2 f/m), then sum m v^2 (block
// partials, then the last block in a fixed order), eta += dt/2 xi,
// xi += dt/2 rate(KE); the sum stays in ctl->nh_mv2 for the next first half.
template <class S4>
__global__ void nh_second_kernel(ParticleView<S4> p, IntegrateArgs a, ThermostatArgs t,
                                 double* partials, StepControl* ctl) {
  __shared__ double sh[kKeBlock];
  if (ctl->abort) return;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double mv2 = 0.0;
  if (i < p.n) {
    const double scale = exp(-0.5 * a.dt * ctl->nh_xi);
    const double m = a.type_mass[type_of(p.pos[i])];
    const Vec3d v = xyz(p.vel[i]) + (0.5 * a.dt / m) * xyz(p.force[i]);
    const S4 stored = make4<S4>(scale * v, 0.0);
    p.vel[i] = stored;
    mv2 = m * dot(xyz(stored), xyz(stored));
  }
  block_sum(mv2, sh);
  if (threadIdx.x == 0) partials[blockIdx.x] = sh[0];
  if (!last_block(&ctl->blocks_done)) return;
  sum_partials(partials, gridDim.x, sh);
  if (threadIdx.x == 0) {
    ctl->nh_eta += 0.5 * a.dt * ctl->nh_xi;
    ctl->nh_xi += 0.5 * a.dt * nh_rate(sh[0], t);
    ctl->nh_mv2 = sh[0];
  }
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
void nose_hoover_store_mv2(ParticleView<S4> p, const double* mass, double* ke, StepControl* ctl,
                           cudaStream_t s) {
  const uint32_t nb = ke_blocks(p.n);
  ke_partials_kernel<S4><<<nb, kKeBlock, 0, s>>>(p, mass, ke, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  store_mv2_kernel<<<1, kKeBlock, 0, s>>>(ke, nb, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void nose_hoover_first_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                            StepControl* ctl, const StepOpening& open, cudaStream_t s) {
  nh_first_kernel<S4><<<ke_blocks(p.n), kKeBlock, 0, s>>>(p, a, t, ctl, open);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void nose_hoover_second_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                             double* ke, StepControl* ctl, cudaStream_t s) {
  nh_second_kernel<S4><<<ke_blocks(p.n), kKeBlock, 0, s>>>(p, a, t, ke, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void langevin_first_half(ParticleView<S4> p, const IntegrateArgs& a, const ThermostatArgs& t,
                         const StepControl* ctl, cudaStream_t s) {
  langevin_first_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, a, t, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                     \
  template void nose_hoover_store_mv2<S4>(ParticleView<S4>, const double*, double*, StepControl*, \
                                          cudaStream_t);                                        \
  template void nose_hoover_first_half<S4>(ParticleView<S4>, const IntegrateArgs&,             \
                                           const ThermostatArgs&, StepControl*,                 \
                                           const StepOpening&, cudaStream_t);                   \
  template void nose_hoover_second_half<S4>(ParticleView<S4>, const IntegrateArgs&,            \
                                            const ThermostatArgs&, double*, StepControl*,       \
                                            cudaStream_t);                                      \
  template void langevin_first_half<S4>(ParticleView<S4>, const IntegrateArgs&,                \
                                        const ThermostatArgs&, const StepControl*, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
