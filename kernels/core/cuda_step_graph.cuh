// A StepPlan compiled for the device (cuda_step_graph.cu): the plan's CUDA
// operations, through their device interfaces (device_ops.cuh), composed
// into one conditional CUDA graph per step, plus the host-driven loop of
// the variant graphs=off and the recovery after an in-graph overflow.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "core/cuda_context.cuh"
#include "core/device_ops.cuh"
#include "meso/run/step_plan.hpp"
#include "meso/run/vote_schedule.hpp"

namespace meso::cuda {

// After steps that stopped on ctl->abort: a force that stopped them (the
// bonded force on a FENE bond at r >= R0) throws its error here, before the
// abort is taken for an overflow of the lists and recovered from.
void raise_force_stops(const std::vector<DeviceForce*>& forces);
// MESO_STEP_PHASES=1: the host-driven loops time every phase (a diagnostic).
bool step_phases_wanted();

class CudaStepGraph {
 public:
  // Throws std::logic_error when an operation of the plan is not a CUDA one.
  CudaStepGraph(CudaContextBase& ctx, StepPlan& plan);
  ~CudaStepGraph();
  CudaStepGraph(const CudaStepGraph&) = delete;
  CudaStepGraph& operator=(const CudaStepGraph&) = delete;

  // Whether this graph was compiled from exactly the operations `plan` holds now.
  bool compiled_for(StepPlan& plan) const;
  // Whether every operation it holds is still alive (not destroyed with its plan).
  bool alive() const;

  // Steps first_step .. first_step + nsteps - 1 (StepPlan::run_step's
  // semantics); the last accumulates energy and virial when sums_on_last,
  // and the forces' sums() hold them afterwards. Returns the number of
  // steps run as graph launches.
  uint64_t advance(uint64_t first_step, uint64_t nsteps, bool sums_on_last);
  // The same steps on one of several ranks: stepped from the host, with
  // the communicator's migration, ghost exchange and ghost updates between
  // the kernels, and the rebuild decided by every rank together (no graph:
  // the MPI messages sit between the phases).
  void advance_decomposed(Communicator& comm, uint64_t first_step, uint64_t nsteps, bool sums_on_last);

  // The operations, for profiling.
  DeviceMethod& method() { return *method_; }
  DeviceReorder* reorder() { return reorder_; }
  bool has_lists() const { return nlist_ != nullptr; }  // not with pair style none
  DeviceCellList& cells() { return *cells_; }
  DeviceNeighborList& nlist() { return *nlist_; }
  const std::vector<DeviceForce*>& forces() { return forces_; }
  bool second_half_fused() const { return fused_; }

 private:
  CudaContextBase& ctx_;
  DeviceMethod* method_ = nullptr;
  DeviceReorder* reorder_ = nullptr;  // null without reordering
  DeviceCellList* cells_ = nullptr;       // both null with pair style none
  DeviceNeighborList* nlist_ = nullptr;
  std::vector<DeviceForce*> forces_;
  std::vector<uint64_t> serials_;  // of the operations above, in that order
  bool fused_ = false;             // the last force performs the second half
  StepRules rules_;                // the plan's rebuild and sort decisions
  // Several ranks, variant overlap=on: the interior rows' forces run while
  // the host takes the rebuild vote and the ghosts travel, unless the last
  // votes' displacements say a rebuild is near (overlap=always: even then,
  // as the tests run it). Off by default (slower as measured).
  bool overlap_ = false;
  bool speculate_always_ = false;
  bool rebuild_near_ = true;
  double last_disp_ = 0.0;  // the global largest displacement at the last vote
  // Several ranks whose ghost updates need no vote (--transport nccl): the
  // rebuild vote only at the steps VoteSchedule asks for, at most
  // kMaxVoteGap apart; every step once a rank ran on a stale list.
  static constexpr uint32_t kMaxVoteGap = 50;
  VoteSchedule votes_;
  bool stale_seen_ = false;
  uint64_t wanted_seen_ = 0;  // ListControl::rebuilds_wanted at the last vote

  cudaGraph_t graph_ = nullptr, graph_sums_ = nullptr;
  cudaGraphExec_t exec_ = nullptr, exec_sums_ = nullptr;
  uint64_t epoch_ = 0;  // ctx.graph_epoch the graphs were captured at

  // MESO_STEP_PHASES=1 on several ranks, or on one with graphs=off:
  // every phase of every step waited for and timed on the host (which slows
  // the run: a diagnostic), the means printed to stderr when the graph is
  // destroyed.
  struct PhaseTimes {
    bool on = false;
    int rank = 0;
    uint64_t steps = 0, rebuilds = 0;
    double open = 0, decide = 0, update = 0, migrate = 0, reorder = 0, exchange = 0, lists = 0, end = 0;
    double mark = 0;  // seconds of the last phase_mark
  } phases_;
  double phase_mark();  // seconds since the last mark, after the stream is idle

  std::vector<DeviceOp*> ops() const;
  void enqueue_step_start(bool graph, cudaGraphConditionalHandle hr, cudaGraphConditionalHandle hp = 0);
  void enqueue_forces(bool sums, RowSet rows = RowSet::all);
  void enqueue_step_end(bool sums, RowSet rows = RowSet::all);
  void host_rebuild(bool sort, Communicator* comm = nullptr);
  void host_step(bool sums);
  void decomposed_step(Communicator& comm, bool sums);
  void finish_step_after_abort(bool sums);
  void build_graph(bool sums, cudaGraph_t& graph, cudaGraphExec_t& exec);
  void destroy_graph();
};

}  // namespace meso::cuda
