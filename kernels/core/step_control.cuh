// Device-resident control words of the step loop (no host round trip
// between rebuilds; kernels/core/cuda_step_graph.cu): the step counter that keys
// the noise, the TEA key of the step, the abort flag of an overflow, the
// list control and the Nose-Hoover state. One allocation per backend; a
// pinned host mirror is read after a batch of steps.
//
// open_step opens a step on the device: step += 1, the TEA key of the step,
// the rebuild decision from the displacement (or the fixed period), or a
// prune of the list the forces read (dynamic pruning), the sort decision.
// With graph set it also sets the conditional node of the rebuild body (the
// sort body reads list.sort_due itself). Once abort is set it
// leaves the state of the failed step alone and only skips the rebuild.
// One thread: step_control launches it alone, the Nose-Hoover first half
// runs it in its last block.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/list_control.cuh"
#include "meso/physics/pair_noise.hpp"
#include "meso/run/step_rules.hpp"
#include "md/nose_hoover_state.cuh"

namespace meso::cuda {

struct StepControl {
  unsigned long long step;  // number of the step in progress (keys the noise)
  unsigned int abort;       // an overflow stopped the loop; the host resumes
  unsigned int tea_key[4];  // TEA pair key of the step in progress
  ListControl list;
  NoseHooverState nh;
};

struct ControlArgs {
  StepRules rules;  // the plan's (StepPlan::rules): rebuild and sort decisions
  uint32_t seed;
  bool tea;
};

// hp: the prune's conditional node (dynamic pruning: a.rules.prune).
__device__ __forceinline__ void open_step(StepControl* ctl, const ControlArgs& a,
                                          cudaGraphConditionalHandle hr, bool graph,
                                          cudaGraphConditionalHandle hp = 0) {
  bool rebuild = false, prune = false;
  if (!ctl->abort) {
    ListControl& l = ctl->list;
    ctl->step += 1;
    const double d2 = __longlong_as_double(static_cast<long long>(l.max_disp_bits));
    l.step_disp_bits = l.max_disp_bits;
    l.max_disp_bits = 0;
    l.steps_since_build += 1;
    if (a.rules.reorder) l.steps_since_sort += 1;
    // force_rebuild: 1 rebuilds; 2 (a test's) refreshes, by a prune when
    // the outer list allows it.
    const unsigned int forced = l.force_rebuild;
    l.force_rebuild = 0;
    if (forced == 1) {
      rebuild = true;
    } else {
      rebuild = forced == 2 || a.rules.rebuild_due(l.steps_since_build, d2);
      // A fixed period is the user's promise; count the builds that broke it.
      if (rebuild && a.rules.period_broken(d2)) l.dangerous_builds += 1;
      // Pruning: a due refresh prunes from the outer list while that holds
      // every pair the pruned list must (StepRules::prune_suffices).
      if (rebuild && a.rules.prune_suffices(l.outer_moved, d2)) {
        rebuild = false;
        prune = true;
        l.outer_moved += sqrt(d2);
      }
    }
    if (a.tea) {
      const physics::TeaPairKey k = physics::tea_pair_key(ctl->step, a.seed);
      for (int w = 0; w < 4; ++w) ctl->tea_key[w] = k.k[w];
    }
    l.cell_overflow = 0;
    l.nlist_overflow = 0;
    l.rebuild = rebuild;
    l.prune = prune;
    l.prune_overflow = 0;
    if (rebuild) l.rebuilds_wanted += 1;
    l.sort_due = rebuild && a.rules.sort_due(l.steps_since_sort);
  }
  if (graph) {
    cudaGraphSetConditional(hr, rebuild ? 1u : 0u);
    if (a.rules.prune) cudaGraphSetConditional(hp, prune ? 1u : 0u);
  }
}

// What a first half-step kernel needs to open the step in its last block
// (DeviceMethod::folds_step_opening: Nose-Hoover and velocity Verlet /
// Groot-Warren), instead of the displacement kernel and step_control.
struct StepOpening {
  bool enabled = false;  // run open_step in the last block
  ControlArgs args{};
  cudaGraphConditionalHandle handle = 0;
  bool graph = false;
  cudaGraphConditionalHandle prune_handle = 0;  // dynamic pruning's node
};

// One-thread kernel running open_step.
void step_control(StepControl* ctl, const ControlArgs& a, cudaGraphConditionalHandle rebuild,
                  bool graph, cudaStream_t s, cudaGraphConditionalHandle prune = 0);

}  // namespace meso::cuda
