#include "nccl_links.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "meso/error.hpp"

namespace meso::scaling {
namespace {

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess && r != ncclInProgress)
    throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(r) + " (NCCL_DEBUG=WARN says more)");
}

// Where this rank's GPU is: host name and PCI bus id.
struct GpuPlace {
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  char bus[32] = {};
};

}  // namespace

struct NcclLinks::Comm {
  ncclComm_t c = nullptr;
};

NcclLinks::NcclLinks(MPI_Comm cart, const std::array<std::array<int, 2>, 3>& nbr, const std::array<int, 3>& grid)
    : comm_(std::make_unique<Comm>()), nbr_(nbr), grid_(grid) {
  int rank = 0, size = 1;
  MPI_Comm_rank(cart, &rank);
  MPI_Comm_size(cart, &size);
  // NCCL's communicator wants a GPU per rank; say which ranks share one
  // before NCCL fails with "duplicate GPU" on some ranks only.
  GpuPlace me;
  int len = 0;
  MPI_Get_processor_name(me.host, &len);
  int dev = 0;
  const cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) cudaDeviceGetPCIBusId(me.bus, sizeof me.bus, dev);
  std::vector<GpuPlace> all(size);
  MPI_Allgather(&me, sizeof me, MPI_BYTE, all.data(), sizeof me, MPI_BYTE, cart);
  for (int i = 0; i < size; ++i)
    for (int j = i + 1; j < size; ++j)
      if (std::strcmp(all[i].host, all[j].host) == 0 && std::strcmp(all[i].bus, all[j].bus) == 0)
        throw_input_error("--transport nccl needs a GPU of its own for every rank: ranks ", i, " and ", j,
                          " share GPU ", all[i].bus[0] ? all[i].bus : "(none)", " on ", all[i].host,
                          "; run as many ranks as GPUs, or use --transport ipc");
  // Point-to-point messages never use NVLink multicast (NVLS), which serves
  // collectives; keep it off unless the user set it.
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  ncclUniqueId id;
  if (rank == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, cart);
  check(ncclCommInitRank(&comm_->c, size, id, rank), "ncclCommInitRank");
}

NcclLinks::~NcclLinks() {
  if (comm_ && comm_->c) ncclCommDestroy(comm_->c);
}

void NcclLinks::exchange(int axis, const std::array<const void*, 2>& to, const std::array<std::size_t, 2>& to_bytes,
                         const std::array<void*, 2>& from, const std::array<std::size_t, 2>& from_bytes,
                         void* stream) const {
  if (grid_[axis] == 1) throw std::logic_error("NcclLinks::exchange along an axis of one rank");
  const auto s = static_cast<cudaStream_t>(stream);
  const int lo = nbr_[axis][0], hi = nbr_[axis][1];
  // One neighbour (two ranks along the axis): both messages go to it and
  // come from it, matched in the order they are posted.
  const bool one = grid_[axis] == 2;
  check(ncclGroupStart(), "ncclGroupStart");
  auto send = [&](const void* p, std::size_t b, int peer) {
    if (b) check(ncclSend(p, b, ncclUint8, peer, comm_->c, s), "ncclSend");
  };
  auto recv = [&](void* p, std::size_t b, int peer) {
    if (b) check(ncclRecv(p, b, ncclUint8, peer, comm_->c, s), "ncclRecv");
  };
  send(to[0], to_bytes[0], lo);
  send(to[1], to_bytes[1], one ? lo : hi);
  recv(from[0], from_bytes[0], lo);
  recv(from[1], from_bytes[1], one ? lo : hi);
  check(ncclGroupEnd(), "ncclGroupEnd");
}

void NcclLinks::sum(double* values, std::size_t n, void* stream) const {
  check(ncclAllReduce(values, values, n, ncclDouble, ncclSum, comm_->c, static_cast<cudaStream_t>(stream)),
        "ncclAllReduce");
}

std::string NcclLinks::version() {
  int v = 0;
  ncclGetVersion(&v);
  // 2.19 and later: major * 10000 + minor * 100 + patch.
  return "NCCL " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

}  // namespace meso::scaling
