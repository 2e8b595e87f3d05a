#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

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

double measure_copy_bandwidth() {
  static double cached = 0.0;
  if (cached > 0.0 || device_count() == 0) return cached;
  // A 1 GiB device-to-device copy: large against the 50-60 MB L2, so it
  // streams from HBM. Counts bytes read plus bytes written.
  const size_t bytes = size_t(1) << 30;
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
    cudaGetLastError();
    if (a) cudaFree(a);
    return 0.0;
  }
  cudaMemset(a, 1, bytes);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> t;
  for (int r = 0; r < 11; ++r) {
    cudaEventRecord(e0);
    cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0.f;
    cudaEventElapsedTime(&ms, e0, e1);
    if (r > 0) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  cached = 2.0 * double(bytes) / (1e-3 * t[t.size() / 2]) * 1e-9;
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(a);
  cudaFree(b);
  return cached;
}

int select_device(int local_rank) {
  const int n = device_count();
  if (n == 0) return -1;
  const int d = local_rank % n;
  if (cudaSetDevice(d) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return d;
}

void install_gpu_probe() { set_gpu_probe(describe_device); }

}  // namespace meso::cuda
