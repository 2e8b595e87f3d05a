// The step loop of the CUDA backend: a StepPlan compiled into a conditional
// CUDA graph, one launch per step, without host round trips between
// rebuilds:
//
//   A: method.first_half -> nlist.displacement -> step_control
//      (a method that folds the step opening, Nose-Hoover, does all three
//      in its first-half kernel)
//   B: IF rebuild { sort_flag -> IF sort { reorder } -> cells -> nlist }
//   C: forces [-> method.second_half, unless the last force finishes the step]
//
// With dynamic pruning (DeviceNeighborList::prunes) B is followed by
//   B': IF prune { nlist.prune }
// (a rebuild's nlist ends with a prune; step_control sets one of the two).
// Two IF nodes rather than one SWITCH: compute-sanitizer memcheck reported
// an unattributed illegal address in SWITCH bodies holding the ballot
// builder (no kernel named; plain runs were bitwise the host-driven ones).
//
// where step_control (one thread) increments the device step counter,
// decides the rebuild from the largest displacement since the last build (or
// the fixed period) and sets the conditional node's value. Overflow of a cell
// or of a neighbor row during an in-graph rebuild sets ctl->abort; every
// later kernel then returns at once, so the state freezes at the failed step.
// After the batch the host grows the arrays, redoes that step's rebuild and
// finishes the step, then continues: no neighbor is ever dropped. A force
// can stop the loop the same way for a state it cannot go on from (the
// bonded force: a FENE bond at r >= R0); after the batch it throws its error
// (DeviceForce::raise_if_stopped) with the state frozen at that step.
//
// With graphs=off (the variant) the same kernels run in the same order, enqueued
// step by step from the host (host_step), which reads the rebuild decision
// back after each step's opening. On several ranks the loop is
// cuda_step_graph_ranks.cu's.
#include "core/cuda_step_graph.cuh"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "md/integrate_nose_hoover.cuh"
#include "meso/cuda/check.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/run/provenance.hpp"

namespace meso::cuda {
namespace {

// Adds an IF conditional node after `dep` and returns its body graph.
cudaGraph_t add_if_node(cudaGraph_t graph, cudaGraphConditionalHandle h, const cudaGraphNode_t* dep,
                        cudaGraphNode_t* node) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  MESO_CUDA_CHECK(cudaGraphAddNode(node, graph, dep, nullptr, 1, &p));
  return p.conditional.phGraph_out[0];
}

__global__ void sort_flag_kernel(const StepControl* ctl, cudaGraphConditionalHandle hs) {
  cudaGraphSetConditional(hs, (ctl->list.sort_due && !ctl->abort) ? 1u : 0u);
}

// The device interface of a plan's operation; null when it has none.
template <class T, class Op>
T* device_of(Op* op) {
  return dynamic_cast<T*>(op);
}

}  // namespace

void raise_force_stops(const std::vector<DeviceForce*>& forces) {
  for (DeviceForce* f : forces) f->raise_if_stopped();
}

CudaStepGraph::CudaStepGraph(CudaContextBase& ctx, StepPlan& plan) : ctx_(ctx) {
  method_ = device_of<DeviceMethod>(&plan.method());
  bool ok = method_ != nullptr;
  if (plan.has_lists()) {  // none with pair style none
    cells_ = device_of<DeviceCellList>(&plan.cells());
    nlist_ = device_of<DeviceNeighborList>(&plan.nlist());
    ok = ok && cells_ && nlist_;
  }
  if (plan.reorder()) {
    reorder_ = device_of<DeviceReorder>(plan.reorder());
    ok = ok && reorder_;
  }
  for (const auto& f : plan.forces()) {
    forces_.push_back(device_of<DeviceForce>(f.get()));
    ok = ok && forces_.back();
  }
  if (!ok) throw std::logic_error("cuda backend: the plan holds an operation of another backend");
  fused_ = plan.second_half_fused();
  rules_ = plan.rules();
  for (const DeviceOp* op : ops()) serials_.push_back(op->serial());
}

CudaStepGraph::~CudaStepGraph() {
  destroy_graph();
  const PhaseTimes& p = phases_;
  if (p.steps == 0) return;
  const double ms = 1e3 / double(p.steps), per = p.rebuilds ? 1e3 / double(p.rebuilds) : 0.0;
  std::fprintf(stderr,
               "step phases, rank %d, %llu steps (%llu rebuilds), ms per step: open %.4f, decide %.4f, update %.4f, "
               "rebuild %.4f, end %.4f; ms per rebuild: migrate %.4f, reorder %.4f, exchange %.4f, lists %.4f\n",
               p.rank, (unsigned long long)p.steps, (unsigned long long)p.rebuilds, p.open * ms, p.decide * ms,
               p.update * ms, (p.migrate + p.reorder + p.exchange + p.lists) * ms, p.end * ms, p.migrate * per,
               p.reorder * per, p.exchange * per, p.lists * per);
}

bool step_phases_wanted() { return diagnostic_on(Diagnostic::step_phases); }

double CudaStepGraph::phase_mark() {
  ctx_.synchronize();
  const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  const double dt = now - phases_.mark;
  phases_.mark = now;
  return dt;
}

std::vector<DeviceOp*> CudaStepGraph::ops() const {
  std::vector<DeviceOp*> v{method_};
  if (reorder_) v.push_back(reorder_);
  if (nlist_) {
    v.push_back(cells_);
    v.push_back(nlist_);
  }
  for (DeviceForce* f : forces_) v.push_back(f);
  return v;
}

bool CudaStepGraph::compiled_for(StepPlan& plan) const {
  if (plan.second_half_fused() != fused_ || plan.forces().size() != forces_.size()) return false;
  if ((plan.reorder() != nullptr) != (reorder_ != nullptr)) return false;
  if (plan.has_lists() != (nlist_ != nullptr)) return false;
  std::vector<const DeviceOp*> now{device_of<DeviceMethod>(&plan.method())};
  if (plan.reorder()) now.push_back(device_of<DeviceReorder>(plan.reorder()));
  if (plan.has_lists()) {
    now.push_back(device_of<DeviceCellList>(&plan.cells()));
    now.push_back(device_of<DeviceNeighborList>(&plan.nlist()));
  }
  for (const auto& f : plan.forces()) now.push_back(device_of<DeviceForce>(f.get()));
  const std::vector<DeviceOp*> mine = ops();
  for (std::size_t k = 0; k < now.size(); ++k)
    if (now[k] != mine[k] || !now[k] || now[k]->serial() != serials_[k]) return false;
  return true;
}

bool CudaStepGraph::alive() const {
  const std::vector<DeviceOp*> mine = ops();
  for (std::size_t k = 0; k < mine.size(); ++k)
    if (!ctx_.alive(mine[k], serials_[k])) return false;
  return true;
}

// The first half-step and the opening of the step (displacement check,
// step_control): one kernel for a method that folds both in (Nose-Hoover).
void CudaStepGraph::enqueue_step_start(bool graph, cudaGraphConditionalHandle hr,
                                       cudaGraphConditionalHandle hp) {
  // Without lists (pair style none) the step still opens (step number,
  // noise keys), but there is no rebuild body for a conditional to select.
  if (!nlist_) graph = false;
  if (method_->folds_step_opening()) {
    const StepOpening open{true, ctx_.control_args(rules_), hr, graph, hp};
    method_->enqueue_first_half(&open);
    return;
  }
  method_->enqueue_first_half(nullptr);
  if (nlist_) nlist_->enqueue_displacement();
  step_control(ctx_.ctl.data(), ctx_.control_args(rules_), hr, graph, ctx_.stream, hp);
}

void CudaStepGraph::enqueue_forces(bool sums, RowSet rows) {
  ForceRequest r;
  r.sums = sums;
  r.rows = rows;
  for (DeviceForce* f : forces_) f->enqueue(r);
}

// Forces, then the second half-step unless the last force performed it.
void CudaStepGraph::enqueue_step_end(bool sums, RowSet rows) {
  enqueue_forces(sums, rows);
  if (!fused_) method_->enqueue_second_half();
}

// Rebuild driven from the host: grows and retries until nothing overflows.
// On several ranks (comm): migration before the reorder, which permutes the
// local particles only, and the ghost layer built again after it (as
// StepPlan::rebuild does).
void CudaStepGraph::host_rebuild(bool sort, Communicator* comm) {
  PhaseTimes& ph = phases_;
  const bool timed = ph.on;
  if (comm) comm->migrate();
  if (timed) ph.migrate += phase_mark();
  if (sort && reorder_) {
    reorder_->enqueue_apply();
    ctx_.nh_mv2_known = false;  // the sum would now run in another order
  }
  if (timed) ph.reorder += phase_mark();
  if (comm) comm->exchange_ghosts();
  if (timed) ph.exchange += phase_mark();
  StepControl* h = ctx_.h_ctl;
  for (int attempt = 0;; ++attempt) {
    cells_->enqueue_build();
    nlist_->enqueue_build();
    ctx_.pull_ctl();
    if (!h->abort) break;
    if (attempt > 20) throw std::runtime_error("cuda backend: neighbor list rebuild does not converge");
    const uint32_t cell_need = h->list.cell_overflow, nl_need = h->list.nlist_overflow,
                   pruned_need = h->list.prune_overflow;
    h->abort = 0;
    h->list.cell_overflow = 0;
    h->list.nlist_overflow = 0;
    h->list.prune_overflow = 0;
    ctx_.push_ctl();
    if (cell_need) cells_->grow(cell_need);
    if (nl_need) nlist_->grow(nl_need);  // refuses a capacity nlist=ballot cannot hold
    if (pruned_need) nlist_->grow_pruned(pruned_need);
  }
  if (timed) {
    ph.lists += phase_mark();
    ++ph.rebuilds;
  }
}

void CudaStepGraph::host_step(bool sums) {
  PhaseTimes& ph = phases_;
  if (ph.on) phase_mark();
  enqueue_step_start(false, 0);
  ctx_.pull_ctl();
  if (ph.on) {
    ph.open += phase_mark();
    ++ph.steps;
  }
  // Here an abort can only come from a force of the previous step (this
  // path recovers from overflows inside host_rebuild).
  if (ctx_.h_ctl->abort) raise_force_stops(forces_);
  if (nlist_ && ctx_.h_ctl->list.rebuild) host_rebuild(ctx_.h_ctl->list.sort_due);
  else if (nlist_ && ctx_.h_ctl->list.prune) nlist_->prune_until_it_fits();
  enqueue_step_end(sums);
  if (ph.on) ph.end += phase_mark();
}

void CudaStepGraph::build_graph(bool sums, cudaGraph_t& graph, cudaGraphExec_t& exec) {
  cudaStream_t stream = ctx_.stream;
  const cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  MESO_CUDA_CHECK(cudaGraphCreate(&graph, 0));
  // The rebuild's handle only with lists: a handle that no conditional node
  // uses fails the instantiation (cudaErrorInvalidValue on CUDA 13).
  cudaGraphConditionalHandle hr = 0, hp = 0;
  const bool prunes = nlist_ && nlist_->prunes();
  if (nlist_) MESO_CUDA_CHECK(cudaGraphConditionalHandleCreate(&hr, graph, 0, cudaGraphCondAssignDefault));
  if (prunes) MESO_CUDA_CHECK(cudaGraphConditionalHandleCreate(&hp, graph, 0, cudaGraphCondAssignDefault));

  auto last_node = [&](cudaGraphNode_t& node) {
    cudaStreamCaptureStatus st;
    const cudaGraphNode_t* deps = nullptr;
    size_t ndeps = 0;
    MESO_CUDA_CHECK(cudaStreamGetCaptureInfo(stream, &st, nullptr, nullptr, &deps, nullptr, &ndeps));
    if (ndeps != 1) throw std::logic_error("graph capture: expected one leaf node");
    node = deps[0];
  };

  // Phase A: first half-step, displacement check, control.
  cudaGraphNode_t a_last;
  MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream, graph, nullptr, nullptr, 0, mode));
  enqueue_step_start(true, hr, hp);
  last_node(a_last);
  MESO_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));

  if (!nlist_) {  // no lists: phases A and C in one capture
    MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream, graph, &a_last, nullptr, 1, mode));
    enqueue_step_end(sums);
    MESO_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    MESO_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    return;
  }

  // Phase B: IF rebuild { sort_flag -> IF sort { reorder } -> cells -> nlist }.
  cudaGraphNode_t cond;
  cudaGraph_t body = add_if_node(graph, hr, &a_last, &cond);
  cudaGraphNode_t body_dep = nullptr;
  if (reorder_) {
    cudaGraphConditionalHandle hs;
    MESO_CUDA_CHECK(cudaGraphConditionalHandleCreate(&hs, body, 0, cudaGraphCondAssignDefault));
    cudaGraphNode_t flag;
    MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream, body, nullptr, nullptr, 0, mode));
    sort_flag_kernel<<<1, 1, 0, stream>>>(ctx_.ctl.data(), hs);
    MESO_CUDA_CHECK(cudaGetLastError());
    last_node(flag);
    MESO_CUDA_CHECK(cudaStreamEndCapture(stream, &body));
    cudaGraph_t sort_body = add_if_node(body, hs, &flag, &body_dep);
    MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream, sort_body, nullptr, nullptr, 0, mode));
    reorder_->enqueue_apply();
    MESO_CUDA_CHECK(cudaStreamEndCapture(stream, &sort_body));
  }
  MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream, body, body_dep ? &body_dep : nullptr,
                                                nullptr, body_dep ? 1 : 0, mode));
  cells_->enqueue_build();
  nlist_->enqueue_build();
  MESO_CUDA_CHECK(cudaStreamEndCapture(stream, &body));

  // Phase B': IF prune { prune }.
  if (prunes) {
    cudaGraphNode_t after_rebuild = cond;
    cudaGraph_t prune_body = add_if_node(graph, hp, &after_rebuild, &cond);
    MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream, prune_body, nullptr, nullptr, 0, mode));
    nlist_->enqueue_prune();
    MESO_CUDA_CHECK(cudaStreamEndCapture(stream, &prune_body));
  }

  // Phase C: forces and the second half-step.
  MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream, graph, &cond, nullptr, 1, mode));
  enqueue_step_end(sums);
  MESO_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  MESO_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
}

void CudaStepGraph::destroy_graph() {
  if (exec_) cudaGraphExecDestroy(exec_);
  if (exec_sums_) cudaGraphExecDestroy(exec_sums_);
  if (graph_) cudaGraphDestroy(graph_);
  if (graph_sums_) cudaGraphDestroy(graph_sums_);
  exec_ = exec_sums_ = nullptr;
  graph_ = graph_sums_ = nullptr;
}

// After an in-graph abort at step ctl->step: the first half-step and the
// control ran, the rebuild overflowed. Grow, rebuild and finish that step.
// A step that only pruned (dynamic pruning) prunes again from the same
// outer list, so the trajectory is that of a large enough capacity.
void CudaStepGraph::finish_step_after_abort(bool sums) {
  StepControl* h = ctx_.h_ctl;
  const bool sort = h->list.sort_due, prune_only = h->list.prune && !h->list.rebuild;
  const uint32_t cell_need = h->list.cell_overflow, nl_need = h->list.nlist_overflow,
                 pruned_need = h->list.prune_overflow;
  h->abort = 0;
  h->list.cell_overflow = 0;
  h->list.nlist_overflow = 0;
  h->list.prune_overflow = 0;
  h->list.max_disp_bits = 0;  // the rebuild or prune below resets the displacement reference
  ctx_.push_ctl();
  if (cell_need) cells_->grow(cell_need);
  if (nl_need) nlist_->grow(nl_need);
  if (pruned_need) nlist_->grow_pruned(pruned_need);
  if (prune_only)
    nlist_->prune_until_it_fits();
  else
    host_rebuild(sort);
  enqueue_step_end(sums);
}

uint64_t CudaStepGraph::advance(uint64_t first_step, uint64_t nsteps, bool sums_on_last) {
  if (nsteps == 0) return 0;
  phases_.on = !ctx_.use_graphs && step_phases_wanted();  // the host-driven loop only
  method_->before_capture();  // before a graph is captured: it holds no such launch
  ctx_.set_step(first_step - 1);  // the step numbers live on the device (ctl->step)
  const uint64_t last = first_step + nsteps - 1;
  uint64_t next = first_step;  // next step to launch
  uint64_t launched = 0;
  while (next <= last) {
    if (!ctx_.use_graphs) {
      host_step(sums_on_last && next == last);
      ++next;
      continue;
    }
    if (!exec_ || epoch_ != ctx_.graph_epoch) {  // first use, or arrays reallocated since
      destroy_graph();
      build_graph(false, graph_, exec_);
      build_graph(true, graph_sums_, exec_sums_);
      epoch_ = ctx_.graph_epoch;
    }
    for (; next <= last; ++next) {
      MESO_CUDA_CHECK(cudaGraphLaunch(sums_on_last && next == last ? exec_sums_ : exec_, ctx_.stream));
      ++launched;
    }
    ctx_.pull_ctl();
    if (ctx_.h_ctl->abort) {
      raise_force_stops(forces_);
      const uint64_t failed = ctx_.h_ctl->step;
      finish_step_after_abort(sums_on_last && failed == last);
      next = failed + 1;
    }
  }
  ctx_.pull_ctl();
  if (ctx_.h_ctl->abort) raise_force_stops(forces_);  // the host path's last step
  if (nlist_) nlist_->shrink_to_fit();
  if (sums_on_last)
    for (DeviceForce* f : forces_) f->fetch_sums();
  return launched;
}

}  // namespace meso::cuda
