// Host-staged records of the CUDA domain storage (domain_storage_op.cu):
// the copies between its device records and the communicator's message
// buffers (pinned host memory: one copy each way) for the MPI messages of
// --transport host, and of ipc's migrations and first ghost exchange. The
// copies are timed on the device between two events, so that timing them
// adds no wait (the split's `copy`).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/domain_storage.hpp"

namespace meso::cuda {

class HostStaging {
 public:
  HostStaging() {
    for (cudaEvent_t& e : ev_) MESO_CUDA_CHECK(cudaEventCreate(&e));
  }
  ~HostStaging() {
    for (cudaEvent_t e : ev_) cudaEventDestroy(e);
  }
  HostStaging(const HostStaging&) = delete;
  HostStaging& operator=(const HostStaging&) = delete;

  // dev[0, a) into out_a and dev[a, a + b) into *out_b (when given),
  // enqueued on s: the records must stay until the caller has waited.
  void download(const double* dev, std::size_t a, Records& out_a, std::size_t b, Records* out_b, cudaStream_t s) {
    out_a.resize(a);
    if (out_b) out_b->resize(b);
    begin(s);
    if (a) MESO_CUDA_CHECK(cudaMemcpyAsync(out_a.data(), dev, a * sizeof(double), cudaMemcpyDeviceToHost, s));
    if (out_b && b)
      MESO_CUDA_CHECK(cudaMemcpyAsync(out_b->data(), dev + a, b * sizeof(double), cudaMemcpyDeviceToHost, s));
    end(s);
  }
  // `in` into dev, enqueued on s (`in` must live until the caller has waited).
  void upload(double* dev, const Records& in, cudaStream_t s) {
    begin(s);
    MESO_CUDA_CHECK(cudaMemcpyAsync(dev, in.data(), in.size() * sizeof(double), cudaMemcpyHostToDevice, s));
    end(s);
  }
  // After the caller waited for the stream: the time of the copies since
  // the first one it enqueued.
  void account() {
    if (!open_) return;
    float ms = 0.0f;
    MESO_CUDA_CHECK(cudaEventElapsedTime(&ms, ev_[0], ev_[1]));
    seconds_ += 1e-3 * ms;
    open_ = false;
  }
  double seconds() const { return seconds_; }

  static void check_records(const Records& rec, std::size_t size, const char* what) {
    if (rec.size() % size != 0)
      throw_input_error("a ", what, " message of ", rec.size(), " values is not a whole number of ", size,
                        "-value records");
  }

 private:
  cudaEvent_t ev_[2] = {nullptr, nullptr};
  bool open_ = false;
  double seconds_ = 0.0;
  void begin(cudaStream_t s) {
    if (!open_) MESO_CUDA_CHECK(cudaEventRecord(ev_[0], s));
    open_ = true;
  }
  void end(cudaStream_t s) { MESO_CUDA_CHECK(cudaEventRecord(ev_[1], s)); }
};

}  // namespace meso::cuda
