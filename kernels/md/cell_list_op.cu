// The cell_list operation of the CUDA backend: the cell arrays of the
// `cells` variant (atomic: an ncells x cap matrix that grows on overflow;
// sorted: radix-sort scratch, no capacity), built by the kernels of
// cell_list_atomic.cu and cell_list_sorted.cu. It publishes its CellView in
// the context, from which the neighbor list builds.
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "md/cell_list.cuh"
#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "meso/ops/cell_list.hpp"

namespace meso::cuda {
namespace {

template <class P>
class CudaCellList final : public CellListOp, public DeviceCellList {
  using S4 = typename P::S4;

 public:
  explicit CudaCellList(CudaContext<P>& ctx)
      : DeviceCellList(ctx), ctx_(ctx), sorted_(ctx.variant.cells == CellsKind::sorted) {
    size_cells(ctx_.n);
    publish();
  }

  // Synchronous build, growing the atomic matrix until no cell overflows.
  void build() override {
    for (int attempt = 0;; ++attempt) {
      enqueue_build();
      ctx_.pull_ctl();
      const uint32_t need = ctx_.h_ctl->list.cell_overflow;
      if (!need) break;
      if (attempt > 20) throw std::runtime_error("cuda backend: cell list build does not converge");
      ctx_.h_ctl->list.cell_overflow = 0;
      ctx_.push_ctl();
      grow(need);
    }
    ctx_.synchronize();
  }

  // Cells hold every stored particle, ghosts included (several ranks).
  void enqueue_build() override {
    const uint32_t n = ctx_.n_all();
    // A grid restricted to the rank's range (several ranks) after creation.
    if (ctx_.grid.ncells() != count_.size()) {
      size_cells(n);
      publish();
      ctx_.invalidate_graphs();
    }
    if (sorted_) {
      // Migration and ghosts change the count between rebuilds (outside any
      // graph: a run on several ranks steps from the host).
      if (n > sized_for_) {
        size_sorted(ctx_.capacity);
        publish();
        ctx_.invalidate_graphs();
      }
      SortedCellScratch sc{keys_in_.data(), keys_out_.data(), vals_in_.data(), temp_.data(),
                           temp_.size()};
      build_cells_sorted<S4>(ctx_.pos.data(), n, ctx_.grid, start_.data(), count_.data(),
                             members_.data(), sc, ctx_.stream);
    } else {
      build_cells_atomic<S4>(ctx_.pos.data(), n, ctx_.grid, count_.data(), members_.data(),
                             cap_, ctx_.ctl.data(), ctx_.stream);
    }
  }

  void grow(uint32_t needed) override {
    cap_ = round_up(needed + needed / 8 + 1, 8);
    members_.resize(size_t(ctx_.grid.ncells()) * cap_);
    publish();
    ctx_.invalidate_graphs();
  }

  std::size_t device_bytes() const override {
    return count_.bytes() + start_.bytes() + members_.bytes() + keys_in_.bytes() +
           keys_out_.bytes() + vals_in_.bytes() + temp_.bytes();
  }

 private:
  CudaContext<P>& ctx_;
  bool sorted_;
  DeviceBuffer<uint32_t> count_, start_, members_;
  uint32_t cap_ = 0;
  uint32_t sized_for_ = 0;  // sorted: particles the scratch holds
  DeviceBuffer<uint32_t> keys_in_, keys_out_, vals_in_;  // sorted: radix-sort pairs
  DeviceBuffer<unsigned char> temp_;                     // sorted: CUB scratch

  // The per-cell arrays for the context's grid, and room for n particles.
  void size_cells(uint32_t n) {
    const uint32_t nc = ctx_.grid.ncells();
    count_.resize(nc);
    if (sorted_) {
      start_.resize(nc);
      size_sorted(std::max(n, sized_for_));
      cap_ = 0;
    } else {
      const double mean = double(n) / nc;
      cap_ = round_up(static_cast<uint32_t>(mean + 4.0 * std::sqrt(mean) + 4.0), 8);
      members_.resize(size_t(nc) * cap_);
    }
  }

  void size_sorted(uint32_t n) {
    members_.resize(n);
    keys_in_.resize(n);
    keys_out_.resize(n);
    vals_in_.resize(n);
    temp_.resize(std::max<size_t>(sorted_cells_temp_bytes(n), 1));
    sized_for_ = n;
  }

  void publish() {
    ctx_.cells = {members_.data(), sorted_ ? start_.data() : nullptr, count_.data(), cap_};
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_cell_list(CudaContext<P>& ctx) {
  return std::make_unique<CudaCellList<P>>(ctx);
}

template std::unique_ptr<Operation> make_cuda_cell_list(CudaContext<PrecDouble>&);
template std::unique_ptr<Operation> make_cuda_cell_list(CudaContext<PrecMixed>&);
template std::unique_ptr<Operation> make_cuda_cell_list(CudaContext<PrecSingle>&);

}  // namespace meso::cuda
