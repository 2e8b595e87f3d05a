// The pair-force operations of the CUDA backend, pair_force/dpd,
// pair_force/lj and pair_force/table: each holds its per-type-pair
// parameters (the tables' coefficients) on the device, the
// energy/virial block partials of its kernel and their reduction, and
// enqueues its kernel (dpd_force.cu, lj_force.cu) on the neighbor list the
// context publishes. As the last force of a plan with fuse=on it also
// performs the second velocity-Verlet half-step (finish_particle).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "md/dpd_force.cuh"
#include "md/integrate_verlet.cuh"
#include "md/lj_force.cuh"
#include "md/table_force.cuh"
#include "meso/cuda/check.hpp"
#include "meso/error.hpp"
#include "meso/ops/force.hpp"
#include "meso/physics/tea.hpp"
#include "md/pair_force.cuh"
#include "md/pair_force_cluster.cuh"
#include "md/pair_force_half.cuh"

namespace meso::cuda {
namespace {

// Half rows (nlist=half) are read by the DPD force only, cluster rows by
// DPD and LJ (cluster_ok).
void refuse_list_kind(const Variant& v, const char* style, bool cluster_ok = false) {
  if (v.nlist == NlistKind::half || (v.nlist == NlistKind::cluster && !cluster_ok))
    throw_input_error("variant nlist=", to_string(v.nlist), " is not provided for the ", style,
                      " pair style (its forces read full rows): use nlist=ballot, atomic or tiled");
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
  void fetch_sums() override {
    double s[2];
    MESO_CUDA_CHECK(cudaMemcpyAsync(s, sums_d_.data(), sizeof(s), cudaMemcpyDeviceToHost,
                                    ctx_.stream));
    MESO_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    sums_ = {s[0], s[1]};
  }

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

template <class P>
class CudaDpdForce final : public CudaPairForce<P> {
  using Base = CudaPairForce<P>;
  using typename Base::S4;
  using Base::ctx_;

 public:
  explicit CudaDpdForce(CudaContext<P>& ctx)
      : Base(ctx, dpd_force_blocks(ctx)), record_(ctx.variant.gather == GatherKind::record),
        half_(ctx.variant.nlist == NlistKind::half), cluster_(ctx.variant.nlist == NlistKind::cluster) {
    const Variant& v = ctx.variant;
    if ((half_ || cluster_) && v.gather != GatherKind::split)
      throw_input_error("variant nlist=", to_string(v.nlist), " takes gather=split, not gather=", to_string(v.gather));
    if (half_) half_sums_.clear(ctx.capacity);
    if (v.tpp != 1 && !(record_ && (v.tpp == 2 || v.tpp == 4)))
      throw_input_error("variant tpp=", v.tpp,
                        " is not provided for DPD forces: they take tpp=1, or tpp=2 or 4 with "
                        "gather=record");
    if (v.noise == NoiseKind::fp32 && std::is_same_v<S4, Double4>)
      throw_input_error("variant noise=fp32 is for fp32 storage: use it with precision=mixed or "
                        "single (precision=double keeps the fp64 noise of its 1e-12 gate)");
    if (record_) {
      const auto& src = ctx.sys.particles;
      const uint32_t max_tag = src.n_local ? *std::max_element(src.tag.begin(), src.tag.begin() + src.n_local) : 0;
      if (max_tag >= kRecordMaxTag || ctx.sys.ntypes() > kRecordMaxTypes)
        throw_input_error("variant gather=record packs tag << 8 | type in one word: it needs tags below ",
                          kRecordMaxTag, " and at most ", kRecordMaxTypes, " types (largest tag ",
                          max_tag, ", ", ctx.sys.ntypes(), " types); use gather=split");
      rec_.resize(ctx.n);
    }
    const auto& t = ctx.sys.dpd.data();
    params_.resize(t.size());
    MESO_CUDA_CHECK(cudaMemcpy(params_.data(), t.data(), params_.bytes(), cudaMemcpyHostToDevice));
  }

  // Minimum traffic: each particle's own pos, vel (or vel_pred), tag (and
  // TEA signature) once, its list once (count + entries), its force stored
  // once, and with fuse the base velocity loaded and vel stored; neighbor
  // data is assumed to come from cache (the ideal).
  // gather=record adds the packing (the same loads, the record stored) and
  // the kernel's load of its own record.
  double profile_bytes(double pairs) const override {
    const double n = ctx_.n, s4 = sizeof(S4);
    const double own = n * (2 * s4 + 4 + (ctx_.tea ? 4 : 0) + 4 + s4 +
                            (this->finishes_step() ? 2 * s4 : 0) + (record_ ? 4 * s4 : 0));
    return own + 4.0 * pairs;
  }
  std::size_t device_bytes() const override {
    return Base::device_bytes() + params_.bytes() + rec_.bytes() + half_sums_.bytes();
  }

  void compute(const ForceRequest& r) override {
    Base::compute(r);
    if (half_) raise_half_fault(r.step);
  }
  void raise_if_stopped() override {
    if (half_) raise_half_fault(ctx_.h_ctl->step);
  }
  // Half rows add to the fixed-point sums of both sides: the interior rows
  // computed ahead of a rebuild (variant overlap) could not be taken back.
  bool takes_rows() const override { return !half_ && Base::takes_rows(); }

 private:
  bool record_;
  bool half_;              // nlist=half: pair_force_half.cuh
  bool cluster_;           // nlist=cluster: pair_force_cluster.cuh
  HalfForceStore half_sums_;

  // After a fault (a pair outside the fixed-point range) the sums hold a
  // partial step: cleared, with the abort, before the error names the value.
  void raise_half_fault(uint64_t step) {
    const float f = half_sums_.fault(ctx_.stream);
    if (f == 0.0f) return;
    half_sums_.clear(ctx_.capacity);
    ctx_.pull_ctl();
    ctx_.h_ctl->abort = 0;
    ctx_.push_ctl();
    throw_input_error("a DPD pair force component of ", f, " at step ", step,
                      " is outside the fixed-point range of nlist=half (|f| < ", kHalfPairBound,
                      " a pair): check the parameters and dt, or use a full list (nlist=ballot)");
  }
  DeviceBuffer<physics::DpdPairParams> params_;  // ntypes x ntypes
  DeviceBuffer<DpdRecordOf<S4>> rec_;            // gather=record: one per particle

  // One block of kForceBlock threads per kForceBlock / tpp particles.
  static uint32_t dpd_force_blocks(const CudaContext<P>& c) {
    if (c.variant.nlist == NlistKind::cluster) return cluster_force_blocks(c.n);
    const uint64_t lanes = uint64_t(c.n) * (c.variant.gather == GatherKind::record ? c.variant.tpp : 1);
    return uint32_t((lanes + kForceBlock - 1) / kForceBlock);
  }

  uint32_t blocks_now() const override { return dpd_force_blocks(ctx_); }

  void enqueue_kernel(bool sums, bool initial) override {
    // gather=record: a record for every particle a list entry can name.
    if (record_ && rec_.size() < ctx_.n_all()) {
      rec_.resize(ctx_.capacity);
      ctx_.invalidate_graphs();
    }
    const CudaContext<P>& c = ctx_;
    // Fused velocity Verlet keeps v(t + dt/2) in vel_pred, Groot-Warren in vel.
    const bool base_in_pred = !c.gw;
    DpdForceArgs<S4> a{ctx_.view(), this->rows_view(), c.sys.box, params_.data(), c.mass.data(),
                       c.sys.ntypes(), c.sys.body_force, c.params.dt, 1.0 / std::sqrt(c.params.dt),
                       c.params.seed, c.ctl.data(), this->partials_.data(), base_in_pred,
                       rec_.data()};
    DpdForceConfig cfg;
    cfg.fast_math = c.variant.pow == PowKind::fast;
    cfg.tea = c.tea;
    cfg.fuse = this->fused(initial);
    cfg.sums = sums;
    cfg.predicted = !initial && (c.gw || this->finishes_step());
    cfg.fp32_noise = c.variant.noise == NoiseKind::fp32;
    cfg.record = record_;
    cfg.masked = c.variant.gather == GatherKind::masked;
    cfg.tpp = record_ ? c.variant.tpp : 1;
    if (cluster_) return compute_dpd_forces_cluster<P>(a, cfg, c.stream);
    if (!half_) return compute_dpd_forces<P>(a, cfg, c.stream);
    if (this->rows_ != RowSet::all)
      throw std::logic_error("cuda dpd force: half rows are computed whole (takes_rows)");
    if (ctx_.nlist.cap > kHalfMaxRow)
      throw_input_error("nlist=half: rows of ", ctx_.nlist.cap, " pairs exceed the fixed-point sums' bound of ",
                        kHalfMaxRow, " (a very dense system: use a full list, nlist=ballot)");
    if (half_sums_.capacity() < c.capacity) {
      half_sums_.clear(c.capacity);
      ctx_.invalidate_graphs();
    }
    compute_dpd_forces_half<P>(a, cfg, half_sums_.view(&ctx_.ctl.data()->abort), c.stream);
  }
};

template <class P>
class CudaLjForce final : public CudaPairForce<P> {
  using Base = CudaPairForce<P>;
  using typename Base::S4;
  using Base::ctx_;

 public:
  explicit CudaLjForce(CudaContext<P>& ctx)
      : Base(ctx, lj_force_blocks(ctx.n, ctx.variant.tpp, ctx.variant.nlist == NlistKind::cluster)),
        tpp_(ctx.variant.tpp), cluster_(ctx.variant.nlist == NlistKind::cluster) {
    refuse_list_kind(ctx.variant, "lj", true);
    // The DPD-only axes: LJ has no noise, and its kernel loads positions only.
    if (ctx.variant.noise != NoiseKind::fp64)
      throw_input_error("variant noise=", to_string(ctx.variant.noise),
                        " is only provided for the dpd pair style (LJ forces draw no noise)");
    if (ctx.variant.gather != GatherKind::split)
      throw_input_error("variant gather=", to_string(ctx.variant.gather),
                        " is only provided for the dpd pair style");
    // The evaluator's per-pair constants in the kernel's arithmetic, from
    // the same physics::lj_pair_coeffs the reference uses.
    std::vector<physics::LjPairCoeffs<LjPairReal<P>>> coeffs;
    for (const auto& p : ctx.sys.lj.data()) coeffs.push_back(physics::lj_pair_coeffs<LjPairReal<P>>(p));
    coeffs_.resize(coeffs.size());
    MESO_CUDA_CHECK(cudaMemcpy(coeffs_.data(), coeffs.data(), coeffs_.bytes(), cudaMemcpyHostToDevice));
  }

  // Minimum traffic: each particle's own pos once (type in w), its list once
  // (count + entries) and its force stored once; LJ reads no velocity, tag
  // or signature, except with fuse: the base velocity loaded and vel stored.
  double profile_bytes(double pairs) const override {
    const double n = ctx_.n, s4 = sizeof(S4);
    const double own = n * (s4 + 4 + s4 + (this->finishes_step() ? 2 * s4 : 0));
    return own + 4.0 * pairs;
  }
  std::size_t device_bytes() const override { return Base::device_bytes() + coeffs_.bytes(); }

 private:
  uint32_t tpp_;
  bool cluster_;  // nlist=cluster
  DeviceBuffer<physics::LjPairCoeffs<LjPairReal<P>>> coeffs_;  // ntypes x ntypes

  uint32_t blocks_now() const override { return lj_force_blocks(ctx_.n, tpp_, cluster_); }

  void enqueue_kernel(bool sums, bool initial) override {
    const CudaContext<P>& c = ctx_;
    // Fused velocity Verlet keeps v(t + dt/2) in vel_pred, Groot-Warren in vel.
    const bool base_in_pred = !c.gw;
    LjForceArgs<P> a{ctx_.view(), this->rows_view(), c.sys.box, coeffs_.data(), c.mass.data(),
                     c.sys.ntypes(), c.sys.body_force, c.params.dt, c.ctl.data(),
                     this->partials_.data(), this->fused(initial), base_in_pred, tpp_, cluster_};
    compute_lj_forces<P>(a, sums, c.stream);
  }
};

template <class P>
class CudaTableForce final : public CudaPairForce<P> {
  using Base = CudaPairForce<P>;
  using typename Base::S4;
  using Base::ctx_;
  using R = TablePairReal<P>;

 public:
  explicit CudaTableForce(CudaContext<P>& ctx)
      : Base(ctx, table_force_blocks(ctx.n, ctx.variant.tpp)), tpp_(ctx.variant.tpp) {
    refuse_list_kind(ctx.variant, "table");
    if (ctx.variant.noise != NoiseKind::fp64)
      throw_input_error("variant noise=", to_string(ctx.variant.noise),
                        " is only provided for the dpd pair style (tabulated forces draw no noise)");
    if (ctx.variant.gather != GatherKind::split)
      throw_input_error("variant gather=", to_string(ctx.variant.gather), " is only provided for the dpd pair style");
    const auto& tables = ctx.sys.tables;
    if (tables.empty()) throw_input_error("cuda 'pair_force/table': the system has no tables");
    // Every table's coefficients in one array, in the kernel's arithmetic,
    // and each table's view pointing into it.
    std::vector<R> coeff;
    std::vector<std::size_t> at;
    for (const PairPotentialTable& t : tables) {
      at.push_back(coeff.size());
      for (double c : t.coeff) coeff.push_back(R(c));
    }
    coeff_.resize(std::max<std::size_t>(coeff.size(), 1));
    MESO_CUDA_CHECK(cudaMemcpy(coeff_.data(), coeff.data(), coeff.size() * sizeof(R), cudaMemcpyHostToDevice));
    std::vector<physics::TableView<R>> views;
    for (std::size_t k = 0; k < tables.size(); ++k) {
      const physics::TableView<double> v = tables[k].view();
      views.push_back({coeff_.data() + at[k], R(v.z_min), R(v.inv_dz), R(v.dz), R(v.z_max), v.intervals});
    }
    views_.resize(views.size());
    MESO_CUDA_CHECK(cudaMemcpy(views_.data(), views.data(), views_.bytes(), cudaMemcpyHostToDevice));
    const auto& to = ctx.sys.table_of.data();
    table_of_.resize(to.size());
    MESO_CUDA_CHECK(cudaMemcpy(table_of_.data(), to.data(), table_of_.bytes(), cudaMemcpyHostToDevice));
    fault_.resize(1);
    clear_fault();
  }

  void compute(const ForceRequest& r) override {
    Base::compute(r);
    if (fault() != kNoTableFault) raise(r.step);
  }
  // The state is that of the failed step (every kernel after it returned).
  void raise_if_stopped() override {
    if (fault() != kNoTableFault) raise(ctx_.h_ctl->step);
  }

  // Minimum traffic: as LJ's (its own pos, its list, its force), the
  // coefficients taken as cache hits.
  double profile_bytes(double pairs) const override {
    const double n = ctx_.n, s4 = sizeof(S4);
    return n * (s4 + 4 + s4 + (this->finishes_step() ? 2 * s4 : 0)) + 4.0 * pairs;
  }
  std::size_t device_bytes() const override {
    return Base::device_bytes() + coeff_.bytes() + views_.bytes() + table_of_.bytes() + fault_.bytes();
  }

 private:
  uint32_t tpp_;
  DeviceBuffer<R> coeff_;
  DeviceBuffer<physics::TableView<R>> views_;
  DeviceBuffer<int32_t> table_of_;
  DeviceBuffer<unsigned long long> fault_;

  uint32_t blocks_now() const override { return table_force_blocks(ctx_.n, tpp_); }

  void enqueue_kernel(bool sums, bool initial) override {
    const CudaContext<P>& c = ctx_;
    const bool base_in_pred = !c.gw;
    const TableForceArgs<P> a{ctx_.view(),        this->rows_view(),      c.sys.box,     table_of_.data(),
                              views_.data(),      c.sys.ntypes(),         c.mass.data(), c.sys.body_force,
                              c.params.dt,        ctx_.ctl.data(),        fault_.data(), this->partials_.data(),
                              this->fused(initial), base_in_pred,         tpp_};
    compute_table_forces<P>(a, sums, c.stream);
  }

  void clear_fault() {
    MESO_CUDA_CHECK(cudaMemcpy(fault_.data(), &kNoTableFault, sizeof kNoTableFault, cudaMemcpyHostToDevice));
  }
  unsigned long long fault() const {
    unsigned long long f = kNoTableFault;
    MESO_CUDA_CHECK(cudaMemcpyAsync(&f, fault_.data(), sizeof f, cudaMemcpyDeviceToHost, ctx_.stream));
    MESO_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    return f;
  }
  // The reference's error for the closest pair below its table's range;
  // the fault and the abort cleared first (a caller that goes on runs from
  // the failed step's state).
  [[noreturn]] void raise(uint64_t step) {
    const unsigned long long f = fault();
    clear_fault();
    ctx_.pull_ctl();
    ctx_.h_ctl->abort = 0;
    ctx_.push_ctl();
    uint32_t bits = uint32_t(f >> 32);
    float z;
    std::memcpy(&z, &bits, sizeof z);
    const PairPotentialTable& t = ctx_.sys.tables.at(f & 0xffffffffull);
    throw_input_error("a pair came to r = ", std::sqrt(double(z)), " at step ", step, ", below the range of table ",
                      t.name, " (", t.source.empty() ? "built in code" : t.source, ", r_min = ", t.r_min,
                      "): tables are not extrapolated; extend the table to shorter r");
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_table_force(CudaContext<P>& ctx) {
  return std::make_unique<CudaTableForce<P>>(ctx);
}
template <class P>
std::unique_ptr<Operation> make_cuda_dpd_force(CudaContext<P>& ctx) {
  return std::make_unique<CudaDpdForce<P>>(ctx);
}
template <class P>
std::unique_ptr<Operation> make_cuda_lj_force(CudaContext<P>& ctx) {
  return std::make_unique<CudaLjForce<P>>(ctx);
}

#define MESO_INSTANTIATE(P)                                                     \
  template std::unique_ptr<Operation> make_cuda_dpd_force(CudaContext<P>&); \
  template std::unique_ptr<Operation> make_cuda_lj_force(CudaContext<P>&);   \
  template std::unique_ptr<Operation> make_cuda_table_force(CudaContext<P>&);
MESO_INSTANTIATE(PrecDouble)
MESO_INSTANTIATE(PrecMixed)
MESO_INSTANTIATE(PrecSingle)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
