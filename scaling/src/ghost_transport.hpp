// How the ghost records of one axis travel between this rank and its two
// neighbours along it. The plan (which particles are whose ghosts, the send
// lists, the message slots: 2 axis from the lower neighbour or the only one,
// 2 axis + 1 from the upper) is the communicator's and the storage's; a
// transport only moves the records, at a list rebuild and at every step
// without one. Host-staged MPI messages serve every backend; peer reads
// between ranks of one node (CUDA IPC) serve a device storage that
// implements PeerGhostOp; device buffers moved by NCCL serve one that
// implements DeviceRecordsOp. (Cabana's Halo/Distributor and HOOMD-blue's
// Communicator/CommunicatorGPU separate the plan from the transport the same
// way.)
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "meso/ops/communicator.hpp"
#include "meso/ops/domain_storage.hpp"
#include "meso/ops/peer_ghosts.hpp"
#include "mpi_links.hpp"

namespace meso::scaling {

class GhostTransport {
 public:
  virtual ~GhostTransport() = default;
  // At a list rebuild: this rank's send lists along l.axis to the
  // neighbours, theirs into this rank's ghosts; returns the ghosts received
  // in slots 2 axis and 2 axis + 1.
  virtual std::array<std::size_t, 2> exchange_ghosts(const AxisLinks& l, const DomainSlab& s) = 0;
  // A step without a rebuild: the positions and velocities of the same
  // particles again. `counts`: the ghosts of the two slots; `half`: which of
  // two alternating buffers this update uses.
  virtual void update_ghosts(const AxisLinks& l, const std::array<std::size_t, 2>& counts, int half) = 0;
};

// MPI messages through host buffers (pinned on a GPU: one copy each way).
class HostGhostTransport final : public GhostTransport {
 public:
  HostGhostTransport(DomainStorageOp& storage, MessageBuffers& msg, double& mpi_s)
      : storage_(storage), msg_(msg), mpi_s_(mpi_s) {}
  std::array<std::size_t, 2> exchange_ghosts(const AxisLinks& l, const DomainSlab& s) override;
  void update_ghosts(const AxisLinks& l, const std::array<std::size_t, 2>& counts, int half) override;

 private:
  DomainStorageOp& storage_;
  MessageBuffers& msg_;
  double& mpi_s_;
};

// Peer reads between ranks of one node: the records stay in device buffers
// the neighbours map (PeerGhostOp); MPI carries only small notes (counts,
// buffer handles, "packed"). The first exchange of a run goes through the
// host; connect() then decides, with every rank, whether an axis goes GPU
// to GPU from the next exchange on.
class PeerGhostTransport final : public GhostTransport {
 public:
  PeerGhostTransport(PeerGhostOp& peer, double& mpi_s) : peer_(peer), mpi_s_(mpi_s) {}
  std::array<std::size_t, 2> exchange_ghosts(const AxisLinks& l, const DomainSlab& s) override;
  void update_ghosts(const AxisLinks& l, const std::array<std::size_t, 2>& counts, int half) override;
  // Collective over l.cart: whether every rank's neighbours along l.axis
  // share its node (`neighbours_on_node`: this rank's) and every update buffer
  // maps; exchanges the update buffers' handles when they do.
  bool connect(const AxisLinks& l, bool neighbours_on_node);
  // Packs this step's update of l.axis right after the first half-step (the
  // wait for the step's control covers it); pull_packed then reads the
  // neighbours' buffers instead of update_ghosts.
  void pack_early(const AxisLinks& l, int half);
  void pull_packed(const AxisLinks& l, int half);

 private:
  PeerGhostOp& peer_;
  double& mpi_s_;
};

// Device buffers moved by the communicator's DeviceLinks (NCCL: NVLink,
// PCIe or shared memory on one node, the network across nodes): a device
// storage that implements DeviceRecordsOp packs and unpacks on its stream,
// and the host waits only for the ghost counts at an exchange (a note of
// two counts to each neighbour through MPI sizes the messages). An update
// is enqueued whole: pack, grouped send and receive, unpack.
class DeviceGhostTransport final : public GhostTransport {
 public:
  DeviceGhostTransport(DomainStorageOp& storage, DeviceRecordsOp& dev, const DeviceLinks& links, double& mpi_s)
      : storage_(storage), dev_(dev), links_(links), mpi_s_(mpi_s) {}
  std::array<std::size_t, 2> exchange_ghosts(const AxisLinks& l, const DomainSlab& s) override;
  void update_ghosts(const AxisLinks& l, const std::array<std::size_t, 2>& counts, int half) override;

 private:
  DomainStorageOp& storage_;
  DeviceRecordsOp& dev_;
  const DeviceLinks& links_;
  double& mpi_s_;
};

// The two counts this rank sends each neighbour along l, exchanged through
// MPI (tag `tag`, `tag` + 1): returns what arrives in DeviceLinks' from[0]
// and from[1] (from the lower neighbour its count[1], from the upper its
// count[0]; one neighbour: both of its counts, in order).
std::array<std::size_t, 2> exchange_counts(const AxisLinks& l, const std::array<std::size_t, 2>& count, int tag,
                                           double& mpi_s);

}  // namespace meso::scaling
