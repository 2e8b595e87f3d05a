// Tang & Karniadakis (CPC 2014) Table 3 re-measured on the device: fastpow,
// fastlog, fastcospi (engine/include/meso/physics/fast_math.hpp) against CUDA's pow, log,
// cospi. Per benchmark:
//   time (manual)       one throughput launch, CUDA events
//   calls_per_s         calls / kernel time over the whole GPU
//   ns_per_call_per_sm  kernel time * SMs / calls: one SM's time per call
//   latency_cycles      dependent chain in one thread, clock64, link removed
//   max_ulp_*, max_rel_err  device results against the 80-bit host reference
//                       (pow: the DPD range and the two published ranges)
// Arg = calls per thread of the throughput kernel.
//
//   build/default/bin/bench_fast_math --benchmark_repetitions=5 \
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <string>

#include "meso/cuda/device_info.hpp"
#include "meso/cuda/fast_math_probe.hpp"
#include "meso/physics/fast_math_check.hpp"

namespace {

using meso::cuda::FastMathFn;
namespace fmc = meso::physics::fast_math_check;

constexpr std::size_t kAccuracySamples = std::size_t{1} << 18;
constexpr uint64_t kAccuracySeed = 20140601;  // fixed: the counters are comparable run to run
constexpr int kLatencyChain = 4096;

bool is_pow(FastMathFn fn) { return fn == FastMathFn::fast_pow || fn == FastMathFn::pow; }
bool is_log(FastMathFn fn) { return fn == FastMathFn::fast_log || fn == FastMathFn::log; }

void add_accuracy_counters(benchmark::State& state, FastMathFn fn) {
  if (is_pow(fn)) {
    for (const auto& r : fmc::kPowRanges) {
      const auto in = fmc::sample_pow(r, kAccuracySamples, kAccuracySeed);
      const auto y = meso::cuda::evaluate_fast_math_on_device(fn, in.a, in.b);
      const auto st = fmc::measure(y, [&](std::size_t i) { return fmc::pow_ref(in.a[i], in.b[i]); });
      state.counters[std::string("max_ulp_") + r.name] = st.max_ulp;
    }
    return;
  }
  const auto x = is_log(fn) ? fmc::sample_open01(kAccuracySamples, kAccuracySeed)
                            : fmc::sample_cospi(kAccuracySamples, kAccuracySeed);
  const auto y = meso::cuda::evaluate_fast_math_on_device(fn, x, {});
  const auto st = fmc::measure(y, [&](std::size_t i) {
    return is_log(fn) ? fmc::log_ref(x[i]) : fmc::cospi_ref(x[i]);
  });
  state.counters["max_ulp"] = st.max_ulp;
  state.counters["max_rel_err"] = st.max_rel;
}

void run_fast_math(benchmark::State& state, FastMathFn fn) {
  if (meso::cuda::device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  meso::cuda::FastMathThroughputProbe probe(fn, static_cast<int>(state.range(0)));
  probe.run();  // warm-up: module load, clocks up
  double seconds = 0.0, calls = 0.0, checksum = 0.0;
  int sms = 0;
  for (auto _ : state) {
    const auto t = probe.run();
    state.SetIterationTime(t.seconds);
    seconds += t.seconds;
    calls += t.calls;
    checksum += t.checksum;
    sms = t.sms;
  }
  const auto lat = meso::cuda::measure_fast_math_latency(fn, kLatencyChain);
  state.counters["calls_per_s"] = calls / seconds;
  state.counters["ns_per_call_per_sm"] = seconds * 1e9 * sms / calls;
  state.counters["latency_cycles"] = lat.cycles_per_call;
  state.counters["link_cycles"] = lat.link_cycles;
  add_accuracy_counters(state, fn);
  state.SetItemsProcessed(static_cast<int64_t>(calls));
  state.SetLabel(std::string(meso::cuda::fast_math_fn_name(fn)) + " checksum " +
                 std::to_string(checksum + lat.checksum));
}

void BM_FastPow(benchmark::State& s) { run_fast_math(s, FastMathFn::fast_pow); }
void BM_Pow(benchmark::State& s) { run_fast_math(s, FastMathFn::pow); }
void BM_FastLog(benchmark::State& s) { run_fast_math(s, FastMathFn::fast_log); }
void BM_Log(benchmark::State& s) { run_fast_math(s, FastMathFn::log); }
void BM_FastCospi(benchmark::State& s) { run_fast_math(s, FastMathFn::fast_cospi); }
void BM_Cospi(benchmark::State& s) { run_fast_math(s, FastMathFn::cospi); }

// 1024 calls per thread x 8 blocks x 256 threads per SM: ~0.1-1 ms per launch
// on an H100, long enough for events, short enough for many repetitions.
#define MESO_FAST_MATH_BENCH(fn) \
  BENCHMARK(fn)->Arg(1024)->UseManualTime()->Unit(benchmark::kMicrosecond)

MESO_FAST_MATH_BENCH(BM_FastPow);
MESO_FAST_MATH_BENCH(BM_Pow);
MESO_FAST_MATH_BENCH(BM_FastLog);
MESO_FAST_MATH_BENCH(BM_Log);
MESO_FAST_MATH_BENCH(BM_FastCospi);
MESO_FAST_MATH_BENCH(BM_Cospi);

}  // namespace
