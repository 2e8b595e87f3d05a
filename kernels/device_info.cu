#include <cuda_runtime.h>

#include <string>

#include "meso/cuda/device_info.hpp"

namespace meso::cuda {

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver/device" error
    return 0;
  }
  return n;
}

GpuInfo describe_device() {
  GpuInfo info;
  if (device_count() == 0) return info;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return info;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  info.name = prop.name;
  info.driver = "driver " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10) +
                ", runtime " + std::to_string(runtime / 1000) + "." +
                std::to_string(runtime % 1000 / 10) + ", sm_" + std::to_string(prop.major) +
                std::to_string(prop.minor);
  info.memory_gib = static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
  return info;
}

void install_gpu_probe() { set_gpu_probe(describe_device); }

}  // namespace meso::cuda
