// Device side of the fast-math measurements (Tang & Karniadakis 2014 Table 3
// re-measured): evaluate fast_pow / fast_log / fast_cospi of
// engine/include/meso/physics/fast_math.hpp and CUDA's pow / log / cospi on the device for
// given inputs (accuracy, by the gpu test), and time them (latency of a
// dependent chain in one thread, throughput of independent calls over the
// whole GPU, by bench_fast_math).
#pragma once

#include <cstdint>
#include <vector>

namespace meso::cuda {

enum class FastMathFn : int { fast_pow, pow, fast_log, log, fast_cospi, cospi };

const char* fast_math_fn_name(FastMathFn fn);

// out[i] = fn(x[i], y[i]) on the device; y is pow's exponent and is ignored
// (may be empty) for the one-argument functions.
std::vector<double> evaluate_fast_math_on_device(FastMathFn fn, const std::vector<double>& x,
                                                 const std::vector<double>& y);

// Inputs the timing kernels draw from: pow over the DPD range (a = w in
// (0, 1], b in [0.25, 3]), log over (0, 1] (Box-Muller's u1), cospi over
// [0, 2] (Box-Muller's 2 u2). Inputs vary from call to call and from thread
// to thread so that nothing can be hoisted out of the loops.

struct FastMathLatency {
  double cycles_per_call;   // chain with the function minus chain without it
  double link_cycles;       // the fma that makes each input depend on the last output
  double checksum;          // the chain's final value (keeps the chain alive)
};

// One thread runs `chain` calls, each call's input = fma(previous output,
// z, next input) with z = 0 given at run time (so the compiler cannot drop
// the dependence), timed with clock64(). The same chain without the function
// is timed too and subtracted.
FastMathLatency measure_fast_math_latency(FastMathFn fn, int chain);

struct FastMathThroughput {
  double seconds;        // kernel time, CUDA events
  double calls;          // function calls in the launch
  double calls_per_s;
  double ns_per_call_per_sm;  // seconds * 1e9 * SMs / calls: one SM's time per call
  int sms;
  double checksum;       // first thread's sum (all sums are written, so no call is dropped)
};

// A launch of blocks_per_sm * SMs blocks of 256 threads, each thread making
// `calls_per_thread` independent calls and summing the results. Owns its
// device buffers so that a benchmark loop times only the kernel.
class FastMathThroughputProbe {
 public:
  FastMathThroughputProbe(FastMathFn fn, int calls_per_thread, int blocks_per_sm = 8);
  ~FastMathThroughputProbe();
  FastMathThroughputProbe(const FastMathThroughputProbe&) = delete;
  FastMathThroughputProbe& operator=(const FastMathThroughputProbe&) = delete;

  // One timed launch (the first call also serves as warm-up if the caller
  // discards it).
  FastMathThroughput run();

 private:
  FastMathFn fn_;
  int calls_per_thread_;
  int sms_;
  int blocks_;
  double* sink_ = nullptr;
  void* start_ = nullptr;  // cudaEvent_t, kept opaque so this header needs no CUDA
  void* stop_ = nullptr;
};

}  // namespace meso::cuda
