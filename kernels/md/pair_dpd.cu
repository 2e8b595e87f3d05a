// The DPD pair style on the CUDA backend (pair_force/dpd): the DPD
// parameters of every type pair on the device, and the launch of the kernel
// the variant asks for (dpd_force.cu: split, record and masked gathers;
// dpd_force_half.cu: half rows; dpd_force_cluster.cu: cluster-pair tiles;
// dpd_force_cells.cu: no list, the cells' half stencil).
#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

#include "md/dpd_force.cuh"
#include "md/dpd_wall_force.cuh"
#include "md/pair_force_cells.cuh"
#include "md/pair_force_cluster.cuh"
#include "md/pair_force_half.cuh"
#include "md/pair_force_op.cuh"

namespace meso::cuda {
namespace {

template <class P>
class CudaDpdForce final : public CudaPairForce<P> {
  using Base = CudaPairForce<P>;
  using typename Base::S4;
  using Base::ctx_;

 public:
  explicit CudaDpdForce(CudaContext<P>& ctx)
      : Base(ctx, dpd_force_blocks(ctx)), record_(ctx.variant.gather == GatherKind::record),
        half_(ctx.variant.nlist == NlistKind::half), cluster_(ctx.variant.nlist == NlistKind::cluster),
        cells_(ctx.variant.nlist == NlistKind::cells) {
    const Variant& v = ctx.variant;
    if ((half_ || cluster_ || cells_) && v.gather != GatherKind::split)
      throw_input_error("variant nlist=", to_string(v.nlist), " takes gather=split, not gather=", to_string(v.gather));
    if (half_ || cells_) half_sums_.clear(ctx.capacity);
    if (v.tpp != 1 && !(record_ && (v.tpp == 2 || v.tpp == 4)) && !cells_)
      throw_input_error("variant tpp=", v.tpp,
                        " is not provided for DPD forces: they take tpp=1, or tpp=2 or 4 with "
                        "gather=record, or any with nlist=cells");
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
    const auto& t = ctx.sys.template pair_table<physics::DpdPairParams>().data();
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
    if (half_ || cells_) raise_fixed_point_fault(half_sums_, ctx_, r.step, "DPD");
  }
  void raise_if_stopped() override {
    if (half_ || cells_) raise_fixed_point_fault(half_sums_, ctx_, ctx_.h_ctl->step, "DPD");
  }
  // Half rows add to the fixed-point sums of both sides: the interior rows
  // computed ahead of a rebuild (variant overlap) could not be taken back.
  bool takes_rows() const override { return !half_ && !cells_ && Base::takes_rows(); }

 private:
  bool record_;
  bool half_;              // nlist=half: pair_force_half.cuh
  bool cluster_;           // nlist=cluster: pair_force_cluster.cuh
  bool cells_;             // nlist=cells: pair_force_cells.cuh
  HalfForceStore half_sums_;  // nlist=half and cells: the fixed-point sums
  DeviceBuffer<physics::DpdPairParams> params_;  // ntypes x ntypes
  DeviceBuffer<DpdRecordOf<S4>> rec_;            // gather=record: one per particle

  // One block of kForceBlock threads per kForceBlock / tpp particles.
  static uint32_t dpd_force_blocks(const CudaContext<P>& c) {
    if (c.variant.nlist == NlistKind::cluster) return cluster_force_blocks(c.n);
    if (c.variant.nlist == NlistKind::cells) return cell_force_blocks(c.n, c.variant.tpp);
    const uint64_t lanes = uint64_t(c.n) * (c.variant.gather == GatherKind::record ? c.variant.tpp : 1);
    return uint32_t((lanes + kForceBlock - 1) / kForceBlock);
  }

  uint32_t blocks_now() const override { return dpd_force_blocks(ctx_); }

  void enqueue_kernel(bool sums, bool initial) override {
    enqueue_pairs(sums, initial);
    // The slit walls (dpd_wall_force.cu): after the pair kernel stored the
    // net force, which it then must not have used for the second half-step
    // (StepPlan refuses fuse=on with walls).
    // Rows computed in two parts (interior, then edge) have all their
    // forces stored after the edge part: the walls' force follows it.
    const physics::DpdWall& w = ctx_.sys.wall;
    if (!w.active() || !w.forces() || this->rows_ == RowSet::interior) return;
    if (this->fused(initial)) throw std::logic_error("cuda dpd force: the walls' force needs an unfused step");
    const CudaContext<P>& c = ctx_;
    add_dpd_wall_force<S4>(ctx_.view(), w, !initial && c.gw, 1.0 / std::sqrt(c.params.dt), c.params.seed,
                           c.ctl.data(), c.stream);
  }

  void enqueue_pairs(bool sums, bool initial) {
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
                       rec_.data(), c.sys.shear_rate};
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
    if (half_sums_.capacity() < c.capacity && (half_ || cells_)) {
      half_sums_.clear(c.capacity);
      ctx_.invalidate_graphs();
    }
    if (cells_) {
      if (!ctx_.cell_start) throw std::logic_error("cuda dpd force: nlist=cells has no cell order");
      const double rc = c.sys.max_rcut();
      const CellPairArgs cp = make_cell_pair_args(c.grid, ctx_.cell_start, rc, c.sys.density(), c.variant.tpp);
      return compute_dpd_forces_cells<P>(a, cfg, cp, half_sums_.view(&ctx_.ctl.data()->abort), c.stream);
    }
    if (!half_) return compute_dpd_forces<P>(a, cfg, c.stream);
    if (this->rows_ != RowSet::all)
      throw std::logic_error("cuda dpd force: half rows are computed whole (takes_rows)");
    if (ctx_.nlist.cap > kHalfMaxRow)
      throw_input_error("nlist=half: rows of ", ctx_.nlist.cap, " pairs exceed the fixed-point sums' bound of ",
                        kHalfMaxRow, " (a very dense system: use a full list, nlist=ballot)");
    compute_dpd_forces_half<P>(a, cfg, half_sums_.view(&ctx_.ctl.data()->abort), c.stream);
  }
};

template <class P>
std::unique_ptr<Operation> make_dpd_force(CudaContext<P>& ctx) {
  return std::make_unique<CudaDpdForce<P>>(ctx);
}

}  // namespace

MESO_CUDA_PAIR_STYLE(dpd, make_dpd_force);

}  // namespace meso::cuda
