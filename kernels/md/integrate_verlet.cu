// Velocity Verlet and Groot-Warren integration on the GPU, mirroring
// reference/src/md/integrate_verlet.cpp term by term (arithmetic in fp64 for
// every precision; storage as the precision policy says). Wrapping uses the shared Box::wrap, so image counters
// agree with the reference.
#include "md/integrate_verlet.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/lees_edwards.hpp"
#include "meso/physics/pair_noise.hpp"
#include "meso/physics/tea.hpp"
// After the headers above: the order of the __shared__ variables
// (record_max_displacement's, then last_block's), as in integrate_nose_hoover.cu.
#include "core/fixed_order_reduce.cuh"

namespace meso::cuda {
namespace {

template <class S4>
__device__ __forceinline__ void write_signature(ParticleView<S4> p, uint32_t i, const Vec3d& v,
                                                uint32_t whitening) {
  p.signature[i] = physics::tea_signature_whitened(p.tag[i], float(v.x), float(v.y), float(v.z),
                                                   whitening);
}

template <class S4>
__device__ __forceinline__ void first_half_particle(ParticleView<S4> p, const IntegrateArgs& a,
                                                    FirstHalfMode mode, uint64_t step, uint32_t i,
                                                    double& d2) {
  const S4 r4 = p.pos[i];
  const uint32_t t = type_of(r4);
  const double m = a.type_mass[t];
  const double h = 0.5 * a.dt / m;
  const Vec3d f = xyz(p.force[i]);
  Vec3d v = xyz(p.vel[i]) + h * f;
  Vec3d r = xyz(r4);
  if (a.wall.active())
    physics::slit_stream(r, v, Vec3d{0.0, 0.0, 0.0}, a.dt, a.wall);  // reflected at a wall it crosses
  else
    r += a.dt * v;
  Image img = p.image[i];
  // Lees-Edwards: through a z face with x and v_x carried, at the offset of
  // the drift's end, t = step dt, as the reference; v(t + dt/2) shifted is
  // what this step's dissipative forces (and the gw prediction) read.
  if (a.shear_rate != 0.0)
    img.z += physics::le_wrap(r, v, a.box.lengths(),
                              physics::lees_edwards_at(a.shear_rate, a.box.lengths(), double(step) * a.dt));
  a.box.wrap(r, img);
  const S4 stored = make4<S4>(r, r4.w);
  p.pos[i] = stored;
  p.image[i] = img;
  const Vec3d d = a.box.min_image(xyz(stored) - xyz(p.last_pos[i]));
  d2 = dot(d, d);
  Vec3d vf = v;  // the velocity the forces of this step see
  if (mode == FirstHalfMode::vv_fused) {
    p.vel_pred[i] = make4<S4>(v, 0.0);
  } else {
    p.vel[i] = make4<S4>(v, 0.0);
    if (mode == FirstHalfMode::gw) {
      // Rounded through storage first, as the reference does.
      vf = xyz(make4<S4>(v, 0.0)) + ((a.lambda - 0.5) * a.dt / m) * f;
      p.vel_pred[i] = make4<S4>(vf, 0.0);
    }
  }
  if (a.tea) write_signature(p, i, xyz(make4<S4>(vf, 0.0)), a.seed_whitening);
}

// The first half-step (see integrate_first_half), then the largest squared
// displacement since the last build from the position as stored (what
// displacement_kernel computes from it) and, in the last block, the opening
// of the step.
template <class S4>
__global__ void first_half_kernel(ParticleView<S4> p, IntegrateArgs a, FirstHalfMode mode,
                                  StepControl* ctl, StepOpening open) {
  if (ctl->abort) return;  // every thread of every block: the counter stays untouched
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double d2 = 0.0;
  // Under shear, the step this half-step advances (open_step counts it
  // after every block's read).
  const uint64_t step = a.shear_rate != 0.0 ? ctl->step + 1 : 0;
  if (i < p.n) first_half_particle(p, a, mode, step, i, d2);
  record_max_displacement(d2, &ctl->list);
  if (last_block(&ctl->nh.blocks_done) && threadIdx.x == 0 && open.enabled)
    open_step(ctl, open.args, open.handle, open.graph, open.prune_handle);
}

template <class S4>
__global__ void second_half_kernel(ParticleView<S4> p, IntegrateArgs a, const StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n || ctl->abort) return;
  const double h = 0.5 * a.dt / a.type_mass[type_of(p.pos[i])];
  p.vel[i] = make4<S4>(xyz(p.vel[i]) + h * xyz(p.force[i]), 0.0);
}

template <class S4>
__global__ void signature_kernel(ParticleView<S4> p, bool predicted, uint32_t whitening) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  write_signature(p, i, xyz(predicted ? p.vel_pred[i] : p.vel[i]), whitening);
}

}  // namespace

template <class S4>
void integrate_first_half(ParticleView<S4> p, const IntegrateArgs& a, FirstHalfMode mode,
                          StepControl* ctl, const StepOpening& open, cudaStream_t s) {
  first_half_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, a, mode, ctl, open);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void integrate_second_half(ParticleView<S4> p, const IntegrateArgs& a, const StepControl* ctl,
                           cudaStream_t s) {
  second_half_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, a, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void tea_signatures(ParticleView<S4> p, bool predicted, uint32_t whitening, cudaStream_t s) {
  signature_kernel<S4><<<(p.n + 255) / 256, 256, 0, s>>>(p, predicted, whitening);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                      \
  template void integrate_first_half<S4>(ParticleView<S4>, const IntegrateArgs&, FirstHalfMode,  \
                                         StepControl*, const StepOpening&, cudaStream_t);         \
  template void integrate_second_half<S4>(ParticleView<S4>, const IntegrateArgs&,                \
                                          const StepControl*, cudaStream_t);                      \
  template void tea_signatures<S4>(ParticleView<S4>, bool, uint32_t, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
