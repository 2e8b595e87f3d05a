// The run loop of an MPCD solvent on its own (the srd-fluid workload and the
// SRD validation cases): per collision period, stream, sort when due, collide
// (HOOMD-blue's mpcd::Integrator with period 1). The operations come from the
// backend by name (meso/ops/mpcd.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "meso/backend.hpp"
#include "meso/mpcd.hpp"
#include "meso/ops/mpcd.hpp"

namespace meso {

class MpcdSimulation {
 public:
  // Loads the solvent into the backend and creates its operations; with
  // variant reorder=cell and sort=N > 0 (on a backend that honours them) the
  // solvent is sorted into cell order every N collisions.
  MpcdSimulation(std::unique_ptr<Backend> backend, const MpcdSystem& sys);

  // Advances ncollisions collision periods; calls on_sample every
  // sample_every collisions when sample_every > 0.
  void run(uint64_t ncollisions, uint64_t sample_every = 0,
           const std::function<void(const MpcdThermo&)>& on_sample = {});

  uint64_t step() const { return step_; }
  const MpcdSystem& system() const { return sys_; }
  Backend& backend() { return *backend_; }
  MpcdParticles particles() const;  // tag order
  MpcdThermo thermo() const;

  MpcdStreamOp& stream_op() { return *stream_; }
  MpcdCollideOp& collide_op() { return *collide_; }
  MpcdSortOp* sort_op() { return sort_.get(); }  // null without sorting

 private:
  std::unique_ptr<Backend> backend_;
  MpcdSystem sys_;
  std::unique_ptr<MpcdStreamOp> stream_;
  std::unique_ptr<MpcdCollideOp> collide_;
  std::unique_ptr<MpcdSortOp> sort_;
  uint32_t sort_every_ = 0;
  uint64_t step_ = 0;
};

}  // namespace meso
