// The neighbor_list operation of the CUDA backend: the rows of the `nlist`
// variant (ballot, atomic or tiled builder; column-major for one thread per
// particle, row-major for tpp > 1; nlist=half: the tiled builder's half
// rows, column-major), the displacement check that makes them
// stale, growth on overflow, statistics, and the test probe. It builds from
// the CellView the cell list published and publishes its NlistView, which
// the forces read. With dynamic pruning (RunParams::inner_skin) it keeps two
// lists: the built (outer) one at r_c + skin and the pruned one at r_c +
// inner_skin, which it publishes (neighbor_list_prune.cu). With nlist=cells
// it keeps no rows: its build sorts the particles into cell order
// (cell_order.cuh) and publishes each cell's first slot, from which the
// forces walk the cells (pair_force_cells.cuh).
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "meso/cuda/check.hpp"
#include "meso/cuda/testing.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/neighbor_list.hpp"
#include "meso/testing/neighbor_list_probe.hpp"
#include "md/cell_order.cuh"
#include "md/neighbor_list.cuh"
#include "md/neighbor_list_bookkeeping.cuh"

namespace meso::cuda {
namespace {

// What testing::shrink_neighbor_capacity_for_test reaches.
class CapacityTestHook {
 public:
  virtual ~CapacityTestHook() = default;
  virtual void shrink_capacity_for_test(uint32_t cap) = 0;
  virtual void shrink_pruned_capacity_for_test(uint32_t cap) = 0;
};

template <class P>
class CudaNeighborList final : public NeighborListOp,
                               public DeviceNeighborList,
                               public meso::testing::NeighborListProbe,
                               public CapacityTestHook {
  using S4 = typename P::S4;

 public:
  explicit CudaNeighborList(CudaContext<P>& ctx)
      : DeviceNeighborList(ctx), ctx_(ctx), kind_(ctx.variant.nlist), tpp_(ctx.variant.tpp) {
    // Capacity: the mean count of an ideal gas at this density plus
    // headroom; overflow grows it.
    const double r = ctx_.r_list();
    double mean = 4.0 / 3.0 * 3.14159265358979 * std::pow(r, 3) * ctx_.sys.density();
    if (kind_ == NlistKind::half) {
      if (tpp_ != 1) throw_input_error("variant nlist=half takes tpp=1 (one thread a half row), not tpp=", tpp_);
      mean /= 2.0;
    }
    uint32_t rows = ctx_.n;
    inner_skin_ = ctx_.params.inner_skin;
    if (kind_ == NlistKind::cluster) {  // rows of j-clusters per i-cluster (neighbor_list_cluster.cu)
      refuse_cluster_misuse();
      rows = (ctx_.n + kClusterI - 1) / kClusterI;
      // i-boxes about 2 spacings wide; a j-cluster (1.6) with a member within r_list of one.
      const double a = std::cbrt(1.0 / ctx_.sys.density());
      mean = std::pow(3.6 * a + 2.0 * r, 3) * ctx_.sys.density() / kClusterJ;
    }
    cap_ = round_up(static_cast<uint32_t>(mean * 1.3) + 8, 8);
    if (kind_ == NlistKind::cells) {
      refuse_cells_misuse();
      cap_ = 0;  // no rows: the storage holds the sort's scratch
      start_.resize(size_t(ctx_.grid.ncells()) + 1);
      cells_scratch_bytes_ = cell_order_scratch_bytes<S4>(ctx_.n, ctx_.grid.ncells());
    }
    stride_ = round_up(rows, 32);
    if (inner_skin_ > 0.0) {  // the pruned rows: the same estimate at r_c + inner_skin
      const double f = std::pow((ctx_.sys.max_rcut() + inner_skin_) / r, 3);
      pcap_ = std::min(cap_, round_up(static_cast<uint32_t>(mean * f * 1.3) + 8, 8));
      pcount_.resize(ctx_.n);
    }
    allocate();
    count_.resize(ctx_.n);
    // Cluster rows are fewer than the particles: the finish kernel reads a
    // count for each particle, so the others stay 0.
    MESO_CUDA_CHECK(cudaMemset(count_.data(), 0, count_.bytes()));
    publish();
  }

  // ---- NeighborListOp (synchronous)

  // The displacement check and the opening of the step (step_control):
  // counts the step and decides the rebuild on the device.
  // A step that only prunes does so here and is not stale.
  bool stale(const StepRules& rules) override {
    enqueue_displacement();
    step_control(ctx_.ctl.data(), ctx_.control_args(rules), 0, false, ctx_.stream);
    ctx_.pull_ctl();
    if (ctx_.h_ctl->list.prune) prune_until_it_fits();
    return ctx_.h_ctl->list.rebuild;
  }

  // Builds from the cells (built just before), growing until no row overflows.
  void build() override {
    for (int attempt = 0;; ++attempt) {
      enqueue_build();
      ctx_.pull_ctl();
      if (!ctx_.h_ctl->abort) break;
      if (attempt > 20)
        throw std::runtime_error("cuda backend: neighbor list rebuild does not converge");
      const uint32_t need = ctx_.h_ctl->list.nlist_overflow, pruned = ctx_.h_ctl->list.prune_overflow;
      ctx_.h_ctl->abort = 0;
      ctx_.h_ctl->list.nlist_overflow = 0;
      ctx_.h_ctl->list.prune_overflow = 0;
      ctx_.push_ctl();
      if (need) grow(need);
      if (pruned) grow_pruned(pruned);
    }
    ctx_.synchronize();
  }

  // A prune outside the graphs (the host-driven steps): grows the pruned
  // rows until they hold every entry, pruning again from the same outer list.
  void prune_until_it_fits() override {
    for (int attempt = 0;; ++attempt) {
      enqueue_prune();
      ctx_.pull_ctl();
      if (!ctx_.h_ctl->abort) break;
      if (attempt > 20) throw std::runtime_error("cuda backend: neighbor list prune does not converge");
      const uint32_t need = ctx_.h_ctl->list.prune_overflow;
      ctx_.h_ctl->abort = 0;
      ctx_.h_ctl->list.prune_overflow = 0;
      ctx_.push_ctl();
      grow_pruned(need);
    }
  }

  double prune_skin() const override { return inner_skin_; }

  NeighborStats stats() const override {
    ctx_.pull_ctl();
    const uint32_t n = ctx_.n;
    std::vector<uint32_t> c(n);
    MESO_CUDA_CHECK(cudaMemcpy(c.data(), ctx_.nlist.count, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    NeighborStats s;
    s.builds = ctx_.h_ctl->list.builds;
    s.dangerous_builds = ctx_.h_ctl->list.dangerous_builds;
    s.capacity = ctx_.nlist.cap;
    if (prunes()) {
      s.prunes = ctx_.h_ctl->list.prunes;
      s.outer_capacity = cap_;
    }
    // nlist=cluster: j-clusters of the i-clusters' rows (the first rows).
    const uint32_t rows = kind_ == NlistKind::cluster ? (n + kClusterI - 1) / kClusterI : n;
    s.max_neighbors = rows ? *std::max_element(c.begin(), c.begin() + rows) : 0;
    s.mean_neighbors = rows ? std::accumulate(c.begin(), c.begin() + rows, 0.0) / rows : 0.0;
    return s;
  }

  // ---- DeviceNeighborList

  void enqueue_build() override {
    if (!ctx_.cells.count) throw std::logic_error("cuda neighbor_list: no cell list was created");
    if (kind_ == NlistKind::cells) return enqueue_cell_order();
    // Migration (several ranks) changes the local count between rebuilds,
    // outside any graph: rows for the new count, a sixty-fourth more to
    // spare (the rows are most of the list's bytes; the count moves by
    // hundredths of a percent between rebuilds: CudaContext::reserve).
    if (ctx_.n > count_.size()) {
      stride_ = round_up(ctx_.n + ctx_.n / 64, 32);
      allocate();
      count_.resize(stride_);
      if (prunes()) pcount_.resize(stride_);
      publish();
      ctx_.invalidate_graphs();
    }
    const double rc = ctx_.sys.max_rcut(), rl = ctx_.r_list();
    // fp32 builds (mixed, single) widen the list radius by 2^-20 relative, far
    // above fp32 rounding of |r|^2 (~2^-23), so rounding can add but never drop
    // a pair inside r_c + skin.
    const double widen = std::is_same_v<S4, float4> ? 1.0 + std::ldexp(1.0, -20) : 1.0;
    NlistBuildArgs a{ctx_.grid, ctx_.cells, outer_view(), ctx_.sys.box, rl * rl * widen, rc * rc,
                     ctx_.ctl.data(), ctx_.n, tpp_, kind_ == NlistKind::half,
                     ctx_.sys.shear_rate != 0.0};
    // Several ranks: a pair with a ghost stays in the local's half row (and
    // in the ghost's on its owner's rank), so no force goes back to an owner.
    const S4* pos = ctx_.pos.data();
    if (kind_ == NlistKind::ballot)
      build_nlist_ballot<S4>(pos, a, ctx_.stream);
    else if (kind_ == NlistKind::tiled || kind_ == NlistKind::half)
      build_nlist_tiled<S4>(pos, a, ctx_.stream);
    else if (kind_ == NlistKind::cluster)
      build_nlist_cluster<S4>(pos, a, ctx_.stream);
    else
      build_nlist_atomic<S4>(pos, a, ctx_.stream);
    finish_nlist_build<S4>(pos, ctx_.last_pos.data(), count_.data(), ctx_.n, ctx_.ctl.data(),
                           ctx_.stream);
    if (prunes()) enqueue_prune();
    // Several ranks: which rows may name a ghost (NlistView::edge).
    if (ctx_.cells_ranged) {
      if (kind_ == NlistKind::cluster) throw_input_error("variant nlist=cluster runs on one rank (its clusters "
                                                         "are runs of one rank's storage order)");
      if (edge_.size() < count_.size()) {
        edge_.resize(count_.size());
        publish();
        ctx_.invalidate_graphs();
      }
      mark_edge_rows<S4>(pos, ctx_.n, edge_faces(ctx_.cell_domain, ctx_.r_list()), edge_.data(), ctx_.stream);
    }
  }

  bool prunes() const override { return inner_skin_ > 0.0; }

  void enqueue_prune() override {
    const double ri = ctx_.sys.max_rcut() + inner_skin_;
    const double widen = std::is_same_v<S4, float4> ? 1.0 + std::ldexp(1.0, -20) : 1.0;
    const NlistPruneArgs a{outer_view(), ctx_.nlist, ctx_.sys.box, ri * ri * widen, ctx_.ctl.data(), ctx_.n};
    prune_nlist<S4>(ctx_.pos.data(), ctx_.last_pos.data(), a, tpp_, ctx_.stream);
  }

  void grow_pruned(uint32_t needed) override {
    pcap_ = std::max(pcap_, capacity_for(needed));
    allocate();
    publish();
    ctx_.invalidate_graphs();
  }

  void enqueue_displacement() override {
    if (kind_ == NlistKind::cells) return;  // sorted every step: no skin to watch
    max_displacement<S4>(ctx_.pos.data(), ctx_.last_pos.data(), ctx_.n, ctx_.sys.box,
                         ctx_.ctl.data(), ctx_.stream);
  }

  void grow(uint32_t needed) override {
    cap_ = capacity_for(needed);
    allocate();
    publish();
    ctx_.invalidate_graphs();
    if (kind_ == NlistKind::ballot && !ballot_fits(cap_))
      throw_input_error("neighbor list capacity ", cap_,
                        " exceeds what nlist=ballot holds in shared memory; use nlist=atomic");
  }

  // After equilibration the rows are shorter than the capacity the start
  // gave (the ideal-gas estimate, or an overflow of the first, random
  // configuration: at rho = 3, N = 1M, 64 slots where the equilibrated
  // fluid's longest row is 38). Every kShrinkWindow builds the host looks at
  // the longest row of the window (ctl->list.nlist_max) and shrinks the
  // capacity to it plus 1/8 and one, rounded up to a multiple of 4 (grow()
  // rounds to 8; an even capacity keeps the ballot tile's row pitch odd),
  // when that saves at least 8 slots: 64 -> 44 at N = 1M. Column-major rows keep their slots k < cap at the same addresses,
  // so the live list is copied, not rebuilt: the trajectory does not depend
  // on when (or whether) this happens. Row-major lists (tpp > 1) keep their
  // capacity. A later overflow grows it again as always.
  void shrink_to_fit() override {
    ListControl& l = ctx_.h_ctl->list;  // pulled by the caller
    if (l.builds < window_start_ + kShrinkWindow) return;
    const uint32_t want = round_up(l.nlist_max + l.nlist_max / 8 + 1, 4);
    const uint32_t want_pruned = round_up(l.prune_max + l.prune_max / 8 + 1, 4);
    window_start_ = l.builds;
    l.nlist_max = 0;
    l.prune_max = 0;
    ctx_.push_ctl();
    if (tpp_ > 1) return;
    const bool outer = want + 8 <= cap_, pruned = prunes() && want_pruned + 8 <= pcap_;
    if (outer) keep_rows(idx_, cap_, want, scratch_words());
    if (pruned) keep_rows(pidx_, pcap_, want_pruned, 0);
    if (!outer && !pruned) return;
    publish();
    ctx_.invalidate_graphs();
  }

  std::size_t device_bytes() const override {
    return idx_.bytes() + count_.bytes() + edge_.bytes() + pidx_.bytes() + pcount_.bytes() + start_.bytes();
  }

  // ---- testing::NeighborListProbe

  std::vector<std::vector<uint32_t>> neighbors_by_tag() const override {
    const uint32_t n = ctx_.n;
    ctx_.synchronize();
    std::vector<uint32_t> ht(n);
    MESO_CUDA_CHECK(cudaMemcpy(ht.data(), ctx_.tag.data(), n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    const std::vector<std::vector<uint32_t>> r = rows();
    std::vector<std::vector<uint32_t>> out(n);
    for (uint32_t i = 0; i < n; ++i) {
      if (ht[i] >= n) throw std::logic_error("neighbors_by_tag needs tags 0..N-1");
      auto& l = out[ht[i]];
      for (uint32_t j : r[i]) l.push_back(ht[j]);
      std::sort(l.begin(), l.end());
    }
    return out;
  }

  // The rows the forces read (the pruned ones with dynamic pruning).
  std::vector<std::vector<uint32_t>> rows() const override {
    if (kind_ == NlistKind::cells) throw std::logic_error("neighbor list probe: nlist=cells keeps no rows");
    const uint32_t n = ctx_.n;
    ctx_.synchronize();
    const DeviceBuffer<uint32_t>& from = prunes() ? pidx_ : idx_;
    const NlistView nl = ctx_.nlist;
    std::vector<uint32_t> c(n), idx(from.size());
    MESO_CUDA_CHECK(cudaMemcpy(c.data(), nl.count, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    MESO_CUDA_CHECK(cudaMemcpy(idx.data(), from.data(), from.bytes(), cudaMemcpyDeviceToHost));
    std::vector<std::vector<uint32_t>> out(n);
    if (kind_ == NlistKind::cluster) {  // each particle's candidates: its i-cluster's j-clusters' members
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t k = 0, ci = i / kClusterI; k < std::min(c[ci], nl.cap); ++k)
          for (uint32_t j = idx[nl.at(ci, k)] * kClusterJ, e = std::min(j + kClusterJ, n); j < e; ++j)
            if (j != i) out[i].push_back(j);
      return out;
    }
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t k = 0; k < std::min(c[i], nl.cap); ++k) out[i].push_back(idx[nl.at(i, k)]);
    return out;
  }

  // ---- CapacityTestHook

  void shrink_capacity_for_test(uint32_t cap) override {
    // The rows no longer hold valid entries: force the next step to rebuild,
    // which overflows inside the graph and takes the recovery path.
    ctx_.synchronize();
    if (cap) {
      cap_ = cap;
      allocate();
      publish();
      ctx_.invalidate_graphs();
    }
    ctx_.pull_ctl();
    ctx_.h_ctl->list.force_rebuild = 1;
    ctx_.push_ctl();
  }

  // The pruned rows shrink to cap (their entries are then invalid) and the
  // next step refreshes them: by a prune that overflows inside the graph
  // (or a rebuild whose prune does, when the outer list is due).
  void shrink_pruned_capacity_for_test(uint32_t cap) override {
    if (!prunes()) throw std::invalid_argument("shrink_pruned_capacity_for_test: the list does not prune");
    ctx_.synchronize();
    pcap_ = cap;
    allocate();
    publish();
    ctx_.invalidate_graphs();
    ctx_.pull_ctl();
    ctx_.h_ctl->list.force_rebuild = 2;
    ctx_.push_ctl();
  }

 private:
  CudaContext<P>& ctx_;
  NlistKind kind_;
  uint32_t tpp_;  // lanes per particle of the atomic builder and of the LJ force (variant tpp)
  DeviceBuffer<uint32_t> idx_, count_;
  DeviceBuffer<uint8_t> edge_;  // several ranks: rows that may name a ghost
  uint32_t cap_ = 0, stride_ = 0;
  // Dynamic pruning: the pruned rows (same stride and layout), the list the
  // forces read; empty and 0 without it.
  double inner_skin_ = 0.0;
  DeviceBuffer<uint32_t> pidx_, pcount_;
  uint32_t pcap_ = 0;
  // nlist=cells: the first slot of each cell (and n), and the bytes of the
  // sort's scratch in idx_.
  DeviceBuffer<uint32_t> start_;
  std::size_t cells_scratch_bytes_ = 0;

  // The cells' half stencil covers each neighbouring cell once only with 3
  // or more cells an axis; the fixed-point sums of a particle stay far from
  // overflow below 128 pairs within r_c on average (pair_force_half.cuh:
  // 2^9 pairs at the bound); the sort moves the isotropic arrays of one rank.
  void refuse_cells_misuse() const {
    const CellGrid& g = ctx_.grid;
    const double rc = ctx_.sys.max_rcut();
    if (g.nx < 3 || g.ny < 3 || g.nz < 3) {
      const Vec3d L = ctx_.sys.box.lengths();
      throw_input_error("variant nlist=cells needs 3 cells of r_c an axis: the box is ", L.x, " x ", L.y, " x ",
                        L.z, ", r_c ", rc);
    }
    const double pairs = 4.0 / 3.0 * 3.14159265358979 * rc * rc * rc * ctx_.sys.density();
    if (pairs > 128.0)
      throw_input_error("variant nlist=cells: ", pairs, " neighbours within r_c on average, over the 128 ",
                        "its fixed-point sums allow");
    if (inner_skin_ > 0.0) throw_input_error("inner_skin = ", inner_skin_, ": nlist=cells keeps no list to prune");
    if (ctx_.rotational)
      throw_input_error("variant nlist=cells is not provided for orientational particles: use nlist=ballot");
  }

  // nlist=cells: the particles into cell order (on one rank), the cells'
  // first slots published.
  void enqueue_cell_order() {
    if (ctx_.cells_ranged || ctx_.n_ghost)
      throw_input_error("variant nlist=cells runs on one rank: use nlist=ballot or half on several");
    const uint32_t nc = ctx_.grid.ncells();
    if (start_.size() != size_t(nc) + 1 || cell_order_scratch_bytes<S4>(ctx_.n, nc) > idx_.bytes()) {
      start_.resize(size_t(nc) + 1);
      cells_scratch_bytes_ = cell_order_scratch_bytes<S4>(ctx_.n, nc);
      allocate();
      publish();
      ctx_.invalidate_graphs();
    }
    const CellOrderScratch sc = cell_order_scratch<S4>(idx_.data(), ctx_.n, nc, ctx_.vel_pred.size() != 0,
                                                       ctx_.sig.size() != 0);
    sort_into_cell_order<S4>(ctx_.view(), ctx_.cells, nc, start_.data(), sc, ctx_.ctl.data(), ctx_.stream);
  }

  // Clusters are runs of the storage order: compact only right after a
  // spatial reorder (particles diffuse between sorts, and the rows of
  // sort=100 grew to thousands of j-clusters at N = 1M), and indices of one
  // rank's particles.
  void refuse_cluster_misuse() const {
    const Variant& v = ctx_.variant;
    if (tpp_ != 1) throw_input_error("variant nlist=cluster takes tpp=1 (one lane a pair of the tile), not tpp=", tpp_);
    if (v.reorder == ReorderKind::none || v.sort != 0)
      throw_input_error("variant nlist=cluster needs a spatial order at every rebuild (reorder=morton2, hilbert or ",
                        "cell with sort=0), not reorder=", to_string(v.reorder), ",sort=", v.sort,
                        ": clusters are runs of the storage order");
    if (inner_skin_ > 0.0) throw_input_error("inner_skin = ", inner_skin_, ": nlist=cluster rows are not pruned");
  }
  static constexpr unsigned long long kShrinkWindow = 20;
  unsigned long long window_start_ = 0;  // ctl->list.builds when the window began

  static uint32_t capacity_for(uint32_t needed) { return round_up(needed + needed / 8 + 1, 8); }
  // The reorder's scratch lives in the list's storage (CudaContext::
  // list_scratch_bytes), so the buffer holds at least that much.
  size_t scratch_words() const { return (ctx_.list_scratch_bytes + 3) / 4; }
  void allocate() {
    idx_.resize(std::max({size_t(cap_) * stride_, scratch_words(), (cells_scratch_bytes_ + 3) / 4}));
    if (prunes()) pidx_.resize(size_t(pcap_) * stride_);
  }
  // Column-major rows keep their slots k < want at the same addresses: the
  // live rows are copied into a buffer of `want` slots (shrink_to_fit).
  void keep_rows(DeviceBuffer<uint32_t>& idx, uint32_t& cap, uint32_t want, size_t min_words) {
    DeviceBuffer<uint32_t> kept(std::max(size_t(want) * stride_, min_words));
    MESO_CUDA_CHECK(cudaMemcpyAsync(kept.data(), idx.data(), size_t(want) * stride_ * sizeof(uint32_t),
                                    cudaMemcpyDeviceToDevice, ctx_.stream));
    ctx_.synchronize();
    idx.swap(kept);
    cap = want;
  }

  // Row-major when lanes share a particle (tpp > 1), column-major otherwise
  // (device_views.cuh, NlistView).
  NlistView layout(uint32_t cap) const {
    return tpp_ > 1 ? NlistView{nullptr, nullptr, 1u, cap, cap} : NlistView{nullptr, nullptr, stride_, 1u, cap};
  }
  // The rows the builders write.
  NlistView outer_view() {
    NlistView v = layout(cap_);
    v.idx = idx_.data();
    v.count = count_.data();
    v.edge = edge_.size() ? edge_.data() : nullptr;
    return v;
  }
  // The rows the forces read: the built ones, or the pruned ones.
  void publish() {
    NlistView v = outer_view();
    if (prunes()) {
      v = layout(pcap_);
      v.idx = pidx_.data();
      v.count = pcount_.data();
    }
    ctx_.nlist = v;
    ctx_.list_storage = idx_.data();
    ctx_.list_storage_bytes = idx_.bytes();
    if (kind_ == NlistKind::cells) ctx_.cell_start = start_.data();
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_neighbor_list(CudaContext<P>& ctx) {
  return std::make_unique<CudaNeighborList<P>>(ctx);
}

template std::unique_ptr<Operation> make_cuda_neighbor_list(CudaContext<PrecDouble>&);
template std::unique_ptr<Operation> make_cuda_neighbor_list(CudaContext<PrecMixed>&);
template std::unique_ptr<Operation> make_cuda_neighbor_list(CudaContext<PrecSingle>&);

namespace testing {

void shrink_neighbor_capacity_for_test(NeighborListOp& nlist, uint32_t cap) {
  auto* hook = dynamic_cast<CapacityTestHook*>(&nlist);
  if (!hook) throw std::invalid_argument("shrink_neighbor_capacity_for_test: not a cuda neighbor list");
  hook->shrink_capacity_for_test(cap);
}

void shrink_pruned_capacity_for_test(NeighborListOp& nlist, uint32_t cap) {
  auto* hook = dynamic_cast<CapacityTestHook*>(&nlist);
  if (!hook) throw std::invalid_argument("shrink_pruned_capacity_for_test: not a cuda neighbor list");
  hook->shrink_pruned_capacity_for_test(cap);
}

}  // namespace testing
}  // namespace meso::cuda
