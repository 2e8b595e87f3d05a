// make_transport (transport.hpp): the one place a transport is chosen.
#include "meso/run/backend.hpp"
#include "meso/core/error.hpp"
#include "transport.hpp"

namespace meso::scaling {

std::unique_ptr<RankTransport> make_transport(Transport kind, const TransportSetup& s, Backend& b, bool device) {
  if (s.size == 1) return std::make_unique<HostTransport>(s);  // the whole periodic box: nothing moves
  switch (kind) {
    case Transport::host: return std::make_unique<HostTransport>(s);
    case Transport::ipc: return std::make_unique<IpcTransport>(s);
    case Transport::nccl: break;
  }
  // Collective: every rank attaches the same kind of storage at the same
  // point of the run. MPI carries the setup's collectives.
  if (!device) throw_input_error("--transport nccl moves device buffers: it needs --backend cuda");
  DeviceLinksSetup su;
  su.rank = s.rank;
  su.size = s.size;
  su.neighbours = s.neighbours;
  su.grid = s.grid;
  const MPI_Comm cart = s.cart;
  su.broadcast = [cart](void* bytes, std::size_t n) { MPI_Bcast(bytes, int(n), MPI_BYTE, 0, cart); };
  su.allgather = [cart](const void* mine, void* all, std::size_t n) {
    MPI_Allgather(mine, int(n), MPI_BYTE, all, int(n), MPI_BYTE, cart);
  };
  std::unique_ptr<DeviceLinks> links = b.connect_device_links(su);
  if (!links)
    throw_input_error("--transport nccl: this mesobench was built without NCCL (scripts/install-deps.sh installs "
                      "nvidia-nccl-cu13; configure again)");
  return std::make_unique<NcclTransport>(std::move(links), s, b.variant().solvent_capacity);
}

}  // namespace meso::scaling
