// The CUDA side of the operations: what the step graph (cuda_step_graph.cu)
// enqueues on the context's stream, with no host synchronization, so that a
// whole step can be captured into one CUDA graph. Every CUDA operation
// implements its engine interface (meso/ops/: synchronous calls, enqueue
// then wait, for the plan's prepare() and for tests) and one of these.
//
// Nothing here reads the step number from the host: the kernels read it from
// the device's StepControl (ctl->step, ctl->tea_key), which open_step
// advances inside the graph.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/cuda_context.cuh"
#include "meso/ops/force.hpp"

namespace meso::cuda {

struct StepOpening;  // step_control.cuh

// Base of every CUDA operation: registers itself with its context while it
// lives (device_bytes, liveness) and reports its device allocations. An
// operation must not outlive the backend that created it (Simulation
// destroys its plan before its backend).
class DeviceOp {
 public:
  explicit DeviceOp(CudaContextBase& ctx);
  virtual ~DeviceOp();
  DeviceOp(const DeviceOp&) = delete;
  DeviceOp& operator=(const DeviceOp&) = delete;

  // Unique within the context: tells an operation from a later one that
  // happens to reuse its address.
  uint64_t serial() const { return serial_; }
  virtual std::size_t device_bytes() const { return 0; }

 protected:
  CudaContextBase& base_;

 private:
  uint64_t serial_;
};

class DeviceMethod : public DeviceOp {
 public:
  using DeviceOp::DeviceOp;
  // Before a batch of steps, outside any capture: Nose-Hoover stores
  // sum m v^2 there when it is not known (a captured graph holds no such
  // launch).
  virtual void before_capture() {}
  // Whether the first half also opens the step (displacement check and
  // open_step in its last block, as Nose-Hoover's kernel does); the step
  // graph then enqueues no displacement or step_control of its own.
  virtual bool folds_step_opening() const { return false; }
  // open: the opening to fold in (only when folds_step_opening()), or null.
  virtual void enqueue_first_half(const StepOpening* open) = 0;
  // A no-op when the last force finishes the step (fuse=on).
  virtual void enqueue_second_half() = 0;
};

class DeviceForce : public DeviceOp {
 public:
  using DeviceOp::DeviceOp;
  // The forces (and, with r.sums, the reduced energy and virial on the
  // device); r.step is not used: the kernels read ctl->step.
  virtual void enqueue(const ForceRequest& r) = 0;
  // Whether enqueue honours r.rows (the pair forces; a part of the rows
  // without sums only). Recomputing the same rows gives the same result:
  // a fused half-step starts from the base velocity kept in vel_pred.
  virtual bool takes_rows() const { return false; }
  // Copies the energy and virial of the last sums launch to the host (waits).
  virtual void fetch_sums() = 0;
  // The minimum bytes one launch moves for `pairs` list entries (profile).
  virtual double profile_bytes(double pairs) const = 0;
  // After steps that stopped on ctl->abort (stream idle, ctl pulled): throws
  // when this force set it, for a state the run cannot go on from (the
  // bonded force: a FENE bond at r >= R0), clearing its flag and the abort;
  // returns when it did not (an overflow of the lists, which the step graph
  // recovers from). A force that never stops the loop keeps the no-op.
  virtual void raise_if_stopped() {}
};

class DeviceCellList : public DeviceOp {
 public:
  using DeviceOp::DeviceOp;
  virtual void enqueue_build() = 0;
  // Capacity for `needed` members per cell (after an overflow report).
  virtual void grow(uint32_t needed) = 0;
};

class DeviceNeighborList : public DeviceOp {
 public:
  using DeviceOp::DeviceOp;
  // Builds from the published cells, then finish_nlist_build (last_pos,
  // build counters, overflow -> abort).
  virtual void enqueue_build() = 0;
  // Largest displacement since the build into ctl->list.max_disp_bits.
  virtual void enqueue_displacement() = 0;
  // Capacity for `needed` entries per particle (after an overflow report).
  virtual void grow(uint32_t needed) = 0;
  // Between batches of steps (ctl pulled, stream idle): a capacity far above
  // the recent rows' length shrinks (the graphs are then recaptured).
  virtual void shrink_to_fit() = 0;
  // Dynamic pruning (RunParams::inner_skin): whether this list prunes; then
  // enqueue_build ends with a prune, and enqueue_prune prunes the list the
  // forces read from the outer list of the last build (last_pos, counters,
  // an overflow of the pruned capacity -> abort); grow_pruned gives the
  // pruned rows capacity for `needed` entries; prune_until_it_fits prunes
  // from the host, growing the pruned rows until nothing overflows (ctl
  // pulled after it).
  virtual bool prunes() const { return false; }
  virtual void enqueue_prune() {}
  virtual void grow_pruned(uint32_t /*needed*/) {}
  virtual void prune_until_it_fits() {}
};

class DeviceReorder : public DeviceOp {
 public:
  using DeviceOp::DeviceOp;
  virtual void enqueue_apply() = 0;
};

}  // namespace meso::cuda
