#include "md/dpd_wall_force.cuh"

#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

template <class S4>
__global__ void dpd_wall_force_kernel(ParticleView<S4> p, physics::DpdWall w, bool predicted, double inv_sqrt_dt,
                                      uint32_t seed, const StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  const Vec3d r = xyz(p.pos[i]);
  const Vec3d v = xyz(predicted ? p.vel_pred[i] : p.vel[i]);
  const Vec3d xi = physics::dpd_wall_noise(p.tag[i], ctl->step, seed);
  p.force[i] = make4<S4>(xyz(p.force[i]) + physics::dpd_wall_force(w, r, v, xi, inv_sqrt_dt), 0.0);
}

}  // namespace

template <class S4>
void add_dpd_wall_force(ParticleView<S4> p, const physics::DpdWall& w, bool predicted, double inv_sqrt_dt,
                        uint32_t seed, const StepControl* ctl, cudaStream_t s) {
  if (p.n == 0) return;
  dpd_wall_force_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, w, predicted, inv_sqrt_dt, seed, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void add_dpd_wall_force<Double4>(ParticleView<Double4>, const physics::DpdWall&, bool, double, uint32_t,
                                          const StepControl*, cudaStream_t);
template void add_dpd_wall_force<float4>(ParticleView<float4>, const physics::DpdWall&, bool, double, uint32_t,
                                         const StepControl*, cudaStream_t);

}  // namespace meso::cuda
