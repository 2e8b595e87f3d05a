// The MPCD collision on one of several ranks (CudaMpcdCollide's, mpcd_op.cu,
// when its communicator has more than one rank): bitwise the one-rank
// collision (the CPU reference's mpcd_collide_decomposed, on the device).
//
// The cell list covers the cells the rank's domain touches; the inner cells
// (this rank's alone) collide in the fused kernel on the context's stream
// while the shared cells go through the phases of mpcd_collide_layers.cu on
// the layers' stream, their values combined over the ranks between phases
// (Howard et al.'s overlap of the cell communication with the inner cells).
// With the communicator's DeviceLinks (--transport nccl) the layers move
// GPU to GPU and the host waits for nothing, and with the variant
// solvent_graphs=on the whole collision is a CUDA graph, as it is on one rank: one graph per
// touched range (the grid
// shift moves the range by a cell along each split axis now and then, so at
// most 2^3), its launches over the solvent's capacity rather than its bound
// (which changes at every migration), the collision number and grid shift
// advanced on the device (mpcd_advance_step, bitwise the host's shift). A
// range is collided directly the first time it is met (NCCL connects its
// peers outside a capture), and graphs are captured again when an array
// they hold moves (the context's graph epoch, the layers' generation).
// Not by default: on two H200s the graphs ran 3-5% slower than the phases
// enqueued directly (srd-fluid weak 4,516 against 4,741 collisions a
// second, strong L = 100 1,932 against 1,990; 15% slower before the nodes
// kept the layers' stream priority; results/scaling/README.md). Otherwise
// (by default, host transports, graphs=off, the phase timeline)
// each phase is enqueued directly, and without DeviceLinks waits for MPI
// (combine_on_host).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "core/cuda_operations.cuh"
#include "meso/ops/communicator.hpp"
#include "mpcd/mpcd_kernels.cuh"
#include "mpcd/mpcd_shared_cells.cuh"

namespace meso::cuda {

template <class P>
class MpcdRankCollision {
  using S4 = typename P::S4;

 public:
  explicit MpcdRankCollision(CudaContext<P>& ctx);
  ~MpcdRankCollision();
  MpcdRankCollision(const MpcdRankCollision&) = delete;
  MpcdRankCollision& operator=(const MpcdRankCollision&) = delete;

  // Collision `step` over the ranks of `comm`; `a`: the rule's arguments
  // (a.w, the step word, is the solvent's).
  void collide(uint64_t step, const Communicator& comm, const MpcdCollideArgs& a);
  double copy_seconds() const { return layers_.copy_s; }

 private:
  struct RangeGraph {
    const void* range;
    uint64_t epoch, generation;
    uint32_t capacity;
    cudaGraphExec_t exec;
  };

  CudaContext<P>& ctx_;
  MpcdSharedCells layers_;
  std::vector<RangeGraph> graphs_;
  std::vector<const void*> met_;  // ranges collided once directly
  bool use_graphs_ = false;       // the variant's solvent_graphs=on

  // From the cell list on: the phases of the current range (prepared).
  void enqueue(const MpcdView<S4>& v, const MpcdCellView& c, MpcdCollideArgs a, const Communicator& comm,
               uint64_t step, const CellRange& r, bool timed);
  void combine_on_host(uint64_t step, const CellRange& r, const Communicator& comm, const MpcdLayerArgs& la,
                       const MpcdCollideArgs& a, const MpcdCellView& c);
  // The current range's graph for the arrays now, captured if needed.
  cudaGraphExec_t graph_for(const MpcdView<S4>& v, const MpcdCellView& c, const MpcdCollideArgs& a,
                            const Communicator& comm, uint64_t step, const CellRange& r);
};

}  // namespace meso::cuda
