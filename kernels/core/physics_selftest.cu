// One kernel thread per input pair runs the same engine/include/meso/physics/ functions
// the reference backend runs on the host. The host twin below is compiled by
// nvcc's host compiler from the same source, so any device/host divergence
// (intrinsics, FMA contraction, 64-bit multiply-high) shows up in the tests.
#include <cmath>

#include "meso/cuda/check.hpp"
#include "meso/cuda/physics_selftest.hpp"
#include "meso/physics/pair_noise.hpp"
#include "meso/physics/philox.hpp"
#include "meso/physics/tea.hpp"

namespace meso::cuda {
namespace {

__host__ __device__ PairOutput evaluate(const PairInput& in, const physics::DpdPairParams& p,
                                        double inv_sqrt_dt) {
  PairOutput out;
  const auto c = physics::philox4x32_10(
      {{in.tag_i, in.tag_j, static_cast<uint32_t>(in.step), static_cast<uint32_t>(in.step >> 32)}},
      {{in.seed, 0u}});
  for (int k = 0; k < 4; ++k) out.philox[k] = c.v[k];
  out.xi_philox = physics::pair_gaussian_philox(in.tag_i, in.tag_j, in.step, in.seed);
  const uint32_t sig_i = physics::tea_signature(in.tag_i, in.vi[0], in.vi[1], in.vi[2], in.seed);
  const uint32_t sig_j = physics::tea_signature(in.tag_j, in.vj[0], in.vj[1], in.vj[2], in.seed);
  out.xi_tea = physics::pair_gaussian_tea(in.tag_i, sig_i, in.tag_j, sig_j, in.step, in.seed);
  const auto f = physics::dpd_pair_force(in.rsq, in.rdotv, out.xi_philox, inv_sqrt_dt, p);
  out.f_over_r = f.f_over_r;
  out.energy = f.energy;
  return out;
}

__global__ void evaluate_kernel(const PairInput* in, PairOutput* out, int n,
                                physics::DpdPairParams p, double inv_sqrt_dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = evaluate(in[i], p, inv_sqrt_dt);
}

}  // namespace

std::vector<PairOutput> evaluate_pairs_on_device(const std::vector<PairInput>& in,
                                                 const physics::DpdPairParams& p, double dt) {
  const int n = static_cast<int>(in.size());
  std::vector<PairOutput> out(in.size());
  PairInput* d_in = nullptr;
  PairOutput* d_out = nullptr;
  MESO_CUDA_CHECK(cudaMalloc(&d_in, sizeof(PairInput) * in.size()));
  MESO_CUDA_CHECK(cudaMalloc(&d_out, sizeof(PairOutput) * in.size()));
  // Poison the output so an unwritten element cannot pass as a result.
  MESO_CUDA_CHECK(cudaMemset(d_out, 0xff, sizeof(PairOutput) * in.size()));
  MESO_CUDA_CHECK(cudaMemcpy(d_in, in.data(), sizeof(PairInput) * in.size(), cudaMemcpyHostToDevice));
  const int block = 128;
  evaluate_kernel<<<(n + block - 1) / block, block>>>(d_in, d_out, n, p, 1.0 / std::sqrt(dt));
  MESO_CUDA_CHECK_LAUNCH();
  MESO_CUDA_CHECK(cudaMemcpy(out.data(), d_out, sizeof(PairOutput) * in.size(), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaFree(d_in));
  MESO_CUDA_CHECK(cudaFree(d_out));
  return out;
}

std::vector<PairOutput> evaluate_pairs_on_host(const std::vector<PairInput>& in,
                                               const physics::DpdPairParams& p, double dt) {
  std::vector<PairOutput> out;
  out.reserve(in.size());
  for (const auto& x : in) out.push_back(evaluate(x, p, 1.0 / std::sqrt(dt)));
  return out;
}

}  // namespace meso::cuda
