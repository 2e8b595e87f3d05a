// Times one piece of a step for the per-kernel profiles (profile_kernels,
// profile_mpcd): CUDA events around `repeats` launches on the stream after
// one untimed warm-up, median in microseconds (ARCHITECTURE.md,
// "Performance methodology"), with the minimum bytes the piece must move.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "meso/cuda/check.hpp"
#include "meso/cuda/cuda_backend.hpp"

namespace meso::cuda {

class KernelTimer {
 public:
  KernelTimer(cudaStream_t s, int repeats) : s_(s), repeats_(std::max(repeats, 1)) {
    MESO_CUDA_CHECK(cudaEventCreate(&e0_));
    MESO_CUDA_CHECK(cudaEventCreate(&e1_));
  }
  ~KernelTimer() {
    cudaEventDestroy(e0_);
    cudaEventDestroy(e1_);
  }
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;

  template <class F>
  void time(const std::string& name, double bytes, F&& enqueue) {
    std::vector<double> t;
    for (int r = 0; r < repeats_ + 1; ++r) {
      MESO_CUDA_CHECK(cudaEventRecord(e0_, s_));
      enqueue();
      MESO_CUDA_CHECK(cudaEventRecord(e1_, s_));
      MESO_CUDA_CHECK(cudaEventSynchronize(e1_));
      float ms = 0.f;
      MESO_CUDA_CHECK(cudaEventElapsedTime(&ms, e0_, e1_));
      if (r > 0) t.push_back(1e3 * ms);  // the first is warm-up
    }
    std::sort(t.begin(), t.end());
    out_[name] = {t[t.size() / 2], bytes};
  }
  const std::map<std::string, KernelProfile>& profiles() const { return out_; }

 private:
  cudaStream_t s_;
  int repeats_;
  cudaEvent_t e0_ = nullptr, e1_ = nullptr;
  std::map<std::string, KernelProfile> out_;
};

}  // namespace meso::cuda
