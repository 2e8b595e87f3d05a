// The GPU ranks' NCCL transport (--transport nccl): DeviceLinks
// (meso/ops/communicator.hpp) over one NCCL communicator of the Cartesian
// grid's ranks, so that device buffers move between GPUs with grouped
// ncclSend/ncclRecv on the operation's stream (NVLink, PCIe or shared
// memory on one node, the network across nodes) and the host never waits
// for them. MPI stays the launcher: it carries NCCL's unique id, the small
// notes of sizes, and every CPU rank's records.
#pragma once

#include <mpi.h>

#include <array>
#include <memory>
#include <string>

#include "meso/ops/communicator.hpp"

namespace meso::scaling {

class NcclLinks final : public DeviceLinks {
 public:
  // Collective over `cart`: every rank drives its own GPU (the current
  // device), else InputError naming the ranks that share one. nbr[axis] =
  // {lower, upper} neighbour, grid: ranks along each axis.
  NcclLinks(MPI_Comm cart, const std::array<std::array<int, 2>, 3>& nbr, const std::array<int, 3>& grid);
  ~NcclLinks() override;
  NcclLinks(const NcclLinks&) = delete;
  NcclLinks& operator=(const NcclLinks&) = delete;

  void exchange(int axis, const std::array<const void*, 2>& to, const std::array<std::size_t, 2>& to_bytes,
                const std::array<void*, 2>& from, const std::array<std::size_t, 2>& from_bytes,
                void* stream) const override;
  void sum(double* values, std::size_t n, void* stream) const override;

  // "NCCL 2.27.7", for the provenance of a point.
  static std::string version();

 private:
  struct Comm;
  std::unique_ptr<Comm> comm_;
  std::array<std::array<int, 2>, 3> nbr_;
  std::array<int, 3> grid_;
};

}  // namespace meso::scaling
