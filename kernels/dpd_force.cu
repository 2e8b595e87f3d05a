// DPD forces on the GPU (Tang & Karniadakis, CPC 2014, sec. 3.5; HOOMD-blue
// PotentialPairDPDThermoGPU): one thread per particle over a full,
// column-major neighbor list. Every pair is evaluated from both sides; the
// noise is a pure function of (tags, step, seed) and minimum image is exactly
// antisymmetric, so F_ji = -F_ij bit for bit without atomics, and the result
// does not depend on the order of particles or of list entries beyond the
// order of the accumulation (which the ballot list fixes).
#include "dpd_force.cuh"
#include "meso/cuda/check.hpp"
#include "physics/pair_noise.hpp"
#include "physics/tea.hpp"
#include "physics/fast_math.hpp"

namespace meso::cuda {
namespace {

template <class P, class Pow, class BoxMuller, bool TEA, bool SUMS, bool FUSE, bool PRED>
__global__ void __launch_bounds__(kForceBlock, 8) dpd_force_kernel(DpdForceArgs<typename P::S4> a) {
  using S4 = typename P::S4;
  using A = typename P::A;
  // One thread per particle. Four threads sharing a list with a shuffle
  // reduction (HOOMD-blue's threads-per-particle) was measured on the H200
  // (N = 1M, mixed): faster with morton2 ordering (580 -> 503 us), slower with
  // pow=fast,rng=tea,fuse=on (498 -> 567 us), whole-step TPS 2-3% lower in both.
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const StepControl* ctl = a.ctl;
  const bool active = i < a.p.n && !ctl->abort;
  A fx = 0, fy = 0, fz = 0;
  double e = 0.0, w = 0.0;
  S4 pi{};
  uint32_t ti = 0;
  if (active) {
    const MinImage<A> box(a.box);
    const uint64_t step = ctl->step;
    physics::TeaPairKey key{};
    if constexpr (TEA) key = {{ctl->tea_key[0], ctl->tea_key[1], ctl->tea_key[2], ctl->tea_key[3]}};
    const S4* __restrict__ pos = a.p.pos;
    const S4* __restrict__ vel = PRED ? a.p.vel_pred : a.p.vel;
    pi = ldg4(pos + i);
    const S4 vi = ldg4(vel + i);
    ti = type_of(pi);
    const uint32_t tag_i = __ldg(a.p.tag + i);
    const uint32_t sig_i = TEA ? __ldg(a.p.signature + i) : 0u;
    const physics::DpdPairParams* row = a.params + ti * a.ntypes;
    const A inv_sqrt_dt = A(a.inv_sqrt_dt);
    // A row longer than cap only exists after an overflow, when this kernel
    // does not run (abort); the clamp keeps a stale count from reading past it.
    const uint32_t cnt = min(a.nl.count[i], a.nl.cap);
    const uint32_t* __restrict__ idx = a.nl.idx + a.nl.at(i, 0);
    for (uint32_t k = 0; k < cnt; ++k) {
      const uint32_t j = __ldg(idx + size_t(k) * a.nl.slot_stride);
      const S4 pj = ldg4(pos + j);
      A dx = A(pi.x) - A(pj.x), dy = A(pi.y) - A(pj.y), dz = A(pi.z) - A(pj.z);
      box.apply(dx, dy, dz);
      const A rsq = dx * dx + dy * dy + dz * dz;
      const physics::DpdPairParams& pp = row[type_of(pj)];
      const A rc = A(pp.rcut);
      if (rsq >= rc * rc || rsq == A(0)) continue;
      const S4 vj = ldg4(vel + j);
      const A rdotv = dx * (A(vi.x) - A(vj.x)) + dy * (A(vi.y) - A(vj.y)) + dz * (A(vi.z) - A(vj.z));
      const uint32_t tag_j = __ldg(a.p.tag + j);
      double xi;
      if constexpr (TEA)
        xi = physics::pair_gaussian_tea(tag_i, sig_i, tag_j, __ldg(a.p.signature + j), key,
                                        BoxMuller{});
      else
        xi = physics::pair_gaussian_philox(tag_i, tag_j, step, a.seed, BoxMuller{});
      const auto pf = physics::dpd_pair_force<A>(rsq, rdotv, A(xi), inv_sqrt_dt, pp, Pow{});
      fx += pf.f_over_r * dx;
      fy += pf.f_over_r * dy;
      fz += pf.f_over_r * dz;
      if constexpr (SUMS) {
        e += 0.5 * double(pf.energy);  // each pair is visited from both sides
        w += 0.5 * double(pf.f_over_r) * double(rsq);
      }
    }
  }
  if (active)
    finish_particle<FUSE>(a.p, i, Vec3d{double(fx), double(fy), double(fz)}, pi, ti, a.body,
                          a.type_mass, a.dt, a.fuse_base_pred);
  if constexpr (SUMS) block_partials(e, w, a.partials);
}

__global__ void reduce_partials_kernel(const double* __restrict__ partials, uint32_t nblocks,
                                       double* out) {
  __shared__ double se[256], sw[256];
  double e = 0.0, w = 0.0;
  for (uint32_t b = threadIdx.x; b < nblocks; b += blockDim.x) {
    e += partials[2 * b];
    w += partials[2 * b + 1];
  }
  se[threadIdx.x] = e;
  sw[threadIdx.x] = w;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) {
      se[threadIdx.x] += se[threadIdx.x + s];
      sw[threadIdx.x] += sw[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    out[0] = se[0];
    out[1] = sw[0];
  }
}

template <class P, class Pow, class BM, bool TEA, bool SUMS, bool FUSE>
void launch3(const DpdForceArgs<typename P::S4>& a, bool pred, cudaStream_t s) {
  const uint32_t blocks = (a.p.n + kForceBlock - 1) / kForceBlock;
  if (pred)
    dpd_force_kernel<P, Pow, BM, TEA, SUMS, FUSE, true><<<blocks, kForceBlock, 0, s>>>(a);
  else
    dpd_force_kernel<P, Pow, BM, TEA, SUMS, FUSE, false><<<blocks, kForceBlock, 0, s>>>(a);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class P, class Pow, class BM, bool TEA>
void launch2(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c, cudaStream_t s) {
  if (c.sums) {
    if (c.fuse) launch3<P, Pow, BM, TEA, true, true>(a, c.predicted, s);
    else launch3<P, Pow, BM, TEA, true, false>(a, c.predicted, s);
  } else {
    if (c.fuse) launch3<P, Pow, BM, TEA, false, true>(a, c.predicted, s);
    else launch3<P, Pow, BM, TEA, false, false>(a, c.predicted, s);
  }
}

template <class P, class Pow, class BM>
void launch1(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c, cudaStream_t s) {
  if (c.tea) launch2<P, Pow, BM, true>(a, c, s);
  else launch2<P, Pow, BM, false>(a, c, s);
}

}  // namespace

template <class P>
void compute_dpd_forces(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& c,
                        cudaStream_t s) {
  if (c.fast_math) {
    launch1<P, physics::FastPow, physics::FastBoxMuller>(a, c, s);
  } else {
    launch1<P, physics::LibmPow, physics::LibmBoxMuller>(a, c, s);
  }
}

void reduce_partials(const double* partials, uint32_t nblocks, double* out, cudaStream_t s) {
  reduce_partials_kernel<<<1, 256, 0, s>>>(partials, nblocks, out);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_dpd_forces<PrecDouble>(const DpdForceArgs<Double4>&, const DpdForceConfig&,
                                             cudaStream_t);
template void compute_dpd_forces<PrecMixed>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                            cudaStream_t);
template void compute_dpd_forces<PrecSingle>(const DpdForceArgs<float4>&, const DpdForceConfig&,
                                             cudaStream_t);

}  // namespace meso::cuda
