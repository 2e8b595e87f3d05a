// The engine does not link CUDA. A CUDA build installs a probe (kernels/
// device_info.cu) so provenance and backend selection can see the GPU.
#pragma once

#include <functional>
#include <string>

namespace meso {

struct GpuInfo {
  std::string name;    // empty: no usable device
  std::string driver;  // driver / runtime versions
  double memory_gib = 0.0;
};

void set_gpu_probe(std::function<GpuInfo()> probe);
GpuInfo probe_gpu();  // GpuInfo{} when no probe is installed

}  // namespace meso
