// HostTransport (transport.hpp): every record through host-staged MPI
// messages (IpcTransport inherits its migrations).
#include "transport.hpp"

namespace meso::scaling {
namespace {

// Migration through the host (the MD particles' DomainStorageOp or the
// solvent's MpcdDomainOp): leavers taken, exchanged (message tags of `tag`)
// and appended, axis by axis; selection and packing time into pack_s.
template <class Store>
void migrate_through_host(Store& store, const SplitAxes& axes, MessageBuffers& msg, MpiTag tag, double& pack_s,
                          double& mpi_s) {
  for (const SplitAxis& ax : axes) {
    msg.send[0].clear();
    msg.send[1].clear();
    {
      MpiTimer t{pack_s};
      store.take_leavers(ax.slab, msg.send[0], msg.send[1]);
      if (ax.links.one) {  // one neighbour: both directions in one message
        msg.send[0].insert(msg.send[0].end(), msg.send[1].begin(), msg.send[1].end());
        msg.send[1].clear();
      }
    }
    exchange_records(ax.links, msg.send[0], msg.send[1], msg.recv, tag_of(tag, ax.links.axis), mpi_s);
    MpiTimer t{pack_s};
    store.add_locals(msg.recv[0]);
    store.add_locals(msg.recv[1]);
  }
}

}  // namespace

void HostTransport::attach(DomainStorageOp& storage, MessageBuffers& msg) {
  storage_ = &storage;
  msg_ = &msg;
  host_ = std::make_unique<HostGhostTransport>(storage, msg, mpi_s_);
}

void HostTransport::attach_solvent(MpcdDomainOp& solvent, MessageBuffers& msg) {
  solvent_ = &solvent;
  msg_ = &msg;
}

void HostTransport::migrate(const SplitAxes& axes) {
  double timed_by_the_storage = 0.0;  // DomainStorageOp::pack_seconds
  migrate_through_host(*storage_, axes, *msg_, MpiTag::migrate, timed_by_the_storage, mpi_s_);
}

void exchange_each_axis(GhostTransport& mover, const SplitAxes& axes, std::array<std::size_t, 6>& received) {
  for (const SplitAxis& ax : axes) {
    const std::array<std::size_t, 2> n = mover.exchange_ghosts(ax.links, ax.slab);
    received[2 * ax.links.axis] = n[0];
    received[2 * ax.links.axis + 1] = n[1];
  }
}

// The host's and the device links' movers keep no halves: `half` 0.
void update_each_axis(GhostTransport& mover, const SplitAxes& axes, const std::array<std::size_t, 6>& received) {
  for (const SplitAxis& ax : axes) {
    const int a = ax.links.axis;
    mover.update_ghosts(ax.links, {received[2 * a], received[2 * a + 1]}, 0);
  }
}

bool HostTransport::exchange_ghosts(const SplitAxes& axes, std::array<std::size_t, 6>& received) {
  exchange_each_axis(*host_, axes, received);
  return false;
}

bool HostTransport::update_ghosts(const SplitAxes& axes, const std::array<std::size_t, 6>& received) {
  update_each_axis(*host_, axes, received);
  return false;
}

void HostTransport::migrate_solvent(const SplitAxes& axes) {
  migrate_through_host(*solvent_, axes, *msg_, MpiTag::solvent_migrate, solvent_pack_s_, mpi_s_);
}

}  // namespace meso::scaling
