// GPU (label gpu): fast_math.hpp compiled by nvcc for the device. Over the
// same ranges and bounds as the host test, (1) the device results equal the
// host results bit for bit (the header uses only explicit fma and
// non-contractible products, see its comment), hence (2) the device max ULP
// is the host's and within the published bounds. CUDA's own pow / log / cospi
// are measured beside them for Table 3 and checked against the bounds of the
// CUDA Programming Guide (pow 2, log 1, cospi 2 ULP).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "meso/cuda/device_info.hpp"
#include "meso/cuda/fast_math_probe.hpp"
#include "physics/fast_math.hpp"
#include "physics/fast_math_check.hpp"

namespace {

using namespace meso;
namespace fmc = meso::physics::fast_math_check;
using cuda::FastMathFn;

constexpr std::size_t kSamples = std::size_t{1} << 20;

uint64_t fresh_seed() { return (uint64_t{std::random_device{}()} << 32) | std::random_device{}(); }

// Index of the first element where a and b differ in bits, or -1.
long first_bit_difference(const std::vector<double>& a, const std::vector<double>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (physics::fast_math_detail::bits_of(a[i]) != physics::fast_math_detail::bits_of(b[i]))
      return static_cast<long>(i);
  return -1;
}

TEST(GpuFastMath, PowMatchesHostBitwiseAndMeetsBounds) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const auto& r : fmc::kPowRanges) {
    const auto in = fmc::sample_pow(r, kSamples, seed);
    const auto dev = cuda::evaluate_fast_math_on_device(FastMathFn::fast_pow, in.a, in.b);
    const auto lib = cuda::evaluate_fast_math_on_device(FastMathFn::pow, in.a, in.b);
    std::vector<double> host(in.a.size());
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = physics::fast_pow(in.a[i], in.b[i]);
    const long diff = first_bit_difference(dev, host);
    EXPECT_EQ(diff, -1) << r.name << ": a=" << (diff >= 0 ? in.a[diff] : 0.0)
                        << " b=" << (diff >= 0 ? in.b[diff] : 0.0);
    const auto ref = [&](std::size_t i) { return fmc::pow_ref(in.a[i], in.b[i]); };
    const auto st = fmc::measure(dev, ref);
    const auto st_lib = fmc::measure(lib, ref);
    std::printf("device %-8s fastpow max %.3f ULP (published %g), CUDA pow max %.3f ULP\n", r.name,
                st.max_ulp, r.published_max_ulp, st_lib.max_ulp);
    RecordProperty(std::string("device_max_ulp_fastpow_") + r.name, std::to_string(st.max_ulp));
    RecordProperty(std::string("device_max_ulp_pow_") + r.name, std::to_string(st_lib.max_ulp));
    EXPECT_LE(st.max_ulp, r.published_max_ulp) << r.name;
    EXPECT_LE(st_lib.max_ulp, 2.0) << r.name;
  }
}

TEST(GpuFastMath, LogMatchesHostBitwiseAndMeetsBounds) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto x = fmc::sample_open01(kSamples, seed);
  const auto dev = cuda::evaluate_fast_math_on_device(FastMathFn::fast_log, x, {});
  const auto lib = cuda::evaluate_fast_math_on_device(FastMathFn::log, x, {});
  std::vector<double> host(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) host[i] = physics::fast_log(x[i]);
  const long diff = first_bit_difference(dev, host);
  EXPECT_EQ(diff, -1) << "x=" << (diff >= 0 ? x[diff] : 0.0);
  const auto ref = [&](std::size_t i) { return fmc::log_ref(x[i]); };
  const auto st = fmc::measure(dev, ref);
  const auto st_lib = fmc::measure(lib, ref);
  std::printf("device fastlog max rel %.3g (%.3f ULP; published %.3g), CUDA log max rel %.3g (%.3f ULP)\n",
              st.max_rel, st.max_ulp, fmc::kPublishedLogRelErr, st_lib.max_rel, st_lib.max_ulp);
  RecordProperty("device_max_rel_fastlog", std::to_string(st.max_rel));
  RecordProperty("device_max_rel_log", std::to_string(st_lib.max_rel));
  EXPECT_LE(st.max_rel, fmc::kPublishedLogRelErr);
  EXPECT_LE(st_lib.max_ulp, 1.0);
}

TEST(GpuFastMath, CospiMatchesHostBitwiseAndMeetsBounds) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto x = fmc::sample_cospi(kSamples, seed);
  const auto dev = cuda::evaluate_fast_math_on_device(FastMathFn::fast_cospi, x, {});
  const auto lib = cuda::evaluate_fast_math_on_device(FastMathFn::cospi, x, {});
  std::vector<double> host(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) host[i] = physics::fast_cospi(x[i]);
  const long diff = first_bit_difference(dev, host);
  EXPECT_EQ(diff, -1) << "x=" << (diff >= 0 ? x[diff] : 0.0);
  const auto ref = [&](std::size_t i) { return fmc::cospi_ref(x[i]); };
  const auto st = fmc::measure(dev, ref);
  const auto st_lib = fmc::measure(lib, ref);
  std::printf("device fastcospi max rel %.3g (%.3f ULP; published %.3g), CUDA cospi max rel %.3g (%.3f ULP)\n",
              st.max_rel, st.max_ulp, fmc::kPublishedCospiRelErr, st_lib.max_rel, st_lib.max_ulp);
  RecordProperty("device_max_rel_fastcospi", std::to_string(st.max_rel));
  RecordProperty("device_max_rel_cospi", std::to_string(st_lib.max_rel));
  EXPECT_LE(st.max_rel, fmc::kPublishedCospiRelErr);
  EXPECT_LE(st_lib.max_ulp, 2.0);
}

// The timing probes run and return sane numbers (the figures themselves come
// from bench_fast_math).
TEST(GpuFastMath, TimingProbesRun) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  for (auto fn : {FastMathFn::fast_pow, FastMathFn::pow}) {
    const auto lat = cuda::measure_fast_math_latency(fn, 256);
    EXPECT_GT(lat.cycles_per_call, 0.0) << cuda::fast_math_fn_name(fn);
    EXPECT_TRUE(std::isfinite(lat.checksum)) << cuda::fast_math_fn_name(fn);
    cuda::FastMathThroughputProbe probe(fn, 16);
    const auto t = probe.run();
    EXPECT_GT(t.calls_per_s, 0.0);
    EXPECT_TRUE(std::isfinite(t.checksum));
  }
}

}  // namespace
