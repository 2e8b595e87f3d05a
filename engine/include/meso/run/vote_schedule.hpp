// When the ranks of a decomposed run take their rebuild vote (an all-reduce
// of the largest displacement since the last list build), where the ghost
// updates need no collective of their own (--transport nccl): not every
// step, but at the steps a forecast says some particle may reach half the
// skin (the CUDA backend's decomposed step loop).
//
// The safety argument. Let D(s) be the largest displacement since the
// build, over every rank's particles, at step s. A particle moves at most
// |v| dt a step, so D grows at most by the largest per-step motion; the
// schedule keeps g, the largest growth per step of D seen between two votes
// since the build, and after a vote at step s with D(s) < skin/2 skips to
// step s + k, the largest k <= max_gap with
//
//     D(s) + kMargin g k < skin/2,       kMargin = 2,
//
// voting at the next step when even k = 1 fails. The steps s + 1 .. s + k - 1
// therefore reach half the skin only if the fastest particle moves more than
// twice as fast as D grew at its fastest since the build (a velocity doubled
// within k steps: not a thermal liquid at a stable time step). The vote
// right after a build measures g over one step. Every rank's device checks
// its displacement at every step anyway; a step at which one passed half
// the skin without a vote is counted as a dangerous build (as LAMMPS counts
// them), makes the next vote rebuild, and from then on the run votes every
// step (VoteSchedule::stale). A schedule that holds changes nothing: the
// rebuilds fall on the same steps as with a vote every step (the
// decomposition tests compare both with one rank).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace meso {

class VoteSchedule {
 public:
  static constexpr double kMargin = 2.0;

  // half_skin: skin/2; max_gap: the most steps from one vote to the next
  // (1: a vote every step, as without a schedule).
  VoteSchedule(double half_skin = 0.0, uint32_t max_gap = 1) : half_skin_(half_skin), max_gap_(std::max(max_gap, 1u)) {}

  // The next step votes (the first of a run: the particles may have been
  // changed since the last).
  void vote_next() { wait_ = 0; }
  // Whether this step votes; otherwise the caller calls skip().
  bool due() const { return wait_ == 0; }
  void skip() {
    --wait_;
    ++since_vote_;
  }
  // After a vote: the largest displacement since the build over every rank
  // (ignored when the vote rebuilt: the build resets it to 0).
  void voted(double d, bool rebuilt) {
    ++since_vote_;
    if (rebuilt) {
      last_d_ = 0.0;
      growth_ = -1.0;  // unknown until the next vote
      since_vote_ = 0;
      wait_ = 0;
      return;
    }
    growth_ = std::max(growth_, (d - last_d_) / double(since_vote_));
    last_d_ = d;
    since_vote_ = 0;
    wait_ = gap(d) - 1;
  }
  // A step ran on a stale list (a rank passed half the skin between votes):
  // every step votes from now on.
  void stale() {
    max_gap_ = 1;
    wait_ = 0;
  }
  // Steps from a vote that saw displacement d to the next vote.
  uint32_t gap(double d) const {
    if (growth_ < 0.0 || max_gap_ == 1) return 1;
    if (growth_ == 0.0) return max_gap_;
    const double k = std::floor((half_skin_ - d) / (kMargin * growth_));
    return k < 1.0 ? 1u : static_cast<uint32_t>(std::min(k, double(max_gap_)));
  }
  uint32_t max_gap() const { return max_gap_; }

 private:
  double half_skin_;
  uint32_t max_gap_;
  double last_d_ = 0.0;   // D at the last vote (0 after a build)
  double growth_ = -1.0;  // largest growth of D per step between votes since the build; < 0 unknown
  uint32_t since_vote_ = 0;
  uint32_t wait_ = 0;  // steps to skip before the next vote
};

}  // namespace meso
