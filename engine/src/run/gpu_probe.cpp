#include "meso/run/gpu_probe.hpp"

namespace meso {
namespace {
std::function<GpuInfo()>& probe_slot() {
  static std::function<GpuInfo()> probe;
  return probe;
}
}  // namespace

void set_gpu_probe(std::function<GpuInfo()> probe) { probe_slot() = std::move(probe); }

GpuInfo probe_gpu() { return probe_slot() ? probe_slot()() : GpuInfo{}; }

}  // namespace meso
