#include "backends.hpp"

#include "meso/reference/cpu_backend.hpp"
#ifdef MESO_HAVE_CUDA
#include "meso/cuda/cuda_backend.hpp"
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

int gpu_count() {
#ifdef MESO_HAVE_CUDA
  return cuda::device_count();
#else
  return 0;
#endif
}

std::size_t device_bytes_of(const Backend& b) {
#ifdef MESO_HAVE_CUDA
  if (const auto* info = dynamic_cast<const cuda::CudaBackendInfo*>(&b)) return info->device_bytes();
#endif
  (void)b;
  return 0;
}

std::map<std::string, std::size_t> device_bytes_by_part_of(const Backend& b) {
#ifdef MESO_HAVE_CUDA
  if (const auto* info = dynamic_cast<const cuda::CudaBackendInfo*>(&b)) return info->device_bytes_by_part();
#endif
  (void)b;
  return {};
}

bool nccl_transport_built() {
#ifdef MESO_HAVE_CUDA
  return cuda::nccl_available();
#else
  return false;
#endif
}

void select_device_for_rank(int local_rank) {
#ifdef MESO_HAVE_CUDA
  cuda::select_device(local_rank);
#else
  (void)local_rank;
#endif
}

}  // namespace meso::bench

namespace meso::bench {

#ifdef MESO_HAVE_CUDA
namespace {

// Per-kernel times, bytes and the fraction of the measured copy bandwidth.
nlohmann::json kernel_table(const std::map<std::string, cuda::KernelProfile>& profile, double bw) {
  nlohmann::json kernels = nlohmann::json::object();
  for (const auto& [name, k] : profile) {
    const double gbps = k.bytes / (k.median_us * 1e-6) * 1e-9;
    kernels[name] = {{"median_us", k.median_us},
                     {"bytes", k.bytes},
                     {"GBps", gbps},
                     {"fraction_of_copy_bw", bw > 0 ? gbps / bw : 0.0}};
  }
  return kernels;
}

}  // namespace
#endif

#ifdef MESO_HAVE_CUDA
namespace {

// Device memory per particle, the copy bandwidth and the per-kernel table of
// one profile (profile_kernels or profile_mpcd of CudaBackendInfo).
template <class Profile>
nlohmann::json inspect_cuda(Backend& b, uint64_t n, Profile&& profile) {
  auto* info = dynamic_cast<cuda::CudaBackendInfo*>(&b);
  if (!info) return nullptr;
  const double bw = cuda::measure_copy_bandwidth();
  return {{"device_bytes", info->device_bytes()},
          {"bytes_per_particle", static_cast<double>(info->device_bytes()) / static_cast<double>(n)},
          {"copy_bandwidth_GBps", bw},
          {"graph_steps", info->graph_steps()},
          {"kernels", kernel_table(profile(*info), bw)}};
}

}  // namespace
#endif

nlohmann::json inspect_backend([[maybe_unused]] Simulation& sim) {
#ifdef MESO_HAVE_CUDA
  const bool md = sim.has_md();
  return inspect_cuda(sim.backend(), sim.local_size(), [md](cuda::CudaBackendInfo& i) {
    return md ? i.profile_kernels(20) : i.profile_mpcd(20);
  });
#else
  return nullptr;
#endif
}

}  // namespace meso::bench
