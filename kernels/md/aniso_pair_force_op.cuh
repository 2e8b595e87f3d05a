// The pair-force operation of an orientational pair style on the CUDA
// backend (pair_force/gay_berne, /ssd, /janus, each registered by its
// pair_<style>.cu): it holds the style's parameters of every type pair on
// the device and the energy/virial partials of its kernel
// (aniso_pair_force.cuh with the style's evaluator Ev<R>), and writes the
// forces and the torques the rotational integrators read
// (integrate_aniso.cu). A refused pair stops the loop on the device; the
// host names it (raise_if_stopped), as the reference does.
#pragma once

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_context.cuh"
#include "core/host_readback.cuh"
#include "core/device_ops.cuh"
#include "md/aniso_pair_force.cuh"
#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/force.hpp"

namespace meso::cuda {

// Ev<R>{{params, ntypes}}: the style's kernel evaluator in the pair's
// arithmetic R, derived from AnisoPairTable<Params> (aniso_pair_force.cuh).
template <class P, class Params, template <class R> class Ev>
class CudaAnisoPairForce final : public ForceOp, public DeviceForce {
  using S4 = typename P::S4;

 public:
  explicit CudaAnisoPairForce(CudaContext<P>& ctx) : DeviceForce(ctx), ctx_(ctx) {
    if (!ctx.rotational)
      throw_input_error("cuda '", style_name(), "' needs orientational particles (the system has none)");
    if (ctx.variant.nlist == NlistKind::half || ctx.variant.nlist == NlistKind::cluster ||
        ctx.variant.nlist == NlistKind::cells)
      throw_input_error("variant nlist=", to_string(ctx.variant.nlist), " is not provided for the ", style_name(),
                        " pair style (it reads full rows): use nlist=ballot, atomic or tiled");
    // The DPD-only axes: no pair noise, and one gather of its own.
    if (ctx.variant.noise != NoiseKind::fp64)
      throw_input_error("variant noise=", to_string(ctx.variant.noise), " is only provided for the dpd pair style (",
                        style_name(), " draws no pair noise)");
    if (ctx.variant.gather != GatherKind::split)
      throw_input_error("variant gather=", to_string(ctx.variant.gather), " is only provided for the dpd pair style");
    const auto& t = ctx.sys.template pair_table<Params>().data();
    params_.resize(t.size());
    MESO_CUDA_CHECK(cudaMemcpy(params_.data(), t.data(), params_.bytes(), cudaMemcpyHostToDevice));
    partials_.resize(2 * std::size_t(aniso_force_blocks(ctx.n, ctx.variant.tpp)) + 2);
    sums_d_.resize(2);
  }

  // Synchronous: the forces and torques of the current positions and
  // orientations, the sums fetched when asked.
  void compute(const ForceRequest& r) override {
    enqueue(r);
    if (r.sums) fetch_sums();
    ctx_.synchronize();
    if (broken_.set(ctx_.stream)) raise(r.step);
  }
  PairSums sums() const override { return sums_; }

  // r.initial needs nothing: these forces read no velocity.
  void enqueue(const ForceRequest& r) override {
    if (!ctx_.nlist.idx) throw std::logic_error("cuda aniso pair force: no neighbor list was created");
    if (r.rows != RowSet::all) throw std::logic_error("cuda aniso pair force: it computes every row");
    const uint32_t blocks = aniso_force_blocks(ctx_.n, c_tpp());
    if (partials_.size() < 2 * std::size_t(blocks)) {
      partials_.resize(2 * std::size_t(blocks + blocks / 4 + 1));
      ctx_.invalidate_graphs();
    }
    const CudaContext<P>& c = ctx_;
    const AnisoForceArgs<S4> a{ctx_.view(), ctx_.rotation(), c.nlist,         c.sys.box,        c.sys.body_force,
                               c.mass.data(), ctx_.ctl.data(), broken_.data(), partials_.data(), first()};
    launch_aniso_pair_force(a, Ev<BuildReal<S4>>{{params_.data(), c.sys.ntypes()}}, c_tpp(), r.sums, c.stream);
    MESO_CUDA_CHECK(cudaGetLastError());
    if (r.sums) reduce_partials(partials_.data(), blocks, sums_d_.data(), c.stream);
  }

  void fetch_sums() override { sums_ = read_sums(sums_d_, ctx_.stream); }

  // The state is that of the failed step (every kernel after it returned).
  void raise_if_stopped() override {
    if (broken_.set(ctx_.stream)) raise(ctx_.h_ctl->step);
  }

  // Minimum traffic: each particle's position, tag and orientation once,
  // its list once (count + entries), its force and torque stored; the
  // neighbours' position, tag and orientation from cache (the ideal).
  double profile_bytes(double pairs) const override {
    const double n = ctx_.n, s4 = sizeof(S4);
    return n * (2 * s4 + 4 + 4 + 2 * s4) + 4.0 * pairs;
  }
  std::size_t device_bytes() const override {
    return params_.bytes() + partials_.bytes() + sums_d_.bytes() + broken_.bytes();
  }

 private:
  CudaContext<P>& ctx_;
  DeviceBuffer<Params> params_;  // ntypes x ntypes
  DeviceBuffer<double> partials_, sums_d_;
  FaultWord broken_{kNoBrokenPair};  // the first broken pair
  PairSums sums_;

  // Lanes a particle (the variant axis tpp).
  uint32_t c_tpp() const { return ctx_.variant.tpp; }
  static std::string style_name() { return std::string("pair_force/") + Params::kStyle; }

  [[noreturn]] void raise(uint64_t step) {
    const unsigned long long b = broken_.take(ctx_);
    throw_input_error("pair style ", Params::kStyle, ": particles ", b >> 32, " and ", b & 0xffffffffull, " ",
                      Ev<double>::kRefused, " at step ", step, ": the configuration or the time step is broken");
  }
};

// The style's force: pair_force/<Params::kStyle> (MESO_CUDA_PAIR_STYLE).
template <class P, class Params, template <class R> class Ev>
std::unique_ptr<Operation> make_aniso_pair_force(CudaContext<P>& ctx) {
  return std::make_unique<CudaAnisoPairForce<P, Params, Ev>>(ctx);
}

}  // namespace meso::cuda
