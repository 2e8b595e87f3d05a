// Every CUDA call is checked (ARCHITECTURE.md, "Conventions").
// MESO_CUDA_CHECK throws with the file, line, call and the runtime's message;
// MESO_CUDA_CHECK_LAUNCH checks the launch and, in debug builds, waits for
// the kernel so a fault is reported at the launch that caused it.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "meso/core/error.hpp"

namespace meso::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call, const char* file,
                                          int line) {
  const std::string what = std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                           cudaGetErrorName(err) + ": " + cudaGetErrorString(err);
  // Running out of device memory is fixed by a smaller system: the CLI names it.
  if (err == cudaErrorMemoryAllocation) throw OutOfMemory(what);
  throw std::runtime_error(what);
}

}  // namespace meso::cuda

#define MESO_CUDA_CHECK(call)                                                          \
  do {                                                                                 \
    const cudaError_t meso_err_ = (call);                                              \
    if (meso_err_ != cudaSuccess) ::meso::cuda::throw_cuda_error(meso_err_, #call, __FILE__, __LINE__); \
  } while (0)

#ifdef NDEBUG
#define MESO_CUDA_CHECK_LAUNCH() MESO_CUDA_CHECK(cudaGetLastError())
#else
#define MESO_CUDA_CHECK_LAUNCH()         \
  do {                                   \
    MESO_CUDA_CHECK(cudaGetLastError()); \
    MESO_CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)
#endif
