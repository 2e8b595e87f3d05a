// Leapfrog with Berendsen scaling (see integrate_berendsen.cuh).
#include "md/integrate_berendsen.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/rigid_body.hpp"
#include "meso/physics/thermostats.hpp"
#include "core/fixed_order_reduce.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kBlock = 256;

template <class S4>
__global__ void berendsen_partials_kernel(ParticleView<S4> p, RotationalView<S4> rot, IntegrateArgs a,
                                          bool rotation, double* partials, const StepControl* ctl) {
  __shared__ double mv2[kBlock], rot2[kBlock], dof[kBlock];
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = 0.0, y = 0.0, z = 0.0;
  if (i < p.n && !ctl->abort) {
    const Vec3d v = xyz(p.vel[i]);
    x = a.type_mass[type_of(p.pos[i])] * dot(v, v);
    if (rotation) {
      const Vec3d inertia = xyz(rot.inertia[i]);
      y = 2.0 * physics::rotational_kinetic_energy(xyz(rot.angmom[i]), inertia);
      z = physics::rotational_dof(inertia);
    }
  }
  block_tree_sum<kBlock>({x, y, z}, {mv2, rot2, dof});
  if (threadIdx.x == 0) {
    partials[3 * blockIdx.x] = mv2[0];
    partials[3 * blockIdx.x + 1] = rot2[0];
    partials[3 * blockIdx.x + 2] = dof[0];
  }
}

__global__ void berendsen_total_kernel(const double* partials, uint32_t nblocks, double* sums) {
  __shared__ double mv2[kBlock], rot2[kBlock], dof[kBlock];
  sum_partials<kBlock, PartialsLoad::plain>(partials, nblocks, {mv2, rot2, dof});
  if (threadIdx.x == 0) {
    sums[0] = mv2[0];
    sums[1] = rot2[0];
    sums[2] = dof[0];
  }
}

template <class S4>
__global__ void berendsen_kernel(ParticleView<S4> p, RotationalView<S4> rot, IntegrateArgs a, BerendsenArgs b,
                                 const double* sums, const StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  const double dt = a.dt;
  const double lt = physics::berendsen_scale(sums[0] / b.dof, b.kT, dt, b.tau);
  const S4 r4 = p.pos[i];
  const double m = a.type_mass[type_of(r4)];
  const Vec3d v = lt * (xyz(p.vel[i]) + (dt / m) * xyz(p.force[i]));
  Vec3d r = xyz(r4) + dt * v;
  Image img = p.image[i];
  a.box.wrap(r, img);
  p.pos[i] = make4<S4>(r, r4.w);
  p.image[i] = img;
  p.vel[i] = make4<S4>(v, 0.0);
  if (!b.rotation) return;
  const double lr = sums[2] > 0.0 ? physics::berendsen_scale(sums[1] / sums[2], b.kT, dt, b.tau_r) : 1.0;
  Quatd q = quat_of(rot.orient[i]);
  const Vec3d inertia = xyz(rot.inertia[i]);
  Vec3d L = lr * physics::torque_kick(q, xyz(rot.angmom[i]), inertia, xyz(rot.torque[i]), dt);
  physics::free_rotation(q, L, inertia, dt);
  rot.orient[i] = make_quat4<S4>(q);
  rot.angmom[i] = make4<S4>(L, 0.0);
}

}  // namespace

uint32_t berendsen_blocks(uint32_t n) { return n ? (n + kBlock - 1) / kBlock : 1; }

template <class S4>
void berendsen_sums(ParticleView<S4> p, RotationalView<S4> rot, const IntegrateArgs& a, const BerendsenArgs& b,
                    double* partials, double* sums, const StepControl* ctl, cudaStream_t s) {
  const uint32_t blocks = berendsen_blocks(p.n);
  berendsen_partials_kernel<S4><<<blocks, kBlock, 0, s>>>(p, rot, a, b.rotation, partials, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  berendsen_total_kernel<<<1, kBlock, 0, s>>>(partials, blocks, sums);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void berendsen_update(ParticleView<S4> p, RotationalView<S4> rot, const IntegrateArgs& a, const BerendsenArgs& b,
                      const double* sums, const StepControl* ctl, cudaStream_t s) {
  if (!p.n) return;
  berendsen_kernel<S4><<<(p.n + kBlock - 1) / kBlock, kBlock, 0, s>>>(p, rot, a, b, sums, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                                   \
  template void berendsen_sums<S4>(ParticleView<S4>, RotationalView<S4>, const IntegrateArgs&,               \
                                   const BerendsenArgs&, double*, double*, const StepControl*, cudaStream_t); \
  template void berendsen_update<S4>(ParticleView<S4>, RotationalView<S4>, const IntegrateArgs&,             \
                                     const BerendsenArgs&, const double*, const StepControl*, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
