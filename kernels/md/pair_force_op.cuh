// The base of the CUDA pair-force operations over a neighbor list
// (pair_force/<style>, registered by each style's kernels/md/pair_<style>.cu
// with MESO_CUDA_PAIR_STYLE): it holds the energy/virial block partials of
// its kernel and their reduction, and enqueues the style's kernel on the
// neighbor list the context publishes. As the last force of a plan with
// fuse=on the kernel also performs the second velocity-Verlet half-step
// (finish_particle).
#pragma once

#include <memory>
#include <stdexcept>

#include "core/cuda_context.cuh"
#include "core/host_readback.cuh"
#include "core/device_ops.cuh"
#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/force.hpp"
#include "meso/ops/operation.hpp"
#include "meso/physics/tea.hpp"
#include "md/integrate_verlet.cuh"
#include "md/pair_force.cuh"
#include "md/pair_force_half.cuh"

namespace meso::cuda {

// Half rows (nlist=half) are read by the DPD force only, cluster rows and
// the cells' half stencil (nlist=cells) by DPD and the isotropic styles
// (isotropic_ok).
inline void refuse_list_kind(const Variant& v, const char* style, bool isotropic_ok = false) {
  if (v.nlist == NlistKind::half || ((v.nlist == NlistKind::cluster || v.nlist == NlistKind::cells) && !isotropic_ok))
    throw_input_error("variant nlist=", to_string(v.nlist), " is not provided for the ", style,
                      " pair style (its forces read full rows): use nlist=ballot, atomic or tiled");
}

// After steps that stopped on a fixed-point fault of nlist=half or cells (a
// pair component outside the sums' range): the sums hold a partial step and
// are cleared, with the abort, before the error names the value. Returns
// when there was none.
template <class P>
void raise_fixed_point_fault(HalfForceStore& sums, CudaContext<P>& ctx, uint64_t step, const char* style) {
  const float f = sums.fault(ctx.stream);
  if (f == 0.0f) return;
  sums.clear(ctx.capacity);
  ctx.pull_ctl();
  ctx.h_ctl->abort = 0;
  ctx.push_ctl();
  throw_input_error("a ", style, " pair force component of ", f, " at step ", step,
                    " is outside the fixed-point range of nlist=", to_string(ctx.variant.nlist), " (|f| < ",
                    kHalfPairBound, " a pair): check the parameters and dt, or use a full list (nlist=ballot)");
}

template <class P>
class CudaPairForce : public ForceOp, public DeviceForce {
 protected:
  using S4 = typename P::S4;

 public:
  bool can_finish_step() const override { return true; }

  // Synchronous: the forces of step r.step (host-side step number and TEA
  // key), with the sums fetched when asked.
  void compute(const ForceRequest& r) override {
    // At t = 0 the first force computes the TEA signatures of v(0) that the
    // DPD noise reads: after the plan's initial reorder and rebuild and
    // before the step is set and the forces run, the order set_system
    // always had.
    if (r.initial && first() && ctx_.tea)
      tea_signatures<S4>(ctx_.view(), false, physics::tea_seed_whitening(ctx_.params.seed),
                         ctx_.stream);
    ctx_.set_step(r.step);
    enqueue(r);
    if (r.sums) fetch_sums();
    ctx_.synchronize();
  }
  PairSums sums() const override { return sums_; }

  // initial: the forces of t = 0, which read v(0) from vel whatever the
  // integrator and are never fused with a half-step.
  void enqueue(const ForceRequest& r) override {
    if (!first())
      throw_input_error("cuda '", name(),
                        "' writes the net force: it must be the first force of the plan");
    if (!ctx_.nlist.idx) throw std::logic_error("cuda pair force: no neighbor list was created");
    if (r.rows != RowSet::all && (r.sums || !ctx_.nlist.edge))
      throw std::logic_error("cuda pair force: a part of the rows needs the edge flags and no sums");
    rows_ = r.rows;
    // Migration (several ranks) changes the particle count between steps,
    // outside any graph: one partial per block of the count now.
    const uint32_t b = blocks_now();
    if (b > blocks_ || partials_.size() < 2 * size_t(b)) {
      partials_.resize(2 * size_t(b + b / 4 + 1));
      ctx_.invalidate_graphs();
    }
    blocks_ = b;
    enqueue_kernel(r.sums, r.initial);
    if (r.sums) reduce_partials(partials_.data(), blocks_, sums_d_.data(), ctx_.stream);
  }

  // Energy and virial of the last sums launch (waits for the stream).
  void fetch_sums() override { sums_ = read_sums(sums_d_, ctx_.stream); }

  std::size_t device_bytes() const override { return partials_.bytes() + sums_d_.bytes(); }
  // Groot-Warren's fused half-step adds to vel: computing the rows again
  // would add twice.
  bool takes_rows() const override { return !(ctx_.gw && finishes_step()); }

 protected:
  // blocks: the kernel's blocks, each writing one (energy, virial) partial.
  CudaPairForce(CudaContext<P>& ctx, uint32_t blocks) : DeviceForce(ctx), ctx_(ctx), blocks_(blocks) {
    partials_.resize(2 * size_t(blocks));
    sums_d_.resize(2);
  }
  virtual void enqueue_kernel(bool sums, bool initial) = 0;
  // The kernel's blocks for the current particle count.
  virtual uint32_t blocks_now() const = 0;
  bool fused(bool initial) const { return finishes_step() && !initial; }
  // The list with the rows of the request being enqueued.
  NlistView rows_view() const {
    NlistView v = ctx_.nlist;
    v.rows = uint32_t(rows_);
    return v;
  }
  RowSet rows_ = RowSet::all;

  CudaContext<P>& ctx_;
  uint32_t blocks_;
  DeviceBuffer<double> partials_, sums_d_;
  PairSums sums_;
};

// Registers the CUDA force of the pair style NAME under "pair_force/NAME"
// (meso/core/pair_style.hpp): defines register_cuda_pair_style_NAME<P> for
// FACTORY<P>(CudaContext<P>&), in every precision. One line at the end of
// the style's file, kernels/md/pair_NAME.cu; CMake finds the files by name
// and the backend's registration (core/cuda_operations.cu) calls each.
#define MESO_CUDA_PAIR_STYLE(NAME, FACTORY)                                                  \
  template <class P>                                                                        \
  void register_cuda_pair_style_##NAME(OperationTable<CudaContext<P>>& t) {                 \
    t.add("pair_force/" #NAME, [](CudaContext<P>& c) -> std::unique_ptr<Operation> {        \
      return FACTORY<P>(c);                                                                 \
    });                                                                                     \
  }                                                                                         \
  template void register_cuda_pair_style_##NAME<PrecDouble>(OperationTable<CudaContext<PrecDouble>>&); \
  template void register_cuda_pair_style_##NAME<PrecMixed>(OperationTable<CudaContext<PrecMixed>>&);   \
  template void register_cuda_pair_style_##NAME<PrecSingle>(OperationTable<CudaContext<PrecSingle>>&)

}  // namespace meso::cuda
