// What a backend provides so that a Communicator can move its particles
// between ranks (HOOMD-blue's Communicator / CommunicatorGPU split: the
// communicator decides who sends what to whom and moves the bytes, the
// backend selects, packs and unpacks in its own storage, on the device where
// it has one). Registered by each backend as the operation "domain".
//
// Particles are stored local first, then ghosts (ParticleData). Positions of
// ghosts are the owner's positions, wrapped into the global box like every
// position: the operations take separations by minimum image, so a ghost
// needs no shift, only a copy. The communicator makes sure that no particle
// reaches a rank twice (domain grid along an axis of two ranks: one
// neighbour, one message).
//
// Records are packed as doubles: a migrating particle carries its whole
// state (kMigrateRecord values), a ghost what the forces read
// (kGhostRecord), a ghost update the position and the velocity the forces
// read (kUpdateRecord).
#pragma once

#include <cstddef>
#include <memory_resource>
#include <stdexcept>
#include <vector>

#include "meso/ops/operation.hpp"

namespace meso {

// One axis of the domain along which particles are selected: the owned
// interval [lo, hi) of the wrapped coordinate, in a periodic box of length L.
struct DomainSlab {
  int axis = 0;         // 0, 1, 2
  double lo = 0.0, hi = 0.0;
  double length = 0.0;  // the global box's length along axis
  double width = 0.0;   // ghost layer width (r_c + skin), for ghost selection
  // Coordinate relative to lo, folded into [0, length).
  double offset(double x) const {
    double u = x - lo;
    if (u < 0.0) u += length;
    if (u >= length) u -= length;
    return u;
  }
};

// The records of one message. Their memory comes from the storage
// (message_memory): pinned host memory on a GPU, so that the device copies
// the records straight into the buffers MPI sends from.
using Records = std::pmr::vector<double>;

class DomainStorageOp : public Operation {
 public:
  static constexpr std::size_t kMigrateRecord = 14;  // r, v, v_pred (v without one), image, type, tag
  static constexpr std::size_t kGhostRecord = 8;     // r, v (those the forces read), type, tag
  static constexpr std::size_t kUpdateRecord = 6;    // r, v

  virtual std::size_t n_local() const = 0;
  virtual std::size_t n_ghost() const = 0;

  // Drops every ghost (before migration and reordering).
  virtual void clear_ghosts() = 0;
  // Removes the local particles outside slab [lo, hi) and packs them: those
  // nearer to lo by the periodic offset into to_lo, the rest into to_hi.
  virtual void take_leavers(const DomainSlab& s, Records& to_lo, Records& to_hi) = 0;
  // Appends received particles as local ones.
  virtual void add_locals(const Records& records) = 0;

  // Ghost selection along s.axis among every stored particle (locals and
  // the ghosts of earlier axes, so that edges and corners are forwarded):
  // offset < width goes to the lower neighbour (send list 2 axis), offset >=
  // (hi - lo) - width to the upper one (send list 2 axis + 1); with
  // `one_neighbour` (two ranks along the axis) the union goes once, to send
  // list 2 axis. The lists are kept for update_ghosts until the next clear.
  virtual void select_ghosts(const DomainSlab& s, bool one_neighbour, Records& to_lo,
                             Records& to_hi) = 0;
  // Appends received ghosts; `slot` (0..5) names the message (2 axis + the
  // side it came from), whose range of ghosts the updates refresh.
  virtual void add_ghosts(int slot, const Records& records) = 0;

  // Every step without a rebuild: the positions and velocities of send list
  // `slot`, and their unpacking into the ghosts of message `slot`.
  // A storage of fp32 positions and velocities (the CUDA backend in mixed
  // or single precision) packs an update as six floats in the bytes of three
  // doubles (update_record() = 3): exact, and half the bytes every step.
  virtual void pack_update(int slot, Records& out) = 0;
  virtual void unpack_update(int slot, const Records& in) = 0;
  // Doubles per particle of an update message.
  virtual std::size_t update_record() const { return kUpdateRecord; }

  // Ghost updates between ranks of one node without the host (CUDA IPC:
  // peer reads over NVLink or PCIe): each send list is packed into a device
  // buffer of this storage's, in two halves used by alternate updates, and
  // the receiving rank reads it straight into its ghosts. A storage that
  // cannot (the CPU reference) says peer_updates() false; the communicator
  // then, or where a mapping fails, sends updates through the host.
  virtual bool peer_updates() const { return false; }
  // After a ghost exchange: the buffer of send list `slot`, sized for its
  // count, as an opaque handle for the rank the list goes to.
  virtual std::vector<unsigned char> export_update(int slot) {
    (void)slot;
    return {};
  }
  // The neighbour's buffer that fills the ghosts of message `slot`; false
  // when it cannot be mapped here.
  virtual bool import_update(int slot, const std::vector<unsigned char>& handle) {
    (void)slot, (void)handle;
    return false;
  }
  // Packs send list `slot` into half `half` of its buffer (enqueued: the
  // device may still be packing on return).
  virtual void pack_update_peer(int slot, int half) { (void)slot, (void)half; }
  // Waits until the packs enqueued so far are in their buffers (before the
  // neighbours are told).
  virtual void wait_packed() {}
  // Reads half `half` of the imported buffer into the ghosts of `slot`
  // (enqueued before the forces, which read the ghosts after it).
  virtual void pull_update(int slot, int half) { (void)slot, (void)half; }

  // The ghost exchange at a list rebuild between ranks of one node, as
  // the updates (peer reads): select_ghosts, with the records of both send
  // lists packed into a device buffer of this storage's for axis s.axis
  // (send list 2 axis first, n_lo records, then 2 axis + 1, n_hi), kept
  // until the next exchange along that axis; returns its handle for the
  // neighbours. Waits until the records are there.
  virtual std::vector<unsigned char> select_ghosts_peer(const DomainSlab& s, bool one_neighbour, std::size_t& n_lo,
                                                        std::size_t& n_hi);
  // add_ghosts of the records [first, first + count) of a neighbour's
  // buffer (its handle); throws where it cannot be mapped.
  virtual void add_ghosts_peer(int slot, const std::vector<unsigned char>& handle, std::size_t first,
                               std::size_t count);

  // Seconds this storage spent selecting, packing and unpacking, and in
  // host-device copies, since construction (the scaling harness's split).
  virtual double pack_seconds() const = 0;
  virtual double copy_seconds() const { return 0.0; }
  // Where the communicator's message buffers live (the process's default
  // heap unless the storage wants them elsewhere); it outlives them.
  virtual std::pmr::memory_resource* message_memory() { return std::pmr::get_default_resource(); }
};

inline std::vector<unsigned char> DomainStorageOp::select_ghosts_peer(const DomainSlab&, bool, std::size_t&,
                                                                      std::size_t&) {
  throw std::logic_error("domain storage: no peer ghost exchange in this backend (peer_updates() is false)");
}
inline void DomainStorageOp::add_ghosts_peer(int, const std::vector<unsigned char>&, std::size_t, std::size_t) {
  throw std::logic_error("domain storage: no peer ghost exchange in this backend (peer_updates() is false)");
}

}  // namespace meso
