// Lennard-Jones forces on the GPU. Same traversal and the same determinism
// argument as dpd_force.cu: each pair evaluated from both sides from a full
// list, F_ji = -F_ij bit for bit, no atomics; energy and virial by fixed-order
// block partials (reduced by reduce_partials in dpd_force.cu).
#include "dpd_force.cuh"
#include "lj_force.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

template <class P, bool SUMS, bool FUSE>
__global__ void __launch_bounds__(kForceBlock) lj_force_kernel(LjForceArgs<typename P::S4> a) {
  using S4 = typename P::S4;
  using A = typename P::A;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = i < a.p.n && !a.ctl->abort;
  double e = 0.0, w = 0.0;
  if (active) {
    const MinImage<A> box(a.box);
    const S4* __restrict__ pos = a.p.pos;
    const S4 pi = ldg4(pos + i);
    const uint32_t ti = type_of(pi);
    const physics::LjPairParams* row = a.params + ti * a.ntypes;
    const uint32_t cnt = min(a.nl.count[i], a.nl.cap);
    const uint32_t* __restrict__ idx = a.nl.idx + i;
    A fx = 0, fy = 0, fz = 0;
    for (uint32_t k = 0; k < cnt; ++k) {
      const uint32_t j = __ldg(idx + size_t(k) * a.nl.stride);
      const S4 pj = ldg4(pos + j);
      A dx = A(pi.x) - A(pj.x), dy = A(pi.y) - A(pj.y), dz = A(pi.z) - A(pj.z);
      box.apply(dx, dy, dz);
      const A rsq = dx * dx + dy * dy + dz * dz;
      // The evaluator returns exact zeros at and beyond r_cut.
      const auto pf = physics::lj_pair_force<A>(rsq, row[type_of(pj)]);
      fx += pf.f_over_r * dx;
      fy += pf.f_over_r * dy;
      fz += pf.f_over_r * dz;
      if constexpr (SUMS) {
        e += 0.5 * double(pf.energy);  // each pair is visited from both sides
        w += 0.5 * double(pf.virial);
      }
    }
    finish_particle<FUSE>(a.p, i, Vec3d{double(fx), double(fy), double(fz)}, pi, ti, a.body,
                          a.type_mass, a.dt, a.fuse_base_pred);
  }
  if constexpr (SUMS) block_partials(e, w, a.partials);
}

}  // namespace

template <class P>
void compute_lj_forces(const LjForceArgs<typename P::S4>& a, bool sums, cudaStream_t s) {
  const uint32_t blocks = (a.p.n + kForceBlock - 1) / kForceBlock;
  if (sums) {
    if (a.fuse) lj_force_kernel<P, true, true><<<blocks, kForceBlock, 0, s>>>(a);
    else lj_force_kernel<P, true, false><<<blocks, kForceBlock, 0, s>>>(a);
  } else {
    if (a.fuse) lj_force_kernel<P, false, true><<<blocks, kForceBlock, 0, s>>>(a);
    else lj_force_kernel<P, false, false><<<blocks, kForceBlock, 0, s>>>(a);
  }
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_lj_forces<PrecDouble>(const LjForceArgs<Double4>&, bool, cudaStream_t);
template void compute_lj_forces<PrecMixed>(const LjForceArgs<float4>&, bool, cudaStream_t);
template void compute_lj_forces<PrecSingle>(const LjForceArgs<float4>&, bool, cudaStream_t);

}  // namespace meso::cuda
