// The MPCD collision on one of several ranks (mpcd_collide_ranks.cuh).
#include "mpcd/mpcd_collide_ranks.cuh"

#include <algorithm>
#include <string>

#include "core/device_timeline.cuh"
#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"

namespace meso::cuda {

template <class P>
MpcdRankCollision<P>::MpcdRankCollision(CudaContext<P>& ctx) : ctx_(ctx), use_graphs_(ctx.variant.solvent_graphs) {}

template <class P>
MpcdRankCollision<P>::~MpcdRankCollision() {
  for (const RangeGraph& g : graphs_) cudaGraphExecDestroy(g.exec);
}

template <class P>
void MpcdRankCollision<P>::collide(uint64_t step, const Communicator& comm, const MpcdCollideArgs& args) {
  auto& m = ctx_.mpcd;
  const MpcdParams& prm = m.sys.params;
  if (prm.embed_types != 0)
    throw_input_error("MPCD embed_types = ", prm.embed_types,
                      " (solute coupling) is not decomposed over ranks yet: run it on one rank");
  cudaStream_t s = ctx_.stream;
  // The shift as the host computes it: the touched range and the cells of
  // the particles must agree (and agree with the CPU reference's; the
  // device's mpcd_advance_step computes the same bits).
  const Vec3d shift = prm.grid_shift ? physics::srd_grid_shift(step, prm.seed, prm.cell_size) : Vec3d{0.0, 0.0, 0.0};
  const CellRange r = mpcd_touched_cells(m.grid, comm.domain(), shift);
  MpcdSharedCells& L = layers_;
  L.prepare(r, comm.domain(), s);
  m.n_md = 0;
  MpcdCollideArgs a = args;
  a.ranged = true;
  a.range = L.view();
  DeviceTimeline* timeline = DeviceTimeline::solvent();
  const bool met = std::find(met_.begin(), met_.end(), L.current_range()) != met_.end();
  if (use_graphs_ && comm.device_links() && ctx_.use_graphs && !timeline && met) {
    if (m.word_step != step - 1) {  // the graph advances the word from the previous collision's
      const MpcdStepWord w{step - 1, {0.0, 0.0, 0.0}};
      // From pageable memory: staged before the call returns, so `w` may go.
      MESO_CUDA_CHECK(cudaMemcpyAsync(m.step_word.data(), &w, sizeof w, cudaMemcpyHostToDevice, s));
    }
    // Over the capacity: the vacant slots past the device's count join no
    // cell, and the launches do not change with the bound.
    MpcdView<S4> v = m.view();
    v.n = m.capacity();
    L.reserve_messages(4);  // before the cells: either may move, and both key the graph
    const MpcdCellView c = m.cells(L.view().ncells, v.n);
    MESO_CUDA_CHECK(cudaGraphLaunch(graph_for(v, c, a, comm, step, r), s));
    ++m.graph_collisions;  // CudaBackendInfo::mpcd_graph_collisions
  } else {
    const MpcdStepWord w{step, {shift.x, shift.y, shift.z}};
    MESO_CUDA_CHECK(cudaMemcpyAsync(m.step_word.data(), &w, sizeof w, cudaMemcpyHostToDevice, s));
    enqueue(m.view(), m.cells(L.view().ncells), a, comm, step, r, timeline != nullptr);
    if (!met) met_.push_back(L.current_range());
  }
  m.word_step = step;
  m.cells_valid = true;
  if (timeline) {  // a period ends: the next one's marks start here
    timeline->set_rank(comm.rank());
    timeline->mark("end", s);
    timeline->round();
    timeline->mark("start", s);
  }
}

template <class P>
void MpcdRankCollision<P>::enqueue(const MpcdView<S4>& v, const MpcdCellView& c, MpcdCollideArgs a,
                                   const Communicator& comm, uint64_t step, const CellRange& r, bool timed) {
  auto& m = ctx_.mpcd;
  const MpcdParams& prm = m.sys.params;
  MpcdSharedCells& L = layers_;
  cudaStream_t s = ctx_.stream;
  DeviceTimeline* timeline = timed ? DeviceTimeline::solvent() : nullptr;
  mpcd_build_range_cells(v, m.grid, m.step_word.data(), L.view(), c, L.outside.data(), s);
  if (timeline) timeline->mark("cells", s);
  MESO_CUDA_CHECK(cudaEventRecord(L.cells_built, s));
  MESO_CUDA_CHECK(cudaStreamWaitEvent(L.stream, L.cells_built, 0));
  mpcd_collide(v, MpcdEmbedView<S4>{}, c, a, s);  // the inner cells; the shared ones are skipped
  if (timeline) timeline->mark("inner", s);
  const MpcdLayerArgs la = L.args();
  mpcd_layer_sums(MpcdLayerPhase::extents, v, c, la, a, L.stream);
  if (const DeviceLinks* links = comm.device_links()) {
    // The layers combined on the device (--transport nccl): the host
    // waits for nothing. A particle outside the range's cells (one that
    // moved more than a domain, or stayed when a migration message
    // overflowed) joins no cell here; its migration reports that a few
    // periods later and the run stops (MpiCommunicator::
    // migrate_solvent_device).
    L.combine_device(*links, la.v1, 3, 0b110u);
    mpcd_layer_sums(MpcdLayerPhase::momentum, v, c, la, a, L.stream);
    L.combine_device(*links, la.q2, 3);
    if (prm.thermostat || a.at) {
      mpcd_layer_sums(MpcdLayerPhase::energy, v, c, la, a, L.stream);
      L.combine_device(*links, la.q3, 4);
    }
  } else {
    combine_on_host(step, r, comm, la, a, c);
  }
  mpcd_collide_shared(v, c, la, a, L.stream);
  if (timeline) timeline->mark("shared", L.stream);
  MESO_CUDA_CHECK(cudaEventRecord(L.done, L.stream));
  MESO_CUDA_CHECK(cudaStreamWaitEvent(s, L.done, 0));
}

// The phases' values through the host: each copied down, combined over the
// ranks by the communicator's MPI messages, copied up.
template <class P>
void MpcdRankCollision<P>::combine_on_host(uint64_t step, const CellRange& r, const Communicator& comm,
                                           const MpcdLayerArgs& la, const MpcdCollideArgs& a,
                                           const MpcdCellView& c) {
  auto& m = ctx_.mpcd;
  const MpcdParams& prm = m.sys.params;
  MpcdSharedCells& L = layers_;
  uint32_t outside = 0;
  MESO_CUDA_CHECK(cudaMemcpyAsync(&outside, L.outside.data(), sizeof outside, cudaMemcpyDeviceToHost, L.stream));
  MESO_CUDA_CHECK(cudaStreamSynchronize(L.stream));
  if (outside != 0)
    throw_input_error("MPCD: ", outside, " solvent particle(s) of rank ", comm.rank(),
                      " lie outside its domain's cells at collision ", step,
                      ": a particle crossed more than one domain in a collision period (dt = ", prm.dt,
                      "); use fewer ranks or a shorter period");
  // Phase 1: counts summed, the maxima behind the scales taken as maxima.
  L.exchange(la.v1, L.h1, 3, [&](std::vector<double>& v) { comm.combine_layers(r, v, 3, 0b110u); });
  mpcd_layer_sums(MpcdLayerPhase::momentum, m.view(), c, la, a, L.stream);
  L.exchange(la.q2, L.h2, 3, [&](std::vector<int64_t>& v) { comm.combine_layers(r, v, 3); });
  if (prm.thermostat || a.at) {  // the energy and draws only where the rule reads them
    mpcd_layer_sums(MpcdLayerPhase::energy, m.view(), c, la, a, L.stream);
    L.exchange(la.q3, L.h3, 4, [&](std::vector<int64_t>& v) { comm.combine_layers(r, v, 4); });
  }
}

template <class P>
cudaGraphExec_t MpcdRankCollision<P>::graph_for(const MpcdView<S4>& v, const MpcdCellView& c,
                                                const MpcdCollideArgs& a, const Communicator& comm, uint64_t step,
                                                const CellRange& r) {
  const void* range = layers_.current_range();
  const uint64_t epoch = ctx_.graph_epoch, generation = layers_.generation;
  for (const RangeGraph& g : graphs_)
    if (g.range == range && g.epoch == epoch && g.generation == generation && g.capacity == v.n) return g.exec;
  // Graphs of older arrays hold freed pointers: dropped before a new one.
  std::erase_if(graphs_, [&](const RangeGraph& g) {
    const bool stale = g.range == range || g.epoch != epoch || g.generation != generation || g.capacity != v.n;
    if (stale) cudaGraphExecDestroy(g.exec);
    return stale;
  });
  const MpcdParams& prm = ctx_.mpcd.sys.params;
  cudaStream_t s = ctx_.stream;
  cudaGraph_t graph = nullptr;
  MESO_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  mpcd_advance_step(ctx_.mpcd.step_word.data(), prm.seed, prm.cell_size, prm.grid_shift, s);
  enqueue(v, c, a, comm, step, r, false);
  MESO_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
  // The shared cells' kernels keep the layers' stream priority (copied into
  // their nodes by the capture), so that they run ahead of the inner cells'
  // collision as the streams run them; a graph otherwise takes its launch
  // stream's priority for every node.
  cudaGraphExec_t exec = nullptr;
  const cudaError_t e = cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagUseNodePriority);
  cudaGraphDestroy(graph);
  MESO_CUDA_CHECK(e);
  graphs_.push_back({range, epoch, generation, v.n, exec});
  return exec;
}

template class MpcdRankCollision<PrecDouble>;
template class MpcdRankCollision<PrecMixed>;
template class MpcdRankCollision<PrecSingle>;

}  // namespace meso::cuda
