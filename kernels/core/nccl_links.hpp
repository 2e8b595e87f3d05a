// The CUDA backend's DeviceLinks (meso/ops/communicator.hpp): one NCCL
// communicator over the rank grid, so that device buffers move between GPUs
// by grouped ncclSend/ncclRecv on the operation's stream (NVLink, PCIe or
// shared memory on one node, the network across nodes) and the host never
// waits for them; the GPU ranks' --transport nccl (docs/scaling.md). The
// communicator's host transport (MPI) stays the launcher: it carries NCCL's
// unique id and tells the ranks' GPUs apart (DeviceLinksSetup's
// collectives), so nothing here includes MPI.
#pragma once

#include <memory>

#include "meso/ops/communicator.hpp"

namespace meso::cuda {

// Collective over setup's ranks; each drives its own GPU (the current
// device), else InputError naming the ranks that share one. Null in a build
// without NCCL.
std::unique_ptr<DeviceLinks> make_nccl_links(const DeviceLinksSetup& setup);

}  // namespace meso::cuda
