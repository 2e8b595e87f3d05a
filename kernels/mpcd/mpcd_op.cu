// The MPCD operations of the CUDA backend (meso/ops/mpcd.hpp): mpcd/stream,
// mpcd/sort, mpcd/collide/srd and mpcd/collide/at on the solvent of
// CudaContext<P>::mpcd, the per-piece profile of CudaBackendInfo::
// profile_mpcd, and the cell-list test hook of meso/cuda/testing.hpp.
//
// stream(), sort() and collide() only enqueue on the context's stream: the
// CSR cell list cannot overflow (mpcd_cell_list.cu), so nothing needs the
// host between collisions, and the host runs ahead of the device until
// get_mpcd waits for it. The collision's pieces (step advance, cell list
// with its memset and CUB scan, cell properties, velocities) are captured
// once into a CUDA graph and replayed: they read the collision number and
// grid shift from the device's step word, so the graph does not change from
// one collision to the next, and a launch of ~8 pieces costs the host one
// call instead of ~8 (at L = 50 the launches, not the kernels, were the
// larger part of a collision). The graph is recaptured when an array it
// holds moves, as the step graph is: by the context's graph epoch
// (CudaContext::invalidate_graphs); the variant graphs=off enqueues the pieces
// directly (what compute-sanitizer runs).
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "core/kernel_timer.cuh"
#include "meso/cuda/check.hpp"
#include "meso/cuda/cuda_backend.hpp"
#include "meso/cuda/testing.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/ops/mpcd.hpp"
#include "mpcd/mpcd_collide_ranks.cuh"
#include "mpcd/mpcd_kernels.cuh"

namespace meso::cuda {
namespace {

template <class P>
class CudaMpcdStream final : public MpcdStreamOp, public DeviceOp {
 public:
  explicit CudaMpcdStream(CudaContext<P>& ctx) : DeviceOp(ctx), ctx_(ctx) {}
  void stream(uint64_t collision) override {
    auto& m = ctx_.mpcd;
    const MpcdParams& prm = m.sys.params;
    // Lees-Edwards: the images at the period's end, formed as the reference does.
    const physics::LeesEdwards le = prm.shear.at(m.sys.box.lengths(), double(collision) * prm.dt);
    mpcd_stream(m.view(), m.sys.box, prm.dt, prm.mass, prm.body_force, prm.wall, le, ctx_.stream);
  }

 private:
  CudaContext<P>& ctx_;
};

template <class P>
class CudaMpcdSort final : public MpcdSortOp, public DeviceOp {
  using S4 = typename P::S4;

 public:
  explicit CudaMpcdSort(CudaContext<P>& ctx) : DeviceOp(ctx), ctx_(ctx) {
    ctx_.mpcd.scratch(bytes());  // sized now: device_bytes shows it
  }
  void sort() override {
    auto& m = ctx_.mpcd;
    mpcd_sort(m.view(), m.grid, m.scratch(bytes()), ctx_.stream);
    m.cells_valid = false;
  }

 private:
  CudaContext<P>& ctx_;
  uint32_t sized_for_ = 0;
  std::size_t bytes_ = 0;

  std::size_t bytes() {  // CUB's scratch query, once per solvent size
    if (bytes_ == 0 || sized_for_ != ctx_.mpcd.n) {
      sized_for_ = ctx_.mpcd.n;
      bytes_ = mpcd_sort_bytes<S4>(sized_for_);
    }
    return bytes_;
  }
};

// What the test hook reads (meso/cuda/testing.hpp).
class MpcdCellsSource {
 public:
  virtual ~MpcdCellsSource() = default;
  virtual testing::MpcdCellsForTest cells_for_test() = 0;
};

template <class P>
class CudaMpcdCollide final : public MpcdCollideOp, public DeviceOp, public MpcdCellsSource {
  using S4 = typename P::S4;

 public:
  CudaMpcdCollide(CudaContext<P>& ctx, bool at) : DeviceOp(ctx), ctx_(ctx), at_(at) {
    ctx_.mpcd.cells();  // the cell list at its first capacity: device_bytes shows it
  }

  ~CudaMpcdCollide() override { drop_graph(); }

  // Several ranks: the collision over the cells the domain touches, the
  // shared ones combined over the ranks (mpcd_collide_ranks.cuh). It sums
  // the solvent only, and the decomposed MD step does not migrate solutes
  // before a collision (StepRules::migrate_every): MD particles beside the
  // solvent are refused here, at set-up, on every rank alike.
  void set_communicator(const Communicator* comm) override {
    comm_ = comm && comm->size() > 1 ? comm : nullptr;
    if (comm_ && ctx_.loaded)
      throw_input_error("MD particles with an MPCD solvent (embed_types = ", ctx_.mpcd.sys.params.embed_types,
                        ") are not decomposed over cuda ranks yet (", comm_->size(),
                        " ranks): run them on one GPU, or on cpu ranks");
    if (comm_ && !ranks_) ranks_ = std::make_unique<MpcdRankCollision<P>>(ctx_);
  }
  double copy_seconds() const override { return ranks_ ? ranks_->copy_seconds() : 0.0; }

  void collide(uint64_t step) override {
    auto& m = ctx_.mpcd;
    if (comm_) {
      ranks_->collide(step, *comm_, args());
      return;
    }
    const uint32_t embed = m.sys.params.embed_types;
    if (embed != 0) {
      require_embeddable(m.sys.box, m.sys.params, ctx_.sys,
                         at_ ? "mpcd/collide/at" : "mpcd/collide/srd");
    }
    m.n_md = embed != 0 ? ctx_.n : 0u;  // before cells(): it sizes the pool
    m.cells();                          // the pool at its size before any capture
    if (m.word_step != step - 1) {  // the device's word must hold the previous collision's number
      const MpcdStepWord w{step - 1, {0.0, 0.0, 0.0}};
      // From pageable memory: staged before the call returns, so `w` may go.
      MESO_CUDA_CHECK(cudaMemcpyAsync(m.step_word.data(), &w, sizeof w, cudaMemcpyHostToDevice,
                                      ctx_.stream));
    }
    if (ctx_.use_graphs) {
      // The values the graph holds besides pointers (n, n_md, embed_types)
      // change only with a load or set_system, which advance the epoch too.
      if (!exec_ || epoch_ != ctx_.graph_epoch) capture();
      MESO_CUDA_CHECK(cudaGraphLaunch(exec_, ctx_.stream));
    } else {
      enqueue_collision();
    }
    m.word_step = step;
    m.cells_valid = true;
    // The collision changed MD velocities: a Nose-Hoover sum m v^2 kept from
    // the last MD step no longer holds.
    if (m.n_md > 0) ctx_.nh_mv2_known = false;
  }

  // The pieces of one collision, in order (captured or enqueued directly).
  void enqueue_collision() {
    enqueue_advance();
    enqueue_cells();
    enqueue_collide();
  }
  void enqueue_advance() {
    auto& m = ctx_.mpcd;
    const MpcdParams& prm = m.sys.params;
    mpcd_advance_step(m.step_word.data(), prm.seed, prm.cell_size, prm.grid_shift, ctx_.stream);
  }
  void enqueue_cells() {
    auto& m = ctx_.mpcd;
    mpcd_build_cells(m.view(), embedded(), m.grid, m.step_word.data(), m.cells(), ctx_.stream, sheared());
  }
  void enqueue_collide() {
    mpcd_collide(ctx_.mpcd.view(), embedded(), ctx_.mpcd.cells(), args(), ctx_.stream);
  }

  // The MD particles of the context as the collision's embedded members
  // (none without embed_types).
  MpcdEmbedView<S4> embedded() {
    auto& m = ctx_.mpcd;
    MpcdEmbedView<S4> md;
    if (m.n_md == 0) return md;
    md.pos = ctx_.pos.data();
    md.vel = ctx_.vel.data();
    md.tag = ctx_.tag.data();
    md.type_mass = ctx_.mass.data();
    md.n = m.n_md;
    md.types = m.sys.params.embed_types;
    return md;
  }

  testing::MpcdCellsForTest cells_for_test() override {
    auto& m = ctx_.mpcd;
    const MpcdCellView c = m.cells();
    const uint32_t n = m.n, nc = c.ncells;
    std::vector<uint32_t> count(nc), start(nc), members(std::size_t(n) + m.n_md), tag(n), cell(n);
    MESO_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    auto copy = [](auto& dst, const auto* src) {
      MESO_CUDA_CHECK(cudaMemcpy(dst.data(), src, dst.size() * sizeof(dst[0]), cudaMemcpyDeviceToHost));
    };
    copy(count, c.count);
    copy(start, c.start);
    copy(members, c.members);
    copy(tag, m.tag.data());
    copy(cell, c.cell);
    testing::MpcdCellsForTest out;
    out.members.resize(nc);  // empty rows before the first collision
    for (uint32_t cell = 0; m.cells_valid && cell < nc; ++cell)
      for (uint32_t k = 0; k < count[cell]; ++k) {
        const uint32_t j = members[start[cell] + k];
        if (j < n) out.members[cell].push_back(tag[j]);  // solvent only
      }
    for (uint32_t i = 0; i < n; ++i) out.cell_by_tag.emplace_back(tag[i], cell[i]);
    std::sort(out.cell_by_tag.begin(), out.cell_by_tag.end());
    return out;
  }

 private:
  CudaContext<P>& ctx_;
  bool at_;
  const Communicator* comm_ = nullptr;

  std::unique_ptr<MpcdRankCollision<P>> ranks_;

  cudaGraphExec_t exec_ = nullptr;
  uint64_t epoch_ = 0;  // ctx.graph_epoch the graph was captured at

  void capture() {
    drop_graph();
    cudaGraph_t graph = nullptr;
    MESO_CUDA_CHECK(cudaStreamBeginCapture(ctx_.stream, cudaStreamCaptureModeThreadLocal));
    enqueue_collision();
    MESO_CUDA_CHECK(cudaStreamEndCapture(ctx_.stream, &graph));
    const cudaError_t e = cudaGraphInstantiate(&exec_, graph, 0);
    cudaGraphDestroy(graph);
    MESO_CUDA_CHECK(e);
    epoch_ = ctx_.graph_epoch;
  }
  void drop_graph() {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }

  MpcdCollideArgs args() {
    const MpcdParams& prm = ctx_.mpcd.sys.params;
    // The angle as the reference forms it, so that cos and sin agree bitwise.
    const double alpha = prm.angle_deg * (3.14159265358979323846 / 180.0);
    MpcdCollideArgs a;
    a.w = ctx_.mpcd.step_word.data();
    a.seed = prm.seed;
    a.mass = prm.mass;
    a.kT = prm.kT;
    a.cos_a = std::cos(alpha);
    a.sin_a = std::sin(alpha);
    a.thermostat = prm.thermostat;
    a.at = at_;
    a.wall = prm.wall;
    a.grid = ctx_.mpcd.grid;
    a.sheared = sheared();
    return a;
  }
  MpcdShearView sheared() const {
    const MpcdParams& prm = ctx_.mpcd.sys.params;
    return {prm.shear, ctx_.mpcd.sys.box.lengths(), prm.dt};
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_mpcd_stream(CudaContext<P>& ctx) {
  return std::make_unique<CudaMpcdStream<P>>(ctx);
}
template <class P>
std::unique_ptr<Operation> make_cuda_mpcd_sort(CudaContext<P>& ctx) {
  return std::make_unique<CudaMpcdSort<P>>(ctx);
}
template <class P>
std::unique_ptr<Operation> make_cuda_mpcd_collide(CudaContext<P>& ctx, MpcdRule rule) {
  return std::make_unique<CudaMpcdCollide<P>>(ctx, rule == MpcdRule::at);
}

template <class P>
std::map<std::string, KernelProfile> profile_mpcd(CudaContext<P>& ctx, int repeats) {
  using S4 = typename P::S4;
  auto& m = ctx.mpcd;
  if (!m.loaded) throw std::logic_error("profile_mpcd: no MPCD solvent (set_mpcd first)");
  CudaMpcdStream<P> stream(ctx);
  CudaMpcdCollide<P> collide(ctx, m.sys.params.rule == MpcdRule::at);
  const bool sorts = ctx.variant.reorder == ReorderKind::cell;  // as SolventStage (meso/run/step_rules.hpp)
  std::unique_ptr<CudaMpcdSort<P>> sort;
  if (sorts) sort = std::make_unique<CudaMpcdSort<P>>(ctx);

  KernelTimer timer(ctx.stream, repeats);
  auto time = [&](const char* name, double bytes, auto&& fn) { timer.time(name, bytes, fn); };
  // Minimum bytes: every array a piece must read or write, once.
  const double n = m.n, nc = m.grid.ncells(), s4 = sizeof(S4);
  const double tags = m.sys.params.rule == MpcdRule::at ? 4.0 * n : 0.0;
  const bool forced = m.sys.params.body_force.active();
  const uint64_t step = 1;  // any collision number: the draws do not change the work

  time("mpcd_stream", n * (forced ? 4 : 3) * s4, [&] { stream.stream(step); });
  if (sort) time("mpcd_sort", n * 2 * (2 * s4 + 4 + sizeof(Image)), [&] { sort->sort(); });
  collide.collide(step);  // a full collision first: the pieces below then time a warm state
  // (each repeat of a piece re-runs it on the same step word: the same work).
  // Cells: read pos, write cell and slot, count and scan the cells, read
  // cell and slot back, write members.
  time("mpcd_cells", n * (s4 + 4 * 5) + nc * 4 * 3, [&] { collide.enqueue_cells(); });
  // Collide (cell sums and update, fused): read members, count and start,
  // each velocity once and write it (and the tags for AT).
  time("mpcd_collide", n * (4 + 2 * s4) + nc * 8 + tags, [&] { collide.enqueue_collide(); });
  MESO_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  return timer.profiles();
}

namespace testing {
MpcdCellsForTest mpcd_cells_for_test(MpcdCollideOp& op) {
  auto* src = dynamic_cast<MpcdCellsSource*>(&op);
  if (!src) throw std::invalid_argument("mpcd_cells_for_test: not a CUDA MPCD collision");
  return src->cells_for_test();
}
}  // namespace testing

#define MESO_INSTANTIATE(P)                                                                    \
  template std::unique_ptr<Operation> make_cuda_mpcd_stream(CudaContext<P>&);                  \
  template std::unique_ptr<Operation> make_cuda_mpcd_sort(CudaContext<P>&);                    \
  template std::unique_ptr<Operation> make_cuda_mpcd_collide(CudaContext<P>&, MpcdRule);       \
  template std::map<std::string, KernelProfile> profile_mpcd(CudaContext<P>&, int);
MESO_INSTANTIATE(PrecDouble)
MESO_INSTANTIATE(PrecMixed)
MESO_INSTANTIATE(PrecSingle)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
