#include "backends.hpp"

#include "meso/reference/cpu_backend.hpp"
#ifdef MESO_HAVE_CUDA
#include "meso/cuda/device_info.hpp"
#endif

namespace meso::bench {

void register_backends(BackendRegistry& registry) {
  reference::register_cpu_backend(registry);
#ifdef MESO_HAVE_CUDA
  // The CUDA DPD backend is not built yet; the probe already reports the GPU
  // in provenance so CPU numbers say which machine they came from.
  cuda::install_gpu_probe();
#endif
}

}  // namespace meso::bench
