// GPU (label gpu): the shared physics headers compiled for the device agree
// with the host on fresh random inputs: Philox words and TEA-based noise bit
// for bit (integer arithmetic), the Gaussian noise and DPD force to within a
// few ulps (device libm log/cos/sqrt and FMA contraction may differ).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "meso/cuda/device_info.hpp"
#include "meso/cuda/physics_selftest.hpp"

namespace {

using namespace meso;

TEST(GpuPhysics, DeviceMatchesHost) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<cuda::PairInput> in(1 << 16);
  for (auto& x : in) {
    x.tag_i = static_cast<uint32_t>(gen());
    x.tag_j = static_cast<uint32_t>(gen());
    x.step = gen() >> 20;
    x.seed = static_cast<uint32_t>(gen());
    x.rsq = 1e-6 + u(gen) * (1.0 - 2e-6);
    x.rdotv = (u(gen) - 0.5) * 6.0;
    for (int k = 0; k < 3; ++k) {
      x.vi[k] = static_cast<float>(u(gen) * 4 - 2);
      x.vj[k] = static_cast<float>(u(gen) * 4 - 2);
    }
  }
  const physics::DpdPairParams p{25.0, 4.5, 3.0, 1.0, 0.5};
  const auto dev = cuda::evaluate_pairs_on_device(in, p, 0.005);
  const auto host = cuda::evaluate_pairs_on_host(in, p, 0.005);
  // Error measures. The noise is compared relative to 1 + |xi|. The force is a
  // sum of three terms that can cancel, so its error is measured against the
  // sum of the terms' magnitudes (what round-off is proportional to), with
  // the noise term widened by the noise's own allowed error.
  const double dt = 0.005, inv_sqrt_dt = 1.0 / std::sqrt(dt);
  double max_rel_f = 0.0, max_rel_xi = 0.0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    for (int k = 0; k < 4; ++k) ASSERT_EQ(dev[i].philox[k], host[i].philox[k]) << i;
    ASSERT_TRUE(std::isfinite(dev[i].f_over_r)) << i;
    max_rel_xi = std::max({max_rel_xi,
                           std::fabs(dev[i].xi_philox - host[i].xi_philox) / (1 + std::fabs(host[i].xi_philox)),
                           std::fabs(dev[i].xi_tea - host[i].xi_tea) / (1 + std::fabs(host[i].xi_tea))});
    const double r = std::sqrt(in[i].rsq);
    const double wc = 1.0 - r / p.rcut, wr = std::pow(wc, p.s);
    const double scale = (std::fabs(p.a * wc) + std::fabs(p.gamma * wr * wr * in[i].rdotv / r) +
                          p.sigma * wr * (1.0 + std::fabs(host[i].xi_philox)) * inv_sqrt_dt) / r;
    max_rel_f = std::max(max_rel_f, std::fabs(dev[i].f_over_r - host[i].f_over_r) / scale);
  }
  RecordProperty("max_rel_xi", std::to_string(max_rel_xi));
  RecordProperty("max_rel_force", std::to_string(max_rel_f));
  std::printf("max relative difference device vs host: xi %.3g, force %.3g (of term magnitudes)\n",
              max_rel_xi, max_rel_f);
  // CUDA's double log, sincospi, sqrt and pow are within 1-2 ulp of glibc's;
  // Box-Muller and the force take ~15 dependent operations on them, so the
  // difference is bounded by ~30 ulp = 3.3e-15 of the largest magnitude
  // involved. 1e-14 allows that with a factor 3 for FMA contraction.
  EXPECT_LT(max_rel_xi, 1e-14);
  EXPECT_LT(max_rel_f, 1e-14);
}

TEST(GpuPhysics, DeviceDescribed) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const auto info = cuda::describe_device();
  EXPECT_FALSE(info.name.empty());
  EXPECT_GT(info.memory_gib, 1.0);
}

}  // namespace
