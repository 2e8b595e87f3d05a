// What the CUDA runtime sees: device count and the first device's name,
// driver and memory, for provenance and for `--backend auto`.
#pragma once

#include "meso/run/gpu_probe.hpp"

namespace meso::cuda {

// Number of usable devices; 0 when there is no driver or no device (never throws).
int device_count();
// Describes device 0, or GpuInfo{} when there is none.
GpuInfo describe_device();
// Device copy bandwidth in GB/s (bytes read + written per second) measured
// once per process with a 1 GiB device-to-device copy: the roofline that
// kernel bandwidths are reported against. 0 without a device.
double measure_copy_bandwidth();
// Makes device local_rank % device_count() current for this thread: one
// rank per GPU of a node (the MPI ranks of `mesobench scale-point`). Returns
// the device chosen, -1 without a device.
int select_device(int local_rank);
// Installs describe_device as the engine's GPU probe.
void install_gpu_probe();

}  // namespace meso::cuda
