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
//
// This is the storage's side only: which records go where is the
// communicator's plan, and how they travel its transport's (host-staged
// messages for every backend; peer reads or NCCL for a storage that also
// offers PeerGhostOp or DeviceRecordsOp, meso/ops/peer_ghosts.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <memory_resource>
#include <vector>

#include "meso/ops/communicator.hpp"
#include "meso/ops/operation.hpp"

namespace meso {

class PeerGhostOp;
class DeviceRecordsOp;

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

// The leavers of a migration packed on a device (a storage whose records
// move by the communicator's DeviceLinks, --transport nccl): count[0]
// towards lo, then count[1] towards hi, in one device buffer valid until the
// storage's next call.
struct DeviceLeavers {
  std::array<std::size_t, 2> count{0, 0};
  const double* records = nullptr;
};

class DomainStorageOp : public Operation {
 public:
  static constexpr std::size_t kMigrateRecord = 14;  // r, v, v_pred (v without one), image, type, tag
  static constexpr std::size_t kGhostRecord = 8;     // r, v (those the forces read), type, tag
  static constexpr std::size_t kUpdateRecord = 6;    // r, v

  virtual std::size_t n_local() const = 0;
  virtual std::size_t n_ghost() const = 0;

  // The domain this storage holds, told once by the communicator: its cell
  // grid may then cover the domain and its ghost layers only
  // (md_cell_range) rather than the global box.
  virtual void set_domain(const Domain&) {}

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

  // Seconds this storage spent selecting, packing and unpacking, and in
  // host-device copies, since construction (the scaling harness's split).
  virtual double pack_seconds() const = 0;
  virtual double copy_seconds() const { return 0.0; }
  // Where the communicator's message buffers live (the process's default
  // heap unless the storage wants them elsewhere); it outlives them.
  virtual std::pmr::memory_resource* message_memory() { return std::pmr::get_default_resource(); }

  // The storage's sides for the device transports (meso/ops/peer_ghosts.hpp),
  // null where it has none (a host storage): the transport asks here what
  // it can use.
  virtual PeerGhostOp* peer_ghosts() { return nullptr; }
  virtual DeviceRecordsOp* device_records() { return nullptr; }
};

}  // namespace meso
