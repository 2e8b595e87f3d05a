// The MPCD operations of the CUDA backend (meso/ops/mpcd.hpp): mpcd/stream,
// mpcd/sort, mpcd/collide/srd and mpcd/collide/at on the solvent of
// CudaContext<P>::mpcd, the per-piece profile of CudaBackendInfo::
// profile_mpcd, and the cell-list test hook of meso/cuda/testing.hpp.
//
// stream() and sort() only enqueue on the context's stream; collide() waits
// once, at its end, for the overflow word of its cell list (the stream runs
// the pieces in order, and get_mpcd waits too), so a collision period costs
// one host round trip. An overflowing cell list leaves the velocities
// untouched (the kernels after it return), so the collision is redone in
// full after the capacity grows.
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cuda_operations.cuh"
#include "device_ops.cuh"
#include "kernel_timer.cuh"
#include "meso/cuda/check.hpp"
#include "meso/cuda/cuda_backend.hpp"
#include "meso/cuda/testing.hpp"
#include "meso/ops/mpcd.hpp"
#include "mpcd_kernels.cuh"

namespace meso::cuda {
namespace {

template <class P>
class CudaMpcdStream final : public MpcdStreamOp, public DeviceOp {
 public:
  explicit CudaMpcdStream(CudaContext<P>& ctx) : DeviceOp(ctx), ctx_(ctx) {}
  void stream() override {
    auto& m = ctx_.mpcd;
    const MpcdParams& prm = m.sys.params;
    mpcd_stream(m.view(), m.sys.box, prm.dt, prm.mass, prm.body_force, ctx_.stream);
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

  void collide(uint64_t step) override {
    for (int attempt = 0;; ++attempt) {
      enqueue_cells(step);
      enqueue_properties(step);
      enqueue_velocities(step);
      const uint32_t need = fetch_overflow();
      if (!need) {
        ctx_.mpcd.cells_valid = true;
        return;
      }
      if (attempt > 20) throw std::runtime_error("cuda backend: MPCD cell list does not converge");
      grow(need);
    }
  }

  void enqueue_cells(uint64_t step) {
    auto& m = ctx_.mpcd;
    const MpcdParams& prm = m.sys.params;
    const Vec3d shift = prm.grid_shift ? physics::srd_grid_shift(step, prm.seed, prm.cell_size)
                                       : Vec3d{0.0, 0.0, 0.0};
    mpcd_build_cells(m.view(), m.grid, shift, m.cells(), ctx_.stream);
  }
  void enqueue_properties(uint64_t step) {
    mpcd_cell_properties(ctx_.mpcd.view(), ctx_.mpcd.cells(), args(step), ctx_.stream);
  }
  void enqueue_velocities(uint64_t step) {
    mpcd_collide_velocities(ctx_.mpcd.view(), ctx_.mpcd.cells(), args(step), ctx_.stream);
  }

  // The overflow word of the last build (waits for the stream).
  uint32_t fetch_overflow() {
    auto& m = ctx_.mpcd;
    MESO_CUDA_CHECK(cudaMemcpyAsync(m.h_overflow, m.overflow.data(), sizeof(uint32_t),
                                    cudaMemcpyDeviceToHost, ctx_.stream));
    MESO_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    return *m.h_overflow;
  }

  // Room for `needed` members a cell (the largest count seen), with an
  // eighth to spare as the MD cell list grows.
  void grow(uint32_t needed) {
    auto& m = ctx_.mpcd;
    m.cap = round_up(needed + needed / 8 + 1, 8);
    m.cells();
    MESO_CUDA_CHECK(cudaMemsetAsync(m.overflow.data(), 0, sizeof(uint32_t), ctx_.stream));
  }

  testing::MpcdCellsForTest cells_for_test() override {
    auto& m = ctx_.mpcd;
    const MpcdCellView c = m.cells();
    const uint32_t n = m.n, nc = c.ncells;
    std::vector<uint32_t> count(nc), members(size_t(nc) * c.cap), tag(n);
    std::vector<S4> vel(n);
    MESO_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    MESO_CUDA_CHECK(cudaMemcpy(count.data(), c.count, nc * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    MESO_CUDA_CHECK(cudaMemcpy(members.data(), c.members, members.size() * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost));
    MESO_CUDA_CHECK(cudaMemcpy(tag.data(), m.tag.data(), n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    MESO_CUDA_CHECK(cudaMemcpy(vel.data(), m.vel.data(), n * sizeof(S4), cudaMemcpyDeviceToHost));
    testing::MpcdCellsForTest out;
    out.cap = c.cap;
    out.members.resize(nc);  // empty rows before the first collision
    for (uint32_t cell = 0; m.cells_valid && cell < nc; ++cell)
      for (uint32_t k = 0; k < std::min(count[cell], c.cap); ++k)
        out.members[cell].push_back(tag[members[size_t(cell) * c.cap + k]]);
    for (uint32_t i = 0; i < n; ++i) out.cell_by_tag.emplace_back(tag[i], uint32_t(vel[i].w));
    std::sort(out.cell_by_tag.begin(), out.cell_by_tag.end());
    return out;
  }

 private:
  CudaContext<P>& ctx_;
  bool at_;

  MpcdCollideArgs args(uint64_t step) const {
    const MpcdParams& prm = ctx_.mpcd.sys.params;
    // The angle as the reference forms it, so that cos and sin agree bitwise.
    const double alpha = prm.angle_deg * (3.14159265358979323846 / 180.0);
    MpcdCollideArgs a;
    a.step = step;
    a.seed = prm.seed;
    a.mass = prm.mass;
    a.kT = prm.kT;
    a.cos_a = std::cos(alpha);
    a.sin_a = std::sin(alpha);
    a.at_scale = std::sqrt(prm.kT / prm.mass);
    a.thermostat = prm.thermostat;
    a.at = at_;
    return a;
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
  const bool sorts = ctx.variant.reorder == ReorderKind::cell && ctx.variant.sort > 0;
  std::unique_ptr<CudaMpcdSort<P>> sort;
  if (sorts) sort = std::make_unique<CudaMpcdSort<P>>(ctx);

  KernelTimer timer(ctx.stream, repeats);
  auto time = [&](const char* name, double bytes, auto&& fn) { timer.time(name, bytes, fn); };
  // Minimum bytes: every array a piece must read or write, once.
  const double n = m.n, nc = m.grid.ncells(), s4 = sizeof(S4), w = sizeof(S4{}.w);
  const double props = 2.0 * sizeof(Double4), tags = m.sys.params.rule == MpcdRule::at ? 4.0 * n : 0.0;
  const bool forced = m.sys.params.body_force.active();
  const uint64_t step = 1;  // any collision number: the draws do not change the work

  time("mpcd_stream", n * (forced ? 4 : 3) * s4, [&] { stream.stream(); });
  if (sort) time("mpcd_sort", n * 2 * (2 * s4 + 4 + sizeof(Image)), [&] { sort->sort(); });
  collide.collide(step);  // grows the cell list if it must, so the pieces below never overflow
  time("mpcd_cells", n * (s4 + w + 4) + nc * 4, [&] { collide.enqueue_cells(step); });
  time("mpcd_cell_properties", n * (4 + s4) + nc * (4 + props) + tags,
       [&] { collide.enqueue_properties(step); });
  time("mpcd_collide", n * 2 * s4 + nc * props + tags, [&] { collide.enqueue_velocities(step); });
  const uint32_t overflow = collide.fetch_overflow();
  if (overflow) throw std::runtime_error("profile_mpcd: the cell list overflowed");
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
