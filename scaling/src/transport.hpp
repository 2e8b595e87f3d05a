// How a multi-rank run's records travel between this rank and its
// neighbours. The plan (MpiCommunicator: the rank grid, which axes are
// split, each one's neighbours and slab, which particles leave and which are
// whose ghosts, the order of the axes) asks make_transport once for the
// transport of --transport and the backend's storage, and then calls it
// with no question about its kind (Cabana separates its Halo and
// Distributor plans from the communication the same way; HOOMD-blue's
// Communicator and CommunicatorGPU):
//   HostTransport  host-staged MPI messages: every backend, --transport host
//                  (host_transport.cpp);
//   IpcTransport   the MD ghosts GPU to GPU between ranks of one node (CUDA
//                  IPC, where the storage offers PeerGhostOp), every other
//                  record through the host (ipc_transport.cpp);
//   NcclTransport  NCCL on the device streams: the MD particles' migration
//                  and ghosts, the solvent's migration, and the device links
//                  the solvent's cell layers take (nccl_transport.cpp).
// The per-axis movers of ghost records they use are ghost_transport.hpp's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ghost_transport.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/ops/domain_storage.hpp"
#include "meso/ops/mpcd.hpp"
#include "meso/scaling/mpi_communicator.hpp"
#include "mpi_links.hpp"

namespace meso {
class Backend;
}

namespace meso::scaling {

// One split axis of the plan: its neighbours and this rank's slab along it.
struct SplitAxis {
  AxisLinks links;
  DomainSlab slab;
};
// The split axes in the order records travel (x, then y, then z), so that
// later axes forward the ghosts of edges and corners.
using SplitAxes = std::vector<SplitAxis>;

class RankTransport {
 public:
  virtual ~RankTransport() = default;
  // The MD particles' storage, at every attach (a new system replaces it),
  // and the solvent's; `msg`: the plan's host message buffers (replaced
  // with the MD storage).
  virtual void attach(DomainStorageOp& storage, MessageBuffers& msg) = 0;
  virtual void attach_solvent(MpcdDomainOp& solvent, MessageBuffers& msg) = 0;
  // The MD particles' migration (their ghosts dropped), axis after axis.
  virtual void migrate(const SplitAxes& axes) = 0;
  // The ghost exchange at a list rebuild: the ghosts received into message
  // slots 2 axis (from the lower neighbour, or the only one) and 2 axis + 1
  // (from the upper one); true when an axis went GPU to GPU.
  virtual bool exchange_ghosts(const SplitAxes& axes, std::array<std::size_t, 6>& received) = 0;
  // Communicator::begin_update.
  virtual void begin_update(const SplitAxes& axes) { (void)axes; }
  // A step without a rebuild: the same ghosts' positions and velocities;
  // true when an axis went GPU to GPU.
  virtual bool update_ghosts(const SplitAxes& axes, const std::array<std::size_t, 6>& received) = 0;
  // Communicator::updates_without_vote.
  virtual bool updates_without_vote() const { return false; }
  // The solvent's migration, and Communicator::settle_solvent.
  virtual void migrate_solvent(const SplitAxes& axes) = 0;
  virtual void settle_solvent(const SplitAxes& axes) { (void)axes; }
  // Links that move device buffers (the solvent's cell layers combined on
  // the device), or null: the layers then go through combine_layers.
  virtual const DeviceLinks* device_links() const { return nullptr; }
};

// What the transports need of the plan: the grid and this rank's place in
// it, the nodes of the ranks, and where to add the seconds they spend
// inside MPI and on the solvent (the plan's times()).
struct TransportSetup {
  MPI_Comm cart = MPI_COMM_NULL;
  int rank = 0, size = 1;
  std::array<std::array<int, 2>, 3> neighbours{};  // [axis] = {lower, upper}
  std::array<int, 3> grid{1, 1, 1};
  std::vector<int> node_of;  // per rank: the lowest rank of its node
  double* mpi_s = nullptr;
  double* solvent_pack_s = nullptr;
};

// Host-staged MPI messages for every record (the storage's message memory:
// pinned host memory on a GPU).
class HostTransport : public RankTransport {
 public:
  explicit HostTransport(const TransportSetup& s) : mpi_s_(*s.mpi_s), solvent_pack_s_(*s.solvent_pack_s) {}
  void attach(DomainStorageOp& storage, MessageBuffers& msg) override;
  void attach_solvent(MpcdDomainOp& solvent, MessageBuffers& msg) override;
  void migrate(const SplitAxes& axes) override;
  bool exchange_ghosts(const SplitAxes& axes, std::array<std::size_t, 6>& received) override;
  bool update_ghosts(const SplitAxes& axes, const std::array<std::size_t, 6>& received) override;
  void migrate_solvent(const SplitAxes& axes) override;

 protected:
  DomainStorageOp* storage_ = nullptr;
  MpcdDomainOp* solvent_ = nullptr;
  MessageBuffers* msg_ = nullptr;
  std::unique_ptr<HostGhostTransport> host_;
  double& mpi_s_;
  double& solvent_pack_s_;
};

// The host's transport, with the MD ghosts read GPU to GPU along the axes
// where every rank's neighbours share its node and map its buffers (decided
// by all ranks together at each ghost exchange; the first goes through the
// host). Without a storage that offers PeerGhostOp, the host's transport.
class IpcTransport final : public HostTransport {
 public:
  explicit IpcTransport(const TransportSetup& s) : HostTransport(s), rank_(s.rank), node_of_(s.node_of) {}
  void attach(DomainStorageOp& storage, MessageBuffers& msg) override;
  bool exchange_ghosts(const SplitAxes& axes, std::array<std::size_t, 6>& received) override;
  void begin_update(const SplitAxes& axes) override;
  bool update_ghosts(const SplitAxes& axes, const std::array<std::size_t, 6>& received) override;

 private:
  int rank_;
  std::vector<int> node_of_;
  std::unique_ptr<PeerGhostTransport> peer_;  // null unless the storage offers PeerGhostOp
  std::array<bool, 3> peer_axis_{};  // per axis: ghosts GPU to GPU (decided at the last exchange)
  uint64_t updates_done_ = 0;        // the half of the buffers the next update uses
  int early_axis_ = -1;              // the split axis begin_update packed (-1: none)
  // Decides the peer transport for the axes not `settled` (those exchanged
  // GPU to GPU, whose update handles travelled with the ghosts).
  void connect_peer_axes(const SplitAxes& axes, const std::array<bool, 3>& settled);
};

// Every record on the device, moved by the backend's DeviceLinks (NCCL);
// the host waits only for the counts that size the MD messages, and for
// nothing in a solvent collision period.
class NcclTransport final : public RankTransport {
 public:
  NcclTransport(std::unique_ptr<DeviceLinks> links, const TransportSetup& s, std::size_t fixed_solvent_capacity)
      : links_(std::move(links)),
        cart_(s.cart),
        mpi_s_(*s.mpi_s),
        solvent_pack_s_(*s.solvent_pack_s),
        solvent_fixed_capacity_(fixed_solvent_capacity) {}
  void attach(DomainStorageOp& storage, MessageBuffers& msg) override;
  void attach_solvent(MpcdDomainOp& solvent, MessageBuffers& msg) override;
  void migrate(const SplitAxes& axes) override;
  bool exchange_ghosts(const SplitAxes& axes, std::array<std::size_t, 6>& received) override;
  bool update_ghosts(const SplitAxes& axes, const std::array<std::size_t, 6>& received) override;
  bool updates_without_vote() const override { return ghosts_ != nullptr; }
  void migrate_solvent(const SplitAxes& axes) override;
  void settle_solvent(const SplitAxes& axes) override;
  const DeviceLinks* device_links() const override { return links_.get(); }

 private:
  std::unique_ptr<DeviceLinks> links_;
  MPI_Comm cart_;
  double& mpi_s_;
  double& solvent_pack_s_;
  DomainStorageOp* storage_ = nullptr;
  DeviceRecordsOp* records_ = nullptr;            // the MD storage's device side
  std::unique_ptr<DeviceGhostTransport> ghosts_;  // the MD ghosts
  MpcdDomainOp* solvent_ = nullptr;
  // The solvent's messages hold solvent_capacity_ records, agreed by all
  // ranks from the reports every kCapacityEvery migrations (agree_solvent),
  // or fixed (the variant's solvent_capacity, for tests and measurements).
  static constexpr uint64_t kCapacityEvery = 8;
  std::size_t solvent_capacity_ = 0;
  std::size_t solvent_fixed_capacity_ = 0;
  // Reported since the last agreement: the most leavers of one message,
  // the strays and the overflowed leavers.
  std::size_t solvent_most_ = 0, solvent_strays_ = 0, solvent_overflow_ = 0;
  uint64_t solvent_migrations_ = 0;
  // Takes the solvent's reports (all, waiting, with `wait`), then over the
  // ranks: a fault stops every rank, and the capacity is set anew.
  void agree_solvent(const SplitAxes& axes, bool wait);
  // The reports of finished migrations (all, waiting, with `wait`) into the counts above.
  void take_solvent_reports(bool wait);
};

// Each split axis's ghosts through one mover, in order: at a rebuild, the
// counts received into their message slots; then the updates.
void exchange_each_axis(GhostTransport& mover, const SplitAxes& axes, std::array<std::size_t, 6>& received);
void update_each_axis(GhostTransport& mover, const SplitAxes& axes, const std::array<std::size_t, 6>& received);

// The transport of `kind` (one rank: the host's, which moves nothing). Made
// once, when the first storage is attached; `device`: whether that storage
// lives on a GPU. --transport nccl connects the backend's DeviceLinks over
// the grid here (collective), and is refused for a storage off the device
// or a build without NCCL (InputError).
std::unique_ptr<RankTransport> make_transport(Transport kind, const TransportSetup& setup, Backend& b, bool device);

}  // namespace meso::scaling
