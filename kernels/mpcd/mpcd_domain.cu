// The MPCD solvent's side of domain decomposition on the device (operation
// "mpcd/domain", meso/ops/mpcd.hpp; its CPU reference is
// reference/src/mpcd/mpcd_domain.cpp). After streaming, the particles outside
// the rank's slab along one axis are selected, packed into records of
// kRecord doubles (exact for every storage precision), and their holes
// closed by moving the last stayers into them (O(leavers) work, not a
// compaction of every array); arrivals are appended. The order of the
// solvent changes; the collision's fixed-point cell sums do not see it
// (bitwise one rank's, decomposition_test).
//
// Two paths. Through the host (--transport ipc, host): the counts and the
// records are copied down for MPI, the arrivals up. On the device
// (--transport nccl): messages of a capacity every rank agrees on, their
// counts in a header record, so that the host never needs the counts; the
// solvent's count then stays on the device too (CudaMpcd::count_on_device:
// the host keeps a bound), and what the host must know (the most leavers
// of a message, strays, overflows, the count that tightens the bound) comes
// back through a ring of pinned slots, read once their migration is done.
#include <algorithm>
#include <array>
#include <chrono>
#include <deque>
#include <memory>
#include <stdexcept>
#include <utility>

#include "core/cuda_operations.cuh"
#include "core/device_timeline.cuh"
#include "core/device_ops.cuh"
#include "domain/domain_storage.cuh"
#include "core/launch.cuh"
#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/mpcd.hpp"
#include "mpcd/mpcd_domain_messages.cuh"
#include "mpcd/mpcd_kernels.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kBlock = kMpcdMigrationBlock;
constexpr uint32_t kRec = kMpcdRecord;

template <class S4>
__global__ void pack_kernel(MpcdView<S4> p, const uint32_t* __restrict__ list, uint32_t m, double* __restrict__ out) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < m) pack_record(p, list[k], out + std::size_t(k) * kRec);
}

// Mover k into hole k, for the *h movers (a count that may stay on the
// device; *h <= the launch's size).
template <class S4>
__global__ void move_kernel(MpcdView<S4> p, const uint32_t* __restrict__ from,
                                    const uint32_t* __restrict__ to, const uint32_t* __restrict__ h) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= *h) return;
  const uint32_t i = from[k], j = to[k];
  p.pos[j] = p.pos[i];
  p.vel[j] = p.vel[i];
  p.tag[j] = p.tag[i];
  p.image[j] = p.image[i];
}

template <class S4>
__global__ void unpack_kernel(MpcdView<S4> p, const double* __restrict__ in, uint32_t m, uint32_t at) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < m) unpack_record(p, in + std::size_t(k) * kRec, at + k);
}

}  // namespace

template <class S4>
void mpcd_pack_migrants(MpcdView<S4> p, const uint32_t* list, uint32_t m, double* out, cudaStream_t s) {
  launch_per_item<kBlock>(pack_kernel<S4>, m, s, p, list, m, out);
}
template <class S4>
void mpcd_move_slots(MpcdView<S4> p, const uint32_t* from, const uint32_t* to, const uint32_t* h, uint32_t bound,
                     cudaStream_t s) {
  launch_per_item<kBlock>(move_kernel<S4>, bound, s, p, from, to, h);
}
template <class S4>
void mpcd_unpack_migrants(MpcdView<S4> p, const double* in, uint32_t m, uint32_t at, cudaStream_t s) {
  launch_per_item<kBlock>(unpack_kernel<S4>, m, s, p, in, m, at);
}

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

template <class P>
class CudaMpcdDomain final : public MpcdDomainOp, public DeviceOp {
  using S4 = typename P::S4;

 public:
  explicit CudaMpcdDomain(CudaContext<P>& ctx) : DeviceOp(ctx), ctx_(ctx), counts_(kAxisWords) {}

  void take_leavers(const DomainSlab& s, Records& to_lo, Records& to_hi) override {
    auto& m = ctx_.mpcd;
    if (!m.loaded) throw_input_error("mpcd/domain: the cuda backend holds no MPCD solvent");
    if (m.count_on_device) throw std::logic_error("cuda mpcd/domain: the host path after the device path");
    const uint32_t n = m.n;
    scratch(n);
    cudaStream_t st = ctx_.stream;
    classify_leavers<S4>(m.pos.data(), n, {s.axis, s.lo, s.hi, s.length, s.width}, code_.data(), st);
    select(0, n, {0xff, 1, false}, list_[0].data(), 0);
    select(0, n, {0xff, 2, false}, list_[1].data(), 1);
    const std::array<uint32_t, 2> c = fetch_counts();
    grow_buffer(rec_, std::max<std::size_t>(std::size_t(c[0] + c[1]) * kRec, 1));
    mpcd_pack_migrants<S4>(m.view(), list_[0].data(), c[0], rec_.data(), st);
    mpcd_pack_migrants<S4>(m.view(), list_[1].data(), c[1], rec_.data() + std::size_t(c[0]) * kRec, st);
    download(std::size_t(c[0]) * kRec, to_lo, std::size_t(c[1]) * kRec, to_hi);
    // Close the holes: leavers below the new count take the stayers at or
    // above it (as many of each).
    const uint32_t kept = n - c[0] - c[1];
    if (c[0] + c[1]) {
      select(0, kept, {0xff, 0, true}, list_[0].data(), 0);
      select(kept, n, {0xff, 0, false}, list_[1].data(), 1);
      const std::array<uint32_t, 2> h = fetch_counts();
      if (h[0] != h[1]) throw std::logic_error("cuda mpcd/domain: holes and movers differ");
      mpcd_move_slots<S4>(m.view(), list_[1].data(), list_[0].data(), counts_.data(), h[0], st);
    }
    m.n = kept;
    m.cells_valid = false;
    ctx_.synchronize();
  }

  void add_locals(const Records& rec) override {
    if (rec.size() % kRec != 0)
      throw_input_error("a solvent migration message of ", rec.size(), " values is not a whole number of ", kRec,
                        "-value records");
    const uint32_t k = static_cast<uint32_t>(rec.size() / kRec);
    if (!k) return;
    auto& m = ctx_.mpcd;
    if (uint64_t(m.n) + k >= (1ull << 32)) throw_input_error("MPCD solvent of ", uint64_t(m.n) + k, " particles on one rank is too large");
    m.reserve(m.n + k, ctx_.stream);
    grow_buffer(rec_, rec.size());
    const auto t0 = Clock::now();
    MESO_CUDA_CHECK(
        cudaMemcpyAsync(rec_.data(), rec.data(), rec.size() * sizeof(double), cudaMemcpyHostToDevice, ctx_.stream));
    ctx_.synchronize();
    copy_s_ += seconds_since(t0);
    mpcd_unpack_migrants<S4>(m.view(), rec_.data(), k, m.n, ctx_.stream);
    m.n += k;
    m.cells_valid = false;
    ctx_.synchronize();
  }

  // The device path (--transport nccl): nothing here waits for the device
  // but the ring, when kRing migrations are still unreported.
  bool device_records() const override { return true; }
  std::size_t probe_leavers(const DomainSlab& s) override {
    auto& m = ctx_.mpcd;
    if (!m.loaded) throw_input_error("mpcd/domain: the cuda backend holds no MPCD solvent");
    grow_buffer(code_, std::max<uint32_t>(m.n, 1));
    mpcd_count_leavers<S4>(m.view(), {s.axis, s.lo, s.hi, s.length, s.width}, code_.data(), counts_.data(),
                           ctx_.stream);
    MESO_CUDA_CHECK(cudaMemcpyAsync(h_counts_, counts_.data(), sizeof h_counts_, cudaMemcpyDeviceToHost, ctx_.stream));
    ctx_.synchronize();
    return std::max(h_counts_[0], h_counts_[1]);
  }

  const double* pack_messages(const DomainSlab& s, std::size_t capacity) override {
    auto& m = ctx_.mpcd;
    if (!m.loaded) throw_input_error("mpcd/domain: the cuda backend holds no MPCD solvent");
    if (capacity == 0 || capacity > (1u << 26))
      throw std::logic_error("cuda mpcd/domain: message capacity out of range");
    if (!m.count_on_device) start_device_count();
    cudaStream_t st = ctx_.stream;
    const uint32_t cap = uint32_t(capacity), n = m.n;
    DeviceTimeline* timeline = DeviceTimeline::solvent();
    if (timeline && !grew_) timeline->mark("stream", st);
    grow_buffer(code_, std::max<uint32_t>(n, 1));
    grow_buffer(list_[0], cap);
    grow_buffer(list_[1], cap);
    grow_buffer(holes_, 2 * cap);
    grow_buffer(movers_, 2 * cap);
    grow_buffer(rec_, 2 * (capacity + 1) * kRec);
    mpcd_pack_messages<S4>(m.view(), {s.axis, s.lo, s.hi, s.length, s.width}, cap, code_.data(), list_[0].data(),
                           list_[1].data(), holes_.data(), movers_.data(), counts_.data(), acc_.data(),
                           m.live.data() + 1, rec_.data(), st);
    if (timeline) timeline->mark("select", st);
    m.cells_valid = false;
    return rec_.data();
  }
  double* arrivals(std::size_t capacity) override {
    grow_buffer(in_, 2 * (capacity + 1) * kRec);
    return in_.data();
  }
  void add_arrivals(std::size_t capacity) override {
    auto& m = ctx_.mpcd;
    const uint32_t cap = uint32_t(capacity);
    // The bound grows by what may arrive; the arrays hold it.
    if (uint64_t(m.n) + 2 * uint64_t(cap) >= (1ull << 32))
      throw_input_error("MPCD solvent of up to ", uint64_t(m.n) + 2 * uint64_t(cap),
                        " particles on one rank is too large");
    m.reserve(m.n + 2 * cap, ctx_.stream);
    m.n += 2 * cap;
    grew_ += 2 * cap;
    mpcd_unpack_messages<S4>(m.view(), in_.data(), counts_.data(), cap, m.live.data(), ctx_.stream);
    m.cells_valid = false;
    if (DeviceTimeline* t = DeviceTimeline::solvent()) t->mark("exchange", ctx_.stream);
  }
  // The migration's report words and count into the next slot of the ring.
  void end_migration() override {
    auto& m = ctx_.mpcd;
    if (!m.count_on_device) return;
    while (pending_.size() >= kRing) drain(true, 1);
    const uint32_t slot = uint32_t(next_slot_++ % kRing);
    cudaStream_t st = ctx_.stream;
    MESO_CUDA_CHECK(cudaMemcpyAsync(ring_ + slot * kSlotWords, acc_.data(), kAccWords * sizeof(uint32_t),
                                    cudaMemcpyDeviceToHost, st));
    MESO_CUDA_CHECK(cudaMemcpyAsync(ring_ + slot * kSlotWords + kAccWords, m.live.data(), sizeof(uint32_t),
                                    cudaMemcpyDeviceToHost, st));
    MESO_CUDA_CHECK(cudaMemsetAsync(acc_.data(), 0, kAccWords * sizeof(uint32_t), st));
    MESO_CUDA_CHECK(cudaEventRecord(events_[slot], st));
    pending_.push_back({slot, grew_});
    grew_ = 0;
  }
  MigrationReport migration_report(bool wait) override {
    drain(wait, pending_.size());
    return std::exchange(report_, MigrationReport{});
  }
  ~CudaMpcdDomain() override {
    for (cudaEvent_t e : events_)
      if (e) cudaEventDestroy(e);
    if (ring_) cudaFreeHost(ring_);
  }
  void* device_stream() override { return ctx_.stream; }

  double copy_seconds() const override { return copy_s_; }
  std::pmr::memory_resource* message_memory() override { return &pinned_; }

  std::size_t device_bytes() const override {
    return code_.bytes() + temp_.bytes() + rec_.bytes() + in_.bytes() + counts_.bytes() + acc_.bytes() +
           list_[0].bytes() + list_[1].bytes() + holes_.bytes() + movers_.bytes();
  }

 private:
  CudaContext<P>& ctx_;
  DeviceBuffer<uint8_t> code_;
  DeviceBuffer<unsigned char> temp_;
  DeviceBuffer<double> rec_;
  DeviceBuffer<double> in_;  // arrivals of the device path
  DeviceBuffer<uint32_t> counts_;  // the host path's selection counts; the device path's Word
  DeviceBuffer<uint32_t> acc_;     // the device path's Acc words of the current migration
  DeviceBuffer<uint32_t> holes_, movers_;  // the device path's hole closing
  std::array<DeviceBuffer<uint32_t>, 2> list_;
  PinnedMemory pinned_;  // the message buffers: records cross in one copy
  uint32_t h_counts_[3] = {0, 0, 0};
  double copy_s_ = 0.0;

  // The device path's ring: per migration its Acc words and the count after
  // it (pinned), an event that says they landed, and by how much the bound
  // grew in it (the bound is the last count the host read, plus what may
  // have arrived since).
  static constexpr uint32_t kRing = 4, kSlotWords = kAccWords + 1;
  struct Pending {
    uint32_t slot;
    uint32_t grew;
  };
  uint32_t* ring_ = nullptr;
  std::array<cudaEvent_t, kRing> events_{};
  std::deque<Pending> pending_;
  uint64_t next_slot_ = 0;
  uint32_t grew_ = 0;  // of the migration in progress
  MigrationReport report_;

  // At the first migration, and after a load (which puts the count back on
  // the host): the reports of an earlier solvent are void.
  void start_device_count() {
    auto& m = ctx_.mpcd;
    if (!ring_) {
      MESO_CUDA_CHECK(cudaMallocHost(&ring_, kRing * kSlotWords * sizeof(uint32_t)));
      for (cudaEvent_t& e : events_) MESO_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    }
    ctx_.synchronize();
    pending_.clear();
    grew_ = 0;
    acc_.resize(kAccWords);
    MESO_CUDA_CHECK(cudaMemsetAsync(acc_.data(), 0, kAccWords * sizeof(uint32_t), ctx_.stream));
    // live[0] holds n since the load (the host path keeps n exact), live[1] no fault.
    MESO_CUDA_CHECK(cudaMemcpyAsync(m.live.data(), &m.n, sizeof(uint32_t), cudaMemcpyHostToDevice, ctx_.stream));
    m.count_on_device = true;
    ctx_.invalidate_graphs();  // views now carry the device count
  }
  // Reports the finished migrations of the ring, oldest first, up to `most`
  // of them, waiting for them with `wait`; each one read tightens the bound.
  void drain(bool wait, std::size_t most) {
    auto& m = ctx_.mpcd;
    for (std::size_t k = 0; k < most && !pending_.empty(); ++k) {
      const Pending p = pending_.front();
      const cudaError_t e = wait ? cudaEventSynchronize(events_[p.slot]) : cudaEventQuery(events_[p.slot]);
      if (e == cudaErrorNotReady) break;
      MESO_CUDA_CHECK(e);
      const uint32_t* w = ring_ + p.slot * kSlotWords;
      ++report_.finished;
      report_.most = std::max<std::size_t>(report_.most, w[kMost]);
      report_.strays += w[kStrayTotal];
      report_.overflow += w[kOverflowTotal];
      pending_.pop_front();
      uint64_t bound = w[kAccWords];
      for (const Pending& q : pending_) bound += q.grew;
      bound += grew_;
      m.n = uint32_t(std::min<uint64_t>(bound, m.n));
    }
  }

  void scratch(uint32_t n) { reserve_selection(n, code_, temp_, list_[0], list_[1]); }
  void select(uint32_t begin, uint32_t end, CodeMatch cm, uint32_t* out, int slot) {
    select_indices(code_.data(), begin, end, cm, out, counts_.data() + slot, temp_.data(), temp_.size(), ctx_.stream);
  }
  std::array<uint32_t, 2> fetch_counts() {
    MESO_CUDA_CHECK(
        cudaMemcpyAsync(h_counts_, counts_.data(), sizeof h_counts_, cudaMemcpyDeviceToHost, ctx_.stream));
    ctx_.synchronize();
    return {h_counts_[0], h_counts_[1]};
  }
  // rec_[0, a + b) to the host: the first a into out_a, the next b into out_b.
  void download(std::size_t a, Records& out_a, std::size_t b, Records& out_b) {
    out_a.resize(a);
    out_b.resize(b);
    ctx_.synchronize();  // the packing is done: the time below is the copy's alone
    const auto t0 = Clock::now();
    if (a)
      MESO_CUDA_CHECK(cudaMemcpyAsync(out_a.data(), rec_.data(), a * sizeof(double), cudaMemcpyDeviceToHost,
                                      ctx_.stream));
    if (b)
      MESO_CUDA_CHECK(cudaMemcpyAsync(out_b.data(), rec_.data() + a, b * sizeof(double), cudaMemcpyDeviceToHost,
                                      ctx_.stream));
    ctx_.synchronize();
    copy_s_ += seconds_since(t0);
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_mpcd_domain(CudaContext<P>& ctx) {
  return std::make_unique<CudaMpcdDomain<P>>(ctx);
}

#define MESO_INSTANTIATE(S4)                                                                                 \
  template void mpcd_pack_migrants<S4>(MpcdView<S4>, const uint32_t*, uint32_t, double*, cudaStream_t);      \
  template void mpcd_move_slots<S4>(MpcdView<S4>, const uint32_t*, const uint32_t*, const uint32_t*, uint32_t,     \
                                    cudaStream_t);                                                               \
  template void mpcd_unpack_migrants<S4>(MpcdView<S4>, const double*, uint32_t, uint32_t, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

template std::unique_ptr<Operation> make_cuda_mpcd_domain(CudaContext<PrecDouble>&);
template std::unique_ptr<Operation> make_cuda_mpcd_domain(CudaContext<PrecMixed>&);
template std::unique_ptr<Operation> make_cuda_mpcd_domain(CudaContext<PrecSingle>&);

}  // namespace meso::cuda
