// The reorder operation of the CUDA backend (the `reorder` variant axis):
// the key, radix-sort and gather scratch of reorder.cu, sized once for the
// system. The StepPlan (or, inside a step graph, the device's sort_due
// decision) applies it at a rebuild, before the cell list.
#include <algorithm>
#include <memory>

#include "cuda_operations.cuh"
#include "device_ops.cuh"
#include "meso/ops/reorder.hpp"
#include "reorder.cuh"

namespace meso::cuda {
namespace {

template <class P>
class CudaReorder final : public ReorderOp, public DeviceReorder {
  using S4 = typename P::S4;

 public:
  explicit CudaReorder(CudaContext<P>& ctx) : DeviceReorder(ctx), ctx_(ctx) {
    const uint32_t n = ctx_.n;
    keys_in_.resize(n);
    keys_out_.resize(n);
    vals_.resize(n);
    perm_.resize(n);
    temp_.resize(std::max<size_t>(reorder_temp_bytes(n), 1));
    gather_.resize(size_t(n) * sizeof(Double4));
  }

  // A reorder outside a step: the Nose-Hoover sum m v^2 would now run in
  // another order, so it is recomputed before the next step.
  void apply() override {
    enqueue_apply();
    ctx_.nh_mv2_known = false;
    ctx_.synchronize();
  }

  void enqueue_apply() override {
    ReorderScratch sc{keys_in_.data(), keys_out_.data(), vals_.data(), perm_.data(),
                      temp_.data(), temp_.size(), gather_.data()};
    reorder_particles<S4>(ctx_.variant.reorder, ctx_.view(), ctx_.grid, sc, ctx_.ctl.data(),
                          ctx_.stream);
  }

  std::size_t device_bytes() const override {
    return keys_in_.bytes() + keys_out_.bytes() + vals_.bytes() + perm_.bytes() + temp_.bytes() +
           gather_.bytes();
  }

 private:
  CudaContext<P>& ctx_;
  DeviceBuffer<unsigned long long> keys_in_, keys_out_;
  DeviceBuffer<uint32_t> vals_, perm_;
  DeviceBuffer<unsigned char> temp_, gather_;
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
