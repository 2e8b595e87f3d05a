// Nose-Hoover integration kernels (see integrate_nose_hoover.cuh). The
// kinetic energy for the thermostat is reduced in a fixed order (block
// partials of 256, then one block: fixed_order_reduce.cuh), so runs are
// deterministic; the reference sums serially, so the two agree to round-off,
// not bitwise.
#include <cmath>

#include "md/integrate_nose_hoover.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/thermostats.hpp"
// After the headers above: the order of the __shared__ variables
// (record_max_displacement's, then last_block's) is that of their first
// definitions in the translation unit.
#include "core/fixed_order_reduce.cuh"

namespace meso::cuda {
namespace {

constexpr int kKeBlock = 256;

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
  block_tree_sum<kKeBlock>({i < p.n && !ctl->abort ? mv2_of(p, mass, i) : 0.0}, {sh});
  if (threadIdx.x == 0) partials[blockIdx.x] = sh[0];
}

// One block: ctl->nh.mv2 = sum m v^2 from the partials (the start of a run,
// before any second half has left it there). __ldcg, as in the last block
// of nh_second_kernel.
__global__ void store_mv2_kernel(const double* partials, uint32_t nblocks, StepControl* ctl) {
  __shared__ double sh[kKeBlock];
  sum_partials<kKeBlock, PartialsLoad::cache_global>(partials, nblocks, {sh});
  if (threadIdx.x == 0 && !ctl->abort) ctl->nh.mv2 = sh[0];
}

// dxi/dt from sum m v^2: the reference's physics::nose_hoover_rate.
__device__ __forceinline__ double nh_rate(double mv2, const ThermostatArgs& t) {
  return physics::nose_hoover_rate(mv2, t.dof, t.kT, t.tau);
}

// The second half-step's thermostat update from sum m v^2 (the last block
// of nh_second_kernel, or nh_finish_kernel once the sum is global).
__device__ __forceinline__ void nh_second_vars(double dt, const ThermostatArgs& t, double mv2, StepControl* ctl) {
  ctl->nh.eta = physics::nose_hoover_eta_half(ctl->nh.eta, dt, ctl->nh.xi);
  ctl->nh.xi = physics::nose_hoover_xi_half(ctl->nh.xi, dt, nh_rate(mv2, t));
}

// First half-step: xi += dt/2 rate(KE); eta += dt/2 xi; v = e^{-dt xi/2} v +
// dt/2 f/m; r += dt v; and the largest squared displacement since the last
// build into ctl->list.max_disp_bits (what displacement_kernel does, fused here
// because the new position is in registers). KE is that of the velocities
// the previous second half left, which it summed into ctl->nh.mv2: the same
// sum in the same order as recomputing it here. Every thread derives the new
// xi itself; the last block stores xi and eta once all blocks have read the
// old ones.
template <class S4>
__global__ void nh_first_kernel(ParticleView<S4> p, IntegrateArgs a, ThermostatArgs t,
                                StepControl* ctl, StepOpening open) {
  if (ctl->abort) return;  // every thread of every block: the counter stays untouched
  const double xi = physics::nose_hoover_xi_half(ctl->nh.xi, a.dt, nh_rate(ctl->nh.mv2, t));
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double d2 = 0.0;
  if (i < p.n) {
    const double scale = physics::nose_hoover_scale(a.dt, xi);
    const S4 r4 = p.pos[i];
    const double h = 0.5 * a.dt / a.type_mass[type_of(r4)];
    const Vec3d v = physics::nose_hoover_first_velocity(xyz(p.vel[i]), xyz(p.force[i]), scale, h);
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
  record_max_displacement(d2, &ctl->list);
  if (last_block(&ctl->nh.blocks_done) && threadIdx.x == 0) {
    ctl->nh.xi = xi;
    ctl->nh.eta = physics::nose_hoover_eta_half(ctl->nh.eta, a.dt, xi);
    // The displacements of every block are in: open the step here rather
    // than in a one-thread kernel of its own.
    if (open.enabled) open_step(ctl, open.args, open.handle, open.graph, open.prune_handle);
  }
}

// Second half-step: v = e^{-dt xi/2} (v + dt/2 f/m), then sum m v^2 (block
// partials, then the last block in a fixed order), eta += dt/2 xi,
// xi += dt/2 rate(KE); the sum stays in ctl->nh.mv2 for the next first half.
template <class S4>
__global__ void nh_second_kernel(ParticleView<S4> p, IntegrateArgs a, ThermostatArgs t,
                                 double* partials, StepControl* ctl, bool local) {
  __shared__ double sh[kKeBlock];
  if (ctl->abort) return;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double mv2 = 0.0;
  if (i < p.n) {
    const double scale = physics::nose_hoover_scale(a.dt, ctl->nh.xi);
    const double m = a.type_mass[type_of(p.pos[i])];
    const S4 stored =
        make4<S4>(physics::nose_hoover_second_velocity(xyz(p.vel[i]), xyz(p.force[i]), scale, 0.5 * a.dt / m), 0.0);
    p.vel[i] = stored;
    mv2 = m * dot(xyz(stored), xyz(stored));
  }
  block_tree_sum<kKeBlock>({mv2}, {sh});
  if (threadIdx.x == 0) partials[blockIdx.x] = sh[0];
  if (!last_block(&ctl->nh.blocks_done)) return;
  // __ldcg: the partials were written by other blocks of this kernel.
  sum_partials<kKeBlock, PartialsLoad::cache_global>(partials, gridDim.x, {sh});
  if (threadIdx.x == 0) {
    ctl->nh.mv2 = sh[0];
    if (local) return;  // this rank's share: nh_finish_kernel updates once the sum is global
    nh_second_vars(a.dt, t, sh[0], ctl);
  }
}

// On several ranks, once ctl->nh.mv2 holds the sum over ranks: the second
// half's thermostat update, as the last block of nh_second_kernel does it.
__global__ void nh_finish_kernel(double dt, ThermostatArgs t, StepControl* ctl) {
  if (ctl->abort) return;
  nh_second_vars(dt, t, ctl->nh.mv2, ctl);
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
                             double* ke, StepControl* ctl, bool local, cudaStream_t s) {
  nh_second_kernel<S4><<<ke_blocks(p.n), kKeBlock, 0, s>>>(p, a, t, ke, ctl, local);
  MESO_CUDA_CHECK(cudaGetLastError());
}

void nose_hoover_finish_second_half(double dt, const ThermostatArgs& t, StepControl* ctl, cudaStream_t s) {
  nh_finish_kernel<<<1, 1, 0, s>>>(dt, t, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                     \
  template void nose_hoover_store_mv2<S4>(ParticleView<S4>, const double*, double*, StepControl*, \
                                          cudaStream_t);                                        \
  template void nose_hoover_first_half<S4>(ParticleView<S4>, const IntegrateArgs&,             \
                                           const ThermostatArgs&, StepControl*,                 \
                                           const StepOpening&, cudaStream_t);                   \
  template void nose_hoover_second_half<S4>(ParticleView<S4>, const IntegrateArgs&,            \
                                            const ThermostatArgs&, double*, StepControl*, bool, \
                                            cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
