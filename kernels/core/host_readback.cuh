// What the host reads back from a force operation after a step, written
// once for the pair styles and the bonded force: the energy/virial pair of
// its last sums launch, and its fault word (the first broken pair, pair
// below a table, ... a kernel recorded before it stopped the step).
#pragma once

#include <cuda_runtime.h>

#include "meso/analysis/thermo.hpp"
#include "meso/cuda/check.hpp"
#include "meso/cuda/device_buffer.hpp"

namespace meso::cuda {

// sums[0] (energy) and sums[1] (virial), once the stream has written them.
inline PairSums read_sums(const DeviceBuffer<double>& sums, cudaStream_t stream) {
  double s[2];
  MESO_CUDA_CHECK(cudaMemcpyAsync(s, sums.data(), sizeof(s), cudaMemcpyDeviceToHost, stream));
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
  return {s[0], s[1]};
}

// A 64-bit fault word on the device: `none` until a kernel writes what
// stopped the step.
class FaultWord {
 public:
  explicit FaultWord(unsigned long long none) : none_(none), word_(1) { clear(); }

  unsigned long long* data() { return word_.data(); }
  std::size_t bytes() const { return word_.bytes(); }
  void clear() { MESO_CUDA_CHECK(cudaMemcpy(word_.data(), &none_, sizeof none_, cudaMemcpyHostToDevice)); }
  // The word, once the stream has run.
  unsigned long long read(cudaStream_t stream) const {
    unsigned long long w = none_;
    MESO_CUDA_CHECK(cudaMemcpyAsync(&w, word_.data(), sizeof w, cudaMemcpyDeviceToHost, stream));
    MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
    return w;
  }
  bool set(cudaStream_t stream) const { return read(stream) != none_; }
  // The word, read before the error is raised; the word and the context's
  // abort are cleared first, so that the backend is not left stopped (a
  // caller that goes on runs from the failed step's state).
  template <class Context>
  unsigned long long take(Context& ctx) {
    const unsigned long long w = read(ctx.stream);
    clear();
    ctx.pull_ctl();
    ctx.h_ctl->abort = 0;
    ctx.push_ctl();
    return w;
  }

 private:
  unsigned long long none_;
  DeviceBuffer<unsigned long long> word_;
};

}  // namespace meso::cuda
