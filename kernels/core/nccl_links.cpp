#include "core/nccl_links.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "meso/cuda/cuda_backend.hpp"
#include "meso/core/error.hpp"

#ifdef MESO_HAVE_NCCL
#include <nccl.h>
#endif

namespace meso::cuda {

#ifdef MESO_HAVE_NCCL
namespace {

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess && r != ncclInProgress)
    throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(r) + " (NCCL_DEBUG=WARN says more)");
}

// Where a rank's GPU is: host name and PCI bus id.
struct GpuPlace {
  char host[256] = {};
  char bus[32] = {};
};

class NcclLinks final : public DeviceLinks {
 public:
  explicit NcclLinks(const DeviceLinksSetup& su) : nbr_(su.neighbours), grid_(su.grid) {
    // NCCL's communicator wants a GPU per rank; say which ranks share one
    // before NCCL fails with "duplicate GPU" on some ranks only.
    GpuPlace me;
    if (gethostname(me.host, sizeof me.host - 1) != 0) std::strncpy(me.host, "this host", sizeof me.host - 1);
    int dev = 0;
    if (cudaGetDevice(&dev) == cudaSuccess) cudaDeviceGetPCIBusId(me.bus, sizeof me.bus, dev);
    std::vector<GpuPlace> all(su.size);
    su.allgather(&me, all.data(), sizeof me);
    for (int i = 0; i < su.size; ++i)
      for (int j = i + 1; j < su.size; ++j)
        if (std::strcmp(all[i].host, all[j].host) == 0 && std::strcmp(all[i].bus, all[j].bus) == 0)
          throw_input_error("--transport nccl needs a GPU of its own for every rank: ranks ", i, " and ", j,
                            " share GPU ", all[i].bus[0] ? all[i].bus : "(none)", " on ", all[i].host,
                            "; run as many ranks as GPUs, or use --transport ipc");
    // Point-to-point messages never use NVLink multicast (NVLS), which
    // serves collectives; keep it off unless the user set it.
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    ncclUniqueId id;
    if (su.rank == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    su.broadcast(&id, sizeof id);
    check(ncclCommInitRank(&comm_, su.size, id, su.rank), "ncclCommInitRank");
  }
  ~NcclLinks() override {
    if (comm_) ncclCommDestroy(comm_);
  }
  NcclLinks(const NcclLinks&) = delete;
  NcclLinks& operator=(const NcclLinks&) = delete;

  void exchange(int axis, const std::array<const void*, 2>& to, const std::array<std::size_t, 2>& to_bytes,
                const std::array<void*, 2>& from, const std::array<std::size_t, 2>& from_bytes,
                void* stream) const override {
    if (grid_[axis] == 1) throw std::logic_error("NcclLinks::exchange along an axis of one rank");
    const auto s = static_cast<cudaStream_t>(stream);
    const int lo = nbr_[axis][0], hi = nbr_[axis][1];
    // One neighbour (two ranks along the axis): both messages go to it and
    // come from it, matched in the order they are posted.
    const bool one = grid_[axis] == 2;
    check(ncclGroupStart(), "ncclGroupStart");
    auto send = [&](const void* p, std::size_t b, int peer) {
      if (b) check(ncclSend(p, b, ncclUint8, peer, comm_, s), "ncclSend");
    };
    auto recv = [&](void* p, std::size_t b, int peer) {
      if (b) check(ncclRecv(p, b, ncclUint8, peer, comm_, s), "ncclRecv");
    };
    send(to[0], to_bytes[0], lo);
    send(to[1], to_bytes[1], one ? lo : hi);
    recv(from[0], from_bytes[0], lo);
    recv(from[1], from_bytes[1], one ? lo : hi);
    check(ncclGroupEnd(), "ncclGroupEnd");
  }

  void sum(double* values, std::size_t n, void* stream) const override {
    check(ncclAllReduce(values, values, n, ncclDouble, ncclSum, comm_, static_cast<cudaStream_t>(stream)),
          "ncclAllReduce");
  }

 private:
  ncclComm_t comm_ = nullptr;
  std::array<std::array<int, 2>, 3> nbr_;
  std::array<int, 3> grid_;
};

}  // namespace

std::unique_ptr<DeviceLinks> make_nccl_links(const DeviceLinksSetup& setup) {
  return std::make_unique<NcclLinks>(setup);
}
bool nccl_available() { return true; }
std::string nccl_version() {
  int v = 0;
  ncclGetVersion(&v);
  // 2.19 and later: major * 10000 + minor * 100 + patch.
  return "NCCL " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}
#else
std::unique_ptr<DeviceLinks> make_nccl_links(const DeviceLinksSetup&) { return nullptr; }
bool nccl_available() { return false; }
std::string nccl_version() { return ""; }
#endif

}  // namespace meso::cuda
