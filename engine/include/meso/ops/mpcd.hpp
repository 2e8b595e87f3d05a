// The operations of the MPCD solvent (HOOMD-blue's mpcd::Integrator:
// streaming method, collision method, sorter), composed by the StepPlan's
// SolventStage (meso/run/solvent_stage.hpp):
//
//   mpcd/stream        r += v dt_c (+ the body force: v += g dt_c, r gets
//                      the g dt_c^2 / 2 term), wrapped with image counts
//                      (across sheared z faces with Lees-Edwards shear)
//   mpcd/sort          the solvent in cell order (variant reorder=cell,
//                      every `sort` collisions), tags travel along
//   mpcd/collide/srd   grid shift, cell list, cell properties (momentum,
//   mpcd/collide/at    mass, kinetic energy), the SRD rotation (optionally
//                      with the cell thermostat) or the AT rule
//
// Every backend that provides these takes the solvent with
// Backend::set_mpcd and gives it back with Backend::get_mpcd.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "meso/ops/domain_storage.hpp"
#include "meso/ops/operation.hpp"

namespace meso {
class Communicator;
}

namespace meso {

class MpcdStreamOp : public Operation {
 public:
  // One collision period dt_c of free streaming, the one that ends at the
  // collision numbered `collision` (1, 2, ...): its time, collision dt_c,
  // places the Lees-Edwards images (MpcdParams::shear).
  virtual void stream(uint64_t collision) = 0;
};

class MpcdSortOp : public Operation {
 public:
  virtual void sort() = 0;
};

class MpcdCollideOp : public Operation {
 public:
  // The collision numbered `step` (1, 2, ...): keys the grid shift, the
  // axes and the thermostat or AT draws.
  virtual void collide(uint64_t step) = 0;
  // On several ranks: the cells the ranks share have their properties
  // combined through `comm` (Communicator::combine_layers). A collision
  // that cannot throws InputError.
  virtual void set_communicator(const Communicator* comm) { (void)comm; }
  // Seconds spent in host-device copies of the shared cells' values on
  // several ranks (the scaling harness's split; 0 where none are needed).
  virtual double copy_seconds() const { return 0.0; }
};

// The solvent's side of domain decomposition (registered as "mpcd/domain"):
// leavers selected and packed along one axis, arrivals appended. A record is
// kRecord doubles: r, v, image, type, tag.
class MpcdDomainOp : public Operation {
 public:
  static constexpr std::size_t kRecord = 11;
  // Removes the particles outside slab [lo, hi) and packs them, those
  // nearer to lo by the periodic offset into to_lo, the rest into to_hi.
  virtual void take_leavers(const DomainSlab& s, Records& to_lo, Records& to_hi) = 0;
  virtual void add_locals(const Records& records) = 0;
  // Seconds of the above spent in host-device copies (on a device).
  virtual double copy_seconds() const { return 0.0; }
  // Where the communicator's message buffers live (DomainStorageOp's).
  virtual std::pmr::memory_resource* message_memory() { return std::pmr::get_default_resource(); }

  // Migration with the records and the solvent's count left on the device
  // (a storage on a GPU, for the communicator's DeviceLinks: --transport
  // nccl), so that nothing in a collision period waits for the device. Along
  // each split axis every rank sends each neighbour one message of
  // message_bytes(capacity): a header record that holds how many records
  // follow, then room for `capacity` of them, the same capacity on every
  // rank. pack_messages removes the leavers and packs them into the two
  // messages (towards lo, then towards hi, back to back); if either side's
  // leavers exceed the capacity, none leave that axis and the overflow is
  // reported. arrivals() is where the neighbours' two messages land, and
  // add_arrivals appends what they hold. end_migration closes one migration
  // (every axis); migration_report gives what the device found in those
  // that have finished since the last report (all, with wait).
  struct MigrationReport {
    uint64_t finished = 0;  // migrations reported
    std::size_t most = 0;   // the most leavers of one message (wanted, not only sent)
    std::size_t strays = 0;    // leavers beyond the neighbour's domain (moved more than a domain)
    std::size_t overflow = 0;  // leavers left in place because a message could not hold them
  };
  virtual bool device_records() const { return false; }
  static constexpr std::size_t message_bytes(std::size_t capacity) {
    return (capacity + 1) * kRecord * sizeof(double);
  }
  virtual const double* pack_messages(const DomainSlab&, std::size_t capacity) {
    (void)capacity;
    throw std::logic_error("mpcd/domain: this storage keeps no records on a device");
  }
  virtual double* arrivals(std::size_t capacity) {
    (void)capacity;
    throw std::logic_error("mpcd/domain: this storage keeps no records on a device");
  }
  virtual void add_arrivals(std::size_t capacity) { (void)capacity; }
  virtual void end_migration() {}
  virtual MigrationReport migration_report(bool wait) {
    (void)wait;
    return {};
  }
  // The most leavers towards either side of slab s now, without moving
  // any (waits for the device): the first capacity.
  virtual std::size_t probe_leavers(const DomainSlab&) { return 0; }
  virtual void* device_stream() { return nullptr; }
};

}  // namespace meso
