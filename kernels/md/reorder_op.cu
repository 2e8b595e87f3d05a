// The reorder operation of the CUDA backend (the `reorder` variant axis):
// the key, radix-sort and gather scratch of reorder.cu, sized once for the
// system and lent by the neighbor list's storage (CudaContext::
// list_scratch_bytes; it took 84 bytes a particle of its own in mixed). The
// StepPlan (or, inside a step graph, the device's sort_due decision) applies
// it at a rebuild, before the cell list, which the list build follows.
#include <algorithm>
#include <memory>
#include <stdexcept>

#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "meso/ops/reorder.hpp"
#include "md/reorder.cuh"

namespace meso::cuda {
namespace {

template <class P>
class CudaReorder final : public ReorderOp, public DeviceReorder {
  using S4 = typename P::S4;

 public:
  explicit CudaReorder(CudaContext<P>& ctx) : DeviceReorder(ctx), ctx_(ctx) {
    layout(ctx_.n);
    ctx_.list_scratch_bytes = total_;
  }

  // A reorder outside a step: the Nose-Hoover sum m v^2 would now run in
  // another order, so it is recomputed before the next step.
  void apply() override {
    enqueue_apply();
    ctx_.nh_mv2_known = false;
    ctx_.synchronize();
  }

  void enqueue_apply() override {
    // The pointer is read at every enqueue (and graph capture): a capacity
    // change of the list moves it, and invalidates the graphs.
    if (!ctx_.list_storage)
      throw std::logic_error("cuda reorder: the neighbor list (its scratch) was not created");
    char* base = static_cast<char*>(ctx_.list_storage);
    // On several ranks migration can leave more local particles than the
    // scratch was laid out for (it is reordered right after migration,
    // before the list is built for the new count, and outside any graph):
    // laid out again with a sixty-fourth to spare (as the list's rows), still in the list's storage
    // (far larger: its rows) and asked of its next allocation; scratch of
    // its own only where the storage is smaller (not seen in practice).
    if (ctx_.n > sized_for_) {
      layout(ctx_.n + ctx_.n / 64);
      ctx_.list_scratch_bytes = total_;
    }
    if (total_ > ctx_.list_storage_bytes) {
      own_.resize(total_);
      base = own_.data();
    } else {
      own_.release();
    }
    ReorderScratch sc{reinterpret_cast<unsigned long long*>(base + at_keys_in_),
                      reinterpret_cast<unsigned long long*>(base + at_keys_out_),
                      reinterpret_cast<uint32_t*>(base + at_vals_),
                      reinterpret_cast<uint32_t*>(base + at_perm_),
                      base + at_temp_, temp_bytes_, base + at_gather_};
    reorder_particles<S4>(ctx_.variant.reorder, ctx_.view(), ctx_.rotation(), ctx_.grid, sc, ctx_.ctl.data(),
                          ctx_.stream);
  }

  // Its scratch is counted with the neighbor list's storage (unless it
  // had to keep its own).
  std::size_t device_bytes() const override { return own_.bytes(); }

 private:
  CudaContext<P>& ctx_;
  std::size_t total_ = 0, temp_bytes_ = 0;
  std::size_t at_keys_in_ = 0, at_keys_out_ = 0, at_vals_ = 0, at_perm_ = 0, at_temp_ = 0,
              at_gather_ = 0;
  uint32_t sized_for_ = 0;
  DeviceBuffer<char> own_;

  // One region, 256-byte aligned pieces for n particles: the keys in and
  // out, the values in and the permutation out of the radix sort, its
  // temporary storage, and the gather buffer of permute (the largest array
  // element: S4 or Image). It lives in the neighbor list's storage
  // (list_scratch_bytes), or in own_.
  void layout(uint32_t n) {
    total_ = 0;
    auto piece = [&](std::size_t bytes) {
      const std::size_t at = total_;
      total_ += (bytes + 255) / 256 * 256;
      return at;
    };
    at_keys_in_ = piece(size_t(n) * sizeof(unsigned long long));
    at_keys_out_ = piece(size_t(n) * sizeof(unsigned long long));
    at_vals_ = piece(size_t(n) * sizeof(uint32_t));
    at_perm_ = piece(size_t(n) * sizeof(uint32_t));
    temp_bytes_ = std::max<size_t>(reorder_temp_bytes(n), 1);
    at_temp_ = piece(temp_bytes_);
    at_gather_ = piece(size_t(n) * std::max(sizeof(S4), sizeof(Image)));
    sized_for_ = n;
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_reorder(CudaContext<P>& ctx) {
  return std::make_unique<CudaReorder<P>>(ctx);
}

template std::unique_ptr<Operation> make_cuda_reorder(CudaContext<PrecDouble>&);
template std::unique_ptr<Operation> make_cuda_reorder(CudaContext<PrecMixed>&);
template std::unique_ptr<Operation> make_cuda_reorder(CudaContext<PrecSingle>&);

}  // namespace meso::cuda
