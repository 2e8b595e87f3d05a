// IpcTransport (transport.hpp): the host's transport, with the MD ghosts
// read GPU to GPU between ranks of one node (PeerGhostTransport).
#include <algorithm>

#include "transport.hpp"

namespace meso::scaling {

// A storage that can read its neighbours' device memory (CUDA IPC) also
// offers the peer transport; every other goes through the host.
void IpcTransport::attach(DomainStorageOp& storage, MessageBuffers& msg) {
  HostTransport::attach(storage, msg);
  peer_.reset();
  if (PeerGhostOp* p = storage.peer_ghosts()) peer_ = std::make_unique<PeerGhostTransport>(*p, mpi_s_);
}

// The first exchange goes through the host and decides (connect_peer_axes)
// per axis whether ranks may read each other's device buffers; from then on
// the records of those axes go GPU to GPU (a mapping that fails later is an
// error: the ranks and their GPUs have not changed).
bool IpcTransport::exchange_ghosts(const SplitAxes& axes, std::array<std::size_t, 6>& received) {
  early_axis_ = -1;  // the update begun this step is dropped: a rebuild replaces it
  const std::array<bool, 3> peer = peer_axis_;  // decided at the last exchange
  for (const SplitAxis& ax : axes) {
    const int a = ax.links.axis;
    GhostTransport& t = peer[a] ? static_cast<GhostTransport&>(*peer_) : *host_;
    const std::array<std::size_t, 2> n = t.exchange_ghosts(ax.links, ax.slab);
    received[2 * a] = n[0];
    received[2 * a + 1] = n[1];
  }
  connect_peer_axes(axes, peer);
  return std::find(peer.begin(), peer.end(), true) != peer.end();
}

// Peer updates along an axis need every rank's neighbours along it on its
// node and every mapping to succeed: decided by all ranks together (a rank
// and its neighbour must agree), at every ghost exchange, since the send
// lists' buffers may have grown. Axes `settled` were exchanged GPU to GPU:
// their update handles came with the ghosts.
void IpcTransport::connect_peer_axes(const SplitAxes& axes, const std::array<bool, 3>& settled) {
  if (!peer_) return;  // the storage reads no neighbour's memory
  for (int a = 0; a < 3; ++a)
    if (!settled[a]) peer_axis_[a] = false;
  for (const SplitAxis& ax : axes) {
    const int a = ax.links.axis;
    if (settled[a]) continue;
    const bool on_node = node_of_[ax.links.lo] == node_of_[rank_] && node_of_[ax.links.hi] == node_of_[rank_];
    peer_axis_[a] = peer_->connect(ax.links, on_node);
  }
}

// Only the first split axis: the later ones forward ghosts that the
// earlier axes' updates refresh, so they pack after those reads.
void IpcTransport::begin_update(const SplitAxes& axes) {
  early_axis_ = -1;
  if (axes.empty() || !peer_axis_[axes.front().links.axis]) return;
  peer_->pack_early(axes.front().links, int(updates_done_ % 2));
  early_axis_ = axes.front().links.axis;
}

bool IpcTransport::update_ghosts(const SplitAxes& axes, const std::array<std::size_t, 6>& received) {
  const int half = int(updates_done_++ % 2);
  bool peer = false;
  for (const SplitAxis& ax : axes) {
    const int a = ax.links.axis;
    const std::array<std::size_t, 2> counts = {received[2 * a], received[2 * a + 1]};
    if (!peer_axis_[a]) {
      host_->update_ghosts(ax.links, counts, half);
      continue;
    }
    peer = true;
    if (early_axis_ == a)
      // Packed by begin_update, and the rebuild decision since (a collective
      // every rank enters after waiting for its device) says that every
      // rank's packs are done and, as the transport's "packed" note does,
      // that its reads of the last update are.
      peer_->pull_packed(ax.links, half);
    else
      peer_->update_ghosts(ax.links, counts, half);
  }
  early_axis_ = -1;
  return peer;
}

}  // namespace meso::scaling
