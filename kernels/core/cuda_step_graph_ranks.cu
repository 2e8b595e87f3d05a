// The step loop of the CUDA backend on one of several ranks (a
// CudaStepGraph's advance_decomposed): stepped from the host, with the
// communicator's migration, ghost exchange and ghost updates between the
// kernels, and the rebuild decided by every rank together.
#include <cmath>
#include <cstring>

#include "core/cuda_step_graph.cuh"
#include "meso/ops/communicator.hpp"

namespace meso::cuda {

// One step on one of several ranks. Every rank opens its step on the
// device; the rebuild is global (a rank whose particles moved little still
// rebuilds when another must: migration and the ghost exchange are
// collective). Without a rebuild the ghosts' positions and velocities are
// refreshed from their owners before the forces.
//
// At a vote the host waits once, for the step's control, and then takes
// the vote (one all-reduce of the largest displacement, or of a rebuild or
// stale-list mark). With --transport nccl the other steps have no vote
// (VoteSchedule): the host enqueues them whole. With overlap_ (variant
// overlap=on) the interior rows' forces, which read no ghost, are enqueued
// before that wait: the device computes them while the host votes and
// enqueues the ghost update and the edge rows' forces behind them, so the
// vote and the update leave the device's critical path. They are
// speculative: a rebuild recomputes every row (the same values: a fused
// half-step starts from vel_pred), so they are skipped when the last two
// votes' displacements, extrapolated, reach half the skin at this one.
void CudaStepGraph::decomposed_step(Communicator& comm, bool sums) {
  PhaseTimes& ph = phases_;
  if (ph.on) phase_mark();
  enqueue_step_start(false, 0);
  if (!votes_.due()) {
    // Between votes (VoteSchedule): the update's messages are ordered on
    // the device, so the host enqueues the step whole and runs ahead.
    votes_.skip();
    if (ph.on) ph.open += phase_mark();
    comm.update_ghosts();
    if (ph.on) ph.update += phase_mark();
    enqueue_step_end(sums);
    if (ph.on) {
      ph.end += phase_mark();
      ++ph.steps;
    }
    return;
  }
  // Packed before the control's copy: once every rank has voted, every
  // rank's pack (and its reads of the last update) are done.
  comm.begin_update();
  ctx_.start_pull_ctl();
  const bool early = overlap_ && !sums && (speculate_always_ || !rebuild_near_);
  if (early) enqueue_forces(false, RowSet::interior);
  ctx_.finish_pull_ctl();
  if (ph.on) ph.open += phase_mark();
  StepControl* h = ctx_.h_ctl;
  if (h->abort) raise_force_stops(forces_);
  const bool mine = h->list.rebuild;
  // Steps since the last vote at which this rank's device wanted a rebuild
  // that no vote took: they ran on a stale list.
  const uint64_t late = h->list.rebuilds_wanted - wanted_seen_ - (mine ? 1 : 0);
  wanted_seen_ = h->list.rebuilds_wanted;
  double d2 = 0.0;
  std::memcpy(&d2, &h->list.step_disp_bits, sizeof d2);
  constexpr double kRebuildMark = 1e300;  // above any squared displacement
  constexpr double kStaleMark = 1e301;    // a rank ran on a stale list
  const double vote = comm.vote(late ? kStaleMark : mine ? kRebuildMark : d2);
  const bool rebuild = vote >= kRebuildMark;
  if (ph.on) {
    ph.decide += phase_mark();
    ++ph.steps;
  }
  const double d = rebuild ? 0.0 : std::sqrt(vote);
  if (vote >= kStaleMark) {
    votes_.stale();
    stale_seen_ = true;
  }
  votes_.voted(d, rebuild);
  // Displacements grow about linearly between builds (ballistic over the
  // few steps a list lives): near if this step's growth, once and a half
  // again, reaches half the skin; after a rebuild, far (one step's motion
  // does not cross half the skin). A wrong guess costs time, never a pair.
  const double next = d + 1.5 * (d - last_disp_);
  if (rules_.rebuild_every)
    rebuild_near_ = h->list.steps_since_build + 2 >= rules_.rebuild_every;
  else
    rebuild_near_ = !rebuild && next * next > rules_.half_skin_sq;
  last_disp_ = d;
  if (late) h->list.dangerous_builds += late;
  if (rebuild) {
    if (!mine) {  // as open_step decides a rebuild, for this rank too
      h->list.rebuild = 1;
      h->list.sort_due = rules_.sort_due(h->list.steps_since_sort);
    }
    if (!mine || late) ctx_.push_ctl();
    host_rebuild(h->list.sort_due, &comm);
    enqueue_step_end(sums);
  } else {
    comm.update_ghosts();
    if (ph.on) ph.update += phase_mark();
    enqueue_step_end(sums, early ? RowSet::edge : RowSet::all);
  }
  if (ph.on) ph.end += phase_mark();
}

void CudaStepGraph::advance_decomposed(Communicator& comm, uint64_t first_step, uint64_t nsteps,
                                       bool sums_on_last) {
  if (nsteps == 0) return;
  if (!nlist_) throw std::logic_error("cuda backend: a run on several ranks without lists");
  method_->before_capture();
  ctx_.set_step(first_step - 1);
  if (step_phases_wanted()) {
    phases_.on = true;
    phases_.rank = comm.rank();
  }
  // From the first half-step on, ghosts carry the velocity the forces read.
  ctx_.forces_read_pred = ctx_.gw || fused_;
  // Off unless asked (overlap=on): measured slower on 2 and 4 H200s
  // (results/scaling/h200x4-overlap-52fe797), the two launches and the
  // recomputed rebuild steps costing more than the vote they hide.
  const OverlapKind mode = ctx_.variant.overlap;
  overlap_ = mode != OverlapKind::off && !forces_.empty() && ctx_.nlist.edge;
  speculate_always_ = mode == OverlapKind::always;  // the tests' setting: every step, rebuilds too
  for (DeviceForce* f : forces_) overlap_ = overlap_ && f->takes_rows();
  rebuild_near_ = true;
  last_disp_ = 0.0;
  // Votes every step unless the ghost updates need none (VoteSchedule);
  // vote=every keeps one every step (to measure the schedule).
  const bool sparse = comm.updates_without_vote() && rules_.rebuild_every == 0 && !overlap_ &&
                      ctx_.variant.vote != VoteKind::every;
  if (!sparse)
    votes_ = VoteSchedule();
  else if (votes_.max_gap() == 1 && !stale_seen_)
    votes_ = VoteSchedule(std::sqrt(rules_.half_skin_sq), kMaxVoteGap);
  votes_.vote_next();
  ctx_.pull_ctl();
  wanted_seen_ = ctx_.h_ctl->list.rebuilds_wanted;
  const uint64_t last = first_step + nsteps - 1;
  for (uint64_t s = first_step; s <= last; ++s) decomposed_step(comm, sums_on_last && s == last);
  ctx_.pull_ctl();
  if (ctx_.h_ctl->abort) raise_force_stops(forces_);
  // Stale steps after the last vote: counted, for the next run to see.
  if (const uint64_t late = ctx_.h_ctl->list.rebuilds_wanted - wanted_seen_) {
    ctx_.h_ctl->list.dangerous_builds += late;
    ctx_.push_ctl();
  }
  nlist_->shrink_to_fit();
  if (sums_on_last)
    for (DeviceForce* f : forces_) f->fetch_sums();
}

}  // namespace meso::cuda
