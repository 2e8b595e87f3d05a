#include "backends.hpp"

#include "meso/reference/cpu_backend.hpp"
#ifdef MESO_HAVE_CUDA
#include "meso/cuda/cuda_dpd_backend.hpp"
#include "meso/cuda/device_info.hpp"
#endif

namespace meso::bench {

void register_backends(BackendRegistry& registry) {
  reference::register_cpu_backend(registry);
#ifdef MESO_HAVE_CUDA
  cuda::register_cuda_backend(registry);
  // The probe reports the GPU in provenance, so CPU numbers also say which
  // machine they came from.
  cuda::install_gpu_probe();
#endif
}

}  // namespace meso::bench
