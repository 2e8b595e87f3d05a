// Accuracy and timing probes of engine/include/meso/physics/fast_math.hpp against CUDA's
// libm (Tang & Karniadakis, CPC 185 (2014) 2809, sec. 3.5, Table 3).
//
// Latency: one thread, a dependent chain, clock64(). Each input is
// fma(previous output, z, fresh input) with z = 0 passed at run time, so every
// call waits for the previous one and the compiler can neither drop the
// dependence nor hoist a call; the same chain without the function measures
// the link and loop cost, which is subtracted.
// Throughput: all SMs, independent calls per thread (inputs are a per-thread
// ramp, so they differ between calls and threads), results summed into a sink
// that is written back, timed with CUDA events. Both loops carry the same
// input-ramp work for every function, so the comparison fast vs libm is fair;
// the absolute ns/call includes ~2 DFMA + 2 DADD of that overhead.
#include <cuda_runtime.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "meso/cuda/check.hpp"
#include "meso/cuda/fast_math_probe.hpp"
#include "meso/physics/fast_math.hpp"

namespace meso::cuda {
namespace {

struct FastPowF {
  __device__ double operator()(double x, double y) const { return physics::fast_pow(x, y); }
};
struct PowF {
  __device__ double operator()(double x, double y) const { return ::pow(x, y); }
};
struct FastLogF {
  __device__ double operator()(double x, double) const { return physics::fast_log(x); }
};
struct LogF {
  __device__ double operator()(double x, double) const { return ::log(x); }
};
struct FastCospiF {
  __device__ double operator()(double x, double) const { return physics::fast_cospi(x); }
};
struct CospiF {
  __device__ double operator()(double x, double) const { return ::cospi(x); }
};

// Calls v(functor) for the functor of fn.
template <class Visitor>
decltype(auto) dispatch(FastMathFn fn, Visitor&& v) {
  switch (fn) {
    case FastMathFn::fast_pow: return v(FastPowF{});
    case FastMathFn::pow: return v(PowF{});
    case FastMathFn::fast_log: return v(FastLogF{});
    case FastMathFn::log: return v(LogF{});
    case FastMathFn::fast_cospi: return v(FastCospiF{});
    case FastMathFn::cospi: return v(CospiF{});
  }
  throw std::invalid_argument("unknown FastMathFn " + std::to_string(static_cast<int>(fn)));
}

// Input ramp x = x0 + k dx (and y for pow) over the function's timing domain
// (see fast_math_probe.hpp); `frac` in [0, 1) places a thread in the domain.
struct Ramp {
  double x0, dx, y0, dy;
};

__host__ __device__ Ramp ramp_for(FastMathFn fn, double frac, double frac2) {
  switch (fn) {
    case FastMathFn::fast_pow:
    case FastMathFn::pow:  // w in [0.01, 0.99], s in [0.25, 3]
      return {0.01 + 0.98 * frac, 1e-9, 0.25 + 2.7 * frac2, 1e-9};
    case FastMathFn::fast_log:
    case FastMathFn::log:  // u1 in [1e-3, 0.999]
      return {1e-3 + 0.99 * frac, 1e-9, 0.0, 0.0};
    default:  // 2 u2 in [0, 1.99]
      return {1.99 * frac, 1e-9, 0.0, 0.0};
  }
}

template <class F>
__global__ void evaluate_kernel(F f, const double* x, const double* y, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(x[i], y[i]);
}

template <bool kWithFn, class F>
__global__ void latency_kernel(F f, Ramp r, double z, int chain, long long* cycles, double* out) {
  double prev = 0.0, k = 0.0;
  const long long t0 = clock64();
#pragma unroll 8
  for (int i = 0; i < chain; ++i) {
    const double x = fma(prev, z, fma(k, r.dx, r.x0));
    const double y = fma(k, r.dy, r.y0);
    if constexpr (kWithFn) {
      prev = f(x, y);
    } else {
      prev = x;
    }
    k += 1.0;
  }
  // The volatile store cannot issue before prev is ready, and the clock read
  // is not moved above it, so t1 is taken after the chain has finished.
  *static_cast<volatile double*>(out) = prev;
  const long long t1 = clock64();
  *cycles = t1 - t0;
}

template <class F>
__global__ void throughput_kernel(F f, FastMathFn fn, int calls, double* sink) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int nthreads = gridDim.x * blockDim.x;
  const double frac = static_cast<double>(tid) / nthreads;
  // Golden-ratio stride: b is decorrelated from a across threads.
  const double frac2 = frac * 0.6180339887498949 * 1024.0 - floor(frac * 0.6180339887498949 * 1024.0);
  const Ramp r = ramp_for(fn, frac, frac2);
  double acc = 0.0, k = 0.0;
#pragma unroll 4
  for (int i = 0; i < calls; ++i) {
    acc += f(fma(k, r.dx, r.x0), fma(k, r.dy, r.y0));
    k += 1.0;
  }
  sink[tid] = acc;
}

double* device_copy(const std::vector<double>& v) {
  double* d = nullptr;
  MESO_CUDA_CHECK(cudaMalloc(&d, sizeof(double) * v.size()));
  MESO_CUDA_CHECK(cudaMemcpy(d, v.data(), sizeof(double) * v.size(), cudaMemcpyHostToDevice));
  return d;
}

int sm_count() {
  int dev = 0, sms = 0;
  MESO_CUDA_CHECK(cudaGetDevice(&dev));
  MESO_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return sms;
}

}  // namespace

const char* fast_math_fn_name(FastMathFn fn) {
  switch (fn) {
    case FastMathFn::fast_pow: return "fastpow";
    case FastMathFn::pow: return "pow";
    case FastMathFn::fast_log: return "fastlog";
    case FastMathFn::log: return "log";
    case FastMathFn::fast_cospi: return "fastcospi";
    case FastMathFn::cospi: return "cospi";
  }
  return "?";
}

std::vector<double> evaluate_fast_math_on_device(FastMathFn fn, const std::vector<double>& x,
                                                 const std::vector<double>& y) {
  const int n = static_cast<int>(x.size());
  if (!y.empty() && y.size() != x.size())
    throw std::invalid_argument("evaluate_fast_math_on_device: y has " + std::to_string(y.size()) +
                                " values, x has " + std::to_string(x.size()));
  std::vector<double> out(x.size());
  if (n == 0) return out;
  double* d_x = device_copy(x);
  double* d_y = device_copy(y.empty() ? std::vector<double>(x.size(), 0.0) : y);
  double* d_out = nullptr;
  MESO_CUDA_CHECK(cudaMalloc(&d_out, sizeof(double) * x.size()));
  // Poison the output so an unwritten element cannot pass as a result.
  MESO_CUDA_CHECK(cudaMemset(d_out, 0xff, sizeof(double) * x.size()));
  const int block = 256;
  dispatch(fn, [&](auto f) {
    evaluate_kernel<<<(n + block - 1) / block, block>>>(f, d_x, d_y, d_out, n);
  });
  MESO_CUDA_CHECK_LAUNCH();
  MESO_CUDA_CHECK(cudaMemcpy(out.data(), d_out, sizeof(double) * x.size(), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaFree(d_x));
  MESO_CUDA_CHECK(cudaFree(d_y));
  MESO_CUDA_CHECK(cudaFree(d_out));
  return out;
}

FastMathLatency measure_fast_math_latency(FastMathFn fn, int chain) {
  if (chain < 1) throw std::invalid_argument("latency chain must be >= 1, got " + std::to_string(chain));
  long long* d_cycles = nullptr;
  double* d_out = nullptr;
  MESO_CUDA_CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  MESO_CUDA_CHECK(cudaMalloc(&d_out, sizeof(double)));
  const Ramp r = ramp_for(fn, 0.37, 0.61);
  long long with_fn = 0, without_fn = 0;
  double checksum = 0.0;
  dispatch(fn, [&](auto f) {
    // Twice each: the first launch loads the code and warms the caches.
    for (int rep = 0; rep < 2; ++rep) {
      latency_kernel<false><<<1, 1>>>(f, r, 0.0, chain, d_cycles, d_out);
      MESO_CUDA_CHECK_LAUNCH();
      MESO_CUDA_CHECK(cudaMemcpy(&without_fn, d_cycles, sizeof(long long), cudaMemcpyDeviceToHost));
      latency_kernel<true><<<1, 1>>>(f, r, 0.0, chain, d_cycles, d_out);
      MESO_CUDA_CHECK_LAUNCH();
      MESO_CUDA_CHECK(cudaMemcpy(&with_fn, d_cycles, sizeof(long long), cudaMemcpyDeviceToHost));
    }
  });
  MESO_CUDA_CHECK(cudaMemcpy(&checksum, d_out, sizeof(double), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaFree(d_cycles));
  MESO_CUDA_CHECK(cudaFree(d_out));
  return {static_cast<double>(with_fn - without_fn) / chain, static_cast<double>(without_fn) / chain,
          checksum};
}

FastMathThroughputProbe::FastMathThroughputProbe(FastMathFn fn, int calls_per_thread, int blocks_per_sm)
    : fn_(fn), calls_per_thread_(calls_per_thread), sms_(sm_count()), blocks_(blocks_per_sm * sms_) {
  if (calls_per_thread < 1 || blocks_per_sm < 1)
    throw std::invalid_argument("throughput probe needs calls_per_thread >= 1 and blocks_per_sm >= 1, got " +
                                std::to_string(calls_per_thread) + ", " + std::to_string(blocks_per_sm));
  MESO_CUDA_CHECK(cudaMalloc(&sink_, sizeof(double) * blocks_ * 256));
  cudaEvent_t start, stop;
  MESO_CUDA_CHECK(cudaEventCreate(&start));
  MESO_CUDA_CHECK(cudaEventCreate(&stop));
  start_ = start;
  stop_ = stop;
}

FastMathThroughputProbe::~FastMathThroughputProbe() {
  // Destructors must not throw; a failure here leaves nothing to recover.
  cudaEventDestroy(static_cast<cudaEvent_t>(start_));
  cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
  cudaFree(sink_);
}

FastMathThroughput FastMathThroughputProbe::run() {
  const auto start = static_cast<cudaEvent_t>(start_);
  const auto stop = static_cast<cudaEvent_t>(stop_);
  MESO_CUDA_CHECK(cudaEventRecord(start));
  dispatch(fn_, [&](auto f) { throughput_kernel<<<blocks_, 256>>>(f, fn_, calls_per_thread_, sink_); });
  MESO_CUDA_CHECK(cudaGetLastError());
  MESO_CUDA_CHECK(cudaEventRecord(stop));
  MESO_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  MESO_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  // The sum of the first thread's results shows that the work was done.
  double checksum = 0.0;
  MESO_CUDA_CHECK(cudaMemcpy(&checksum, sink_, sizeof(double), cudaMemcpyDeviceToHost));
  FastMathThroughput t;
  t.seconds = ms * 1e-3;
  t.calls = static_cast<double>(blocks_) * 256.0 * calls_per_thread_;
  t.calls_per_s = t.calls / t.seconds;
  t.ns_per_call_per_sm = t.seconds * 1e9 * sms_ / t.calls;
  t.sms = sms_;
  t.checksum = checksum;
  return t;
}

}  // namespace meso::cuda
