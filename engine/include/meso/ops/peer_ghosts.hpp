// What a device storage offers a transport that moves ghost records between
// ranks of one node without the host (CUDA IPC: peer reads over NVLink or
// PCIe). A backend's "domain" operation (DomainStorageOp) that can do so
// also implements this interface; the communicator finds it there and
// otherwise, or where a mapping fails, sends every record through host
// buffers. Buffers cross ranks as opaque handles (the communicator sends
// them in its MPI notes); the storage exports its own and maps the
// neighbours'.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "meso/ops/domain_storage.hpp"

namespace meso {

class PeerGhostOp {
 public:
  virtual ~PeerGhostOp() = default;

  // The ghost exchange at a list rebuild: select_ghosts, with the records of
  // both send lists packed into a device buffer of this storage's for axis
  // s.axis (send list 2 axis first, n_lo records, then 2 axis + 1, n_hi),
  // kept until the next exchange along that axis; returns its handle for
  // the neighbours. Waits until the records are there.
  virtual std::vector<unsigned char> select_ghosts_peer(const DomainSlab& s, bool one_neighbour, std::size_t& n_lo,
                                                        std::size_t& n_hi) = 0;
  // add_ghosts of the records [first, first + count) of a neighbour's buffer
  // (its handle); throws where it cannot be mapped.
  virtual void add_ghosts_peer(int slot, const std::vector<unsigned char>& handle, std::size_t first,
                               std::size_t count) = 0;

  // Ghost updates: each send list is packed into a device buffer of this
  // storage's, in two halves used by alternate updates, and the receiving
  // rank reads it straight into its ghosts.
  // After a ghost exchange: the buffer of send list `slot`, sized for its
  // count, as a handle for the rank the list goes to.
  virtual std::vector<unsigned char> export_update(int slot) = 0;
  // The neighbour's buffer that fills the ghosts of message `slot`; false
  // when it cannot be mapped here.
  virtual bool import_update(int slot, const std::vector<unsigned char>& handle) = 0;
  // Packs send list `slot` into half `half` of its buffer (enqueued: the
  // device may still be packing on return).
  virtual void pack_update_peer(int slot, int half) = 0;
  // Waits until the packs enqueued so far are in their buffers (before the
  // neighbours are told).
  virtual void wait_packed() = 0;
  // Reads half `half` of the imported buffer into the ghosts of `slot`
  // (enqueued before the forces, which read the ghosts after it).
  virtual void pull_update(int slot, int half) = 0;
};

// What a device storage offers a transport that moves device buffers
// itself (the communicator's DeviceLinks: NCCL, --transport nccl): every
// message's records packed into and unpacked from device memory, enqueued
// on device_stream(), the host waiting only for the counts that size the
// messages. The CUDA backend's "domain" operation implements it beside
// PeerGhostOp.
class DeviceRecordsOp {
 public:
  virtual ~DeviceRecordsOp() = default;
  virtual void* device_stream() = 0;
  // Migration (after clear_ghosts): take_leavers with the records (of
  // kMigrateRecord doubles) left on the device; then a device buffer for
  // `records` arriving records of `width` doubles, and the arrivals
  // appended as local particles.
  virtual DeviceLeavers take_leavers_device(const DomainSlab& s) = 0;
  virtual double* arrivals(std::size_t records, std::size_t width) = 0;
  virtual void add_locals_device(std::size_t records) = 0;
  // The ghost exchange at a list rebuild: select_ghosts with the records of
  // both send lists (list 2 axis first) in one device buffer; then the
  // arrivals of message `slot`, `first` records into arrivals(), appended
  // as ghosts.
  virtual const double* select_ghosts_device(const DomainSlab& s, bool one_neighbour, std::size_t& n_lo,
                                             std::size_t& n_hi) = 0;
  virtual void add_ghosts_device(int slot, std::size_t first, std::size_t count) = 0;
  // Ghost updates: send lists 2 axis and 2 axis + 1 packed into one device
  // buffer (update_record() doubles a particle; returned with the two
  // counts), and the neighbours' updates, received into arrivals(), unpacked
  // into the ghosts of messages 2 axis and 2 axis + 1.
  virtual const double* pack_updates_device(int axis, std::array<std::size_t, 2>& count) = 0;
  virtual void unpack_updates_device(int axis, const std::array<std::size_t, 2>& count) = 0;
};

}  // namespace meso
