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
#include "meso/physics/fast_math.hpp"
#include "meso/physics/fast_math_check.hpp"

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

// One-argument function: device fast vs host fast bit for bit, device fast
// within the published relative error, CUDA's version within its ULP bound.
template <class HostFast, class Ref>
void check_unary(FastMathFn fast, FastMathFn lib, const std::vector<double>& x, HostFast host_fast,
                 Ref ref_of_x, double published_rel, double lib_max_ulp) {
  const auto dev = cuda::evaluate_fast_math_on_device(fast, x, {});
  const auto dev_lib = cuda::evaluate_fast_math_on_device(lib, x, {});
  std::vector<double> host(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) host[i] = host_fast(x[i]);
  const long diff = first_bit_difference(dev, host);
  EXPECT_EQ(diff, -1) << "x=" << (diff >= 0 ? x[diff] : 0.0);
  const auto ref = [&](std::size_t i) { return ref_of_x(x[i]); };
  const auto st = fmc::measure(dev, ref);
  const auto st_lib = fmc::measure(dev_lib, ref);
  const std::string fast_name = cuda::fast_math_fn_name(fast), lib_name = cuda::fast_math_fn_name(lib);
  std::printf("device %s max rel %.3g (%.3f ULP; published %.3g), CUDA %s max rel %.3g (%.3f ULP)\n",
              fast_name.c_str(), st.max_rel, st.max_ulp, published_rel, lib_name.c_str(), st_lib.max_rel,
              st_lib.max_ulp);
  ::testing::Test::RecordProperty("device_max_rel_" + fast_name, std::to_string(st.max_rel));
  ::testing::Test::RecordProperty("device_max_rel_" + lib_name, std::to_string(st_lib.max_rel));
  EXPECT_LE(st.max_rel, published_rel);
  EXPECT_LE(st_lib.max_ulp, lib_max_ulp);
}

TEST(GpuFastMath, LogMatchesHostBitwiseAndMeetsBounds) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  check_unary(FastMathFn::fast_log, FastMathFn::log, fmc::sample_open01(kSamples, seed),
              [](double x) { return physics::fast_log(x); }, fmc::log_ref, fmc::kPublishedLogRelErr, 1.0);
}

TEST(GpuFastMath, CospiMatchesHostBitwiseAndMeetsBounds) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  check_unary(FastMathFn::fast_cospi, FastMathFn::cospi, fmc::sample_cospi(kSamples, seed),
              [](double x) { return physics::fast_cospi(x); }, fmc::cospi_ref,
              fmc::kPublishedCospiRelErr, 2.0);
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
