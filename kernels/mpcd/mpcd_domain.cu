// The MPCD solvent's side of domain decomposition on the device (operation
// "mpcd/domain", meso/ops/mpcd.hpp; its CPU reference is
// reference/src/mpcd/mpcd_domain.cpp): after streaming, the particles outside the
// rank's slab along one axis are selected by a code per particle and a
// prefix-sum compaction (domain_storage.cuh, as for MD particles: Tang &
// Karniadakis, CPC 2014, Alg. 6), packed into records of kRecord doubles
// (exact for every storage precision), copied to the host for MPI, and their
// holes closed by moving the last stayers into them (O(leavers) work, not a
// compaction of every array). Arrivals are copied up and appended. The order
// of the solvent changes; the collision's fixed-point cell sums do not see
// it (bitwise one rank's, decomposition_test).
#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "core/cuda_operations.cuh"
#include "core/device_timeline.cuh"
#include "core/device_ops.cuh"
#include "domain/domain_storage.cuh"
#include "meso/cuda/check.hpp"
#include "meso/error.hpp"
#include "meso/ops/mpcd.hpp"
#include "mpcd/mpcd_kernels.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kBlock = 256;
uint32_t blocks(uint32_t n) { return (n + kBlock - 1) / kBlock; }
constexpr uint32_t kRec = MpcdDomainOp::kRecord;

template <class S4>
__global__ void pack_kernel(MpcdView<S4> p, const uint32_t* __restrict__ list, uint32_t m, double* __restrict__ out) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const uint32_t i = list[k];
  const S4 r = p.pos[i], v = p.vel[i];
  const Image im = p.image[i];
  double* o = out + std::size_t(k) * kRec;
  o[0] = double(r.x), o[1] = double(r.y), o[2] = double(r.z);
  o[3] = double(v.x), o[4] = double(v.y), o[5] = double(v.z);
  o[6] = double(im.x), o[7] = double(im.y), o[8] = double(im.z);
  o[9] = double(type_of(r));
  o[10] = double(p.tag[i]);
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

// Appends i to list (*count entries so far) where `want`: one atomic a warp.
// Every lane of the warp calls it. Entries from `cap` on are counted, not
// stored (the caller grows the list and selects again).
__device__ __forceinline__ void append(bool want, uint32_t* __restrict__ list, uint32_t* __restrict__ count,
                                       uint32_t i, uint32_t cap = 0xffffffffu) {
  const unsigned mask = __ballot_sync(0xffffffffu, want);
  if (!mask) return;
  const unsigned lane = threadIdx.x & 31u;
  const int leader = __ffs(mask) - 1;
  uint32_t base = 0;
  if (int(lane) == leader) base = atomicAdd(count, uint32_t(__popc(mask)));
  base = __shfl_sync(0xffffffffu, base, leader);
  const uint32_t at = base + __popc(mask & ((1u << lane) - 1u));
  if (want && at < cap) list[at] = i;
}

// The device path's leavers in one pass (classify_leavers' rule, then the
// selection): code[i] (0 stays, 1 towards lo, 2 towards hi), leavers
// appended to list0 (counts[0]) and list1 (counts[1]), each of cap entries
// (a larger count says that it overflowed), and the strays,
// leavers whose position lies beyond the neighbour they go to (domains of
// equal width hi - lo; none with two ranks along the axis), in counts[2].
// The lists' order is the order warps arrive in: the collision's
// fixed-point cell sums do not see the order of the solvent.
template <class S4>
__global__ void leavers_kernel(const S4* __restrict__ pos, uint32_t n, SlabArgs s, uint8_t* __restrict__ code,
                               uint32_t* __restrict__ list0, uint32_t* __restrict__ list1, uint32_t cap,
                               uint32_t* __restrict__ counts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  uint8_t c = 0;
  if (i < n) {
    const Vec3d r = xyz(pos[i]);
    double u = (s.axis == 0 ? r.x : s.axis == 1 ? r.y : r.z) - s.lo;
    if (u < 0.0) u += s.length;
    if (u >= s.length) u -= s.length;
    const double w = s.hi - s.lo;
    c = u < w ? 0 : (s.length - u) < (u - w) ? 1 : 2;
    code[i] = c;
    if (c == 1 ? s.length - u > w : c == 2 && u >= 2.0 * w) atomicAdd(counts + 2, 1u);
  }
  append(c == 1, list0, counts, i, cap);
  append(c == 2, list1, counts + 1, i, cap);
}

// The holes the leavers leave below the new count `kept` (from the leaver
// lists: c0 + c1 entries) and the stayers at or above it (slots [kept, n),
// as many), appended to holes (counts[3]) and movers (counts[4]): mover k
// then fills hole k. Work in proportion to the leavers.
__global__ void holes_kernel(const uint8_t* __restrict__ code, const uint32_t* __restrict__ list0, uint32_t c0,
                             const uint32_t* __restrict__ list1, uint32_t c1, uint32_t kept,
                             uint32_t* __restrict__ holes, uint32_t* __restrict__ movers,
                             uint32_t* __restrict__ counts) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  bool hole = false, mover = false;
  uint32_t h = 0, m = 0;
  if (k < c0 + c1) {
    h = k < c0 ? list0[k] : list1[k - c0];
    hole = h < kept;
    m = kept + k;  // < n: n - kept = c0 + c1
    mover = code[m] == 0;
  }
  append(hole, holes, counts + 3, h);
  append(mover, movers, counts + 4, m);
}

template <class S4>
__global__ void unpack_kernel(MpcdView<S4> p, const double* __restrict__ in, uint32_t m, uint32_t at) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const double* r = in + std::size_t(k) * kRec;
  const uint32_t i = at + k;
  // The sender's stored values: the conversion back is exact.
  p.pos[i] = make4<S4>(Vec3d{r[0], r[1], r[2]}, r[9]);
  p.vel[i] = make4<S4>(Vec3d{r[3], r[4], r[5]}, 0.0);
  p.image[i] = {int32_t(r[6]), int32_t(r[7]), int32_t(r[8])};
  p.tag[i] = uint32_t(r[10]);
}

}  // namespace

template <class S4>
void mpcd_pack_migrants(MpcdView<S4> p, const uint32_t* list, uint32_t m, double* out, cudaStream_t s) {
  if (!m) return;
  pack_kernel<S4><<<blocks(m), kBlock, 0, s>>>(p, list, m, out);
  MESO_CUDA_CHECK(cudaGetLastError());
}
template <class S4>
void mpcd_move_slots(MpcdView<S4> p, const uint32_t* from, const uint32_t* to, const uint32_t* h, uint32_t bound,
                     cudaStream_t s) {
  if (!bound) return;
  move_kernel<S4><<<blocks(bound), kBlock, 0, s>>>(p, from, to, h);
  MESO_CUDA_CHECK(cudaGetLastError());
}
template <class S4>
void mpcd_unpack_migrants(MpcdView<S4> p, const double* in, uint32_t m, uint32_t at, cudaStream_t s) {
  if (!m) return;
  unpack_kernel<S4><<<blocks(m), kBlock, 0, s>>>(p, in, m, at);
  MESO_CUDA_CHECK(cudaGetLastError());
}

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

template <class P>
class CudaMpcdDomain final : public MpcdDomainOp, public DeviceOp {
  using S4 = typename P::S4;

 public:
  explicit CudaMpcdDomain(CudaContext<P>& ctx) : DeviceOp(ctx), ctx_(ctx), counts_(5) {}

  void take_leavers(const DomainSlab& s, Records& to_lo, Records& to_hi) override {
    auto& m = ctx_.mpcd;
    if (!m.loaded) throw_input_error("mpcd/domain: the cuda backend holds no MPCD solvent");
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

  // The device path (--transport nccl): as take_leavers, with one wait (for
  // the counts and the strays) and the records left in rec_; the leavers
  // are selected in one pass, and the holes are found among them and
  // closed by a move whose count stays on the device.
  bool device_records() const override { return true; }
  DeviceLeavers take_leavers_device(const DomainSlab& s) override {
    auto& m = ctx_.mpcd;
    if (!m.loaded) throw_input_error("mpcd/domain: the cuda backend holds no MPCD solvent");
    const uint32_t n = m.n;
    cudaStream_t st = ctx_.stream;
    DeviceTimeline* timeline = DeviceTimeline::solvent();
    if (timeline) timeline->mark("stream", st);
    const SlabArgs sa{s.axis, s.lo, s.hi, s.length, s.width};
    // A code for every particle; leaver lists for a sixteenth of them (a
    // period moves far fewer across a face), grown and the selection run
    // again when it overflows them (it only reads the positions).
    grow_buffer(code_, n);
    std::size_t cap = std::max<std::size_t>(n / 16 + 1024, std::min(list_[0].size(), list_[1].size()));
    for (;;) {
      grow_buffer(list_[0], cap);
      grow_buffer(list_[1], cap);
      cap = std::min(list_[0].size(), list_[1].size());
      MESO_CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, 5 * sizeof(uint32_t), st));
      if (n) {
        leavers_kernel<S4><<<blocks(n), kBlock, 0, st>>>(m.pos.data(), n, sa, code_.data(), list_[0].data(),
                                                         list_[1].data(), uint32_t(cap), counts_.data());
        MESO_CUDA_CHECK(cudaGetLastError());
      }
      if (timeline) timeline->mark("select", st);
      MESO_CUDA_CHECK(cudaMemcpyAsync(h_counts_, counts_.data(), sizeof h_counts_, cudaMemcpyDeviceToHost, st));
      ctx_.synchronize();
      const std::size_t most = std::max(h_counts_[0], h_counts_[1]);
      if (most <= cap) break;
      cap = most + most / 8;
    }
    const uint32_t c0 = h_counts_[0], c1 = h_counts_[1];
    DeviceLeavers out;
    out.count = {c0, c1};
    out.strays = h_counts_[2];
    grow_buffer(rec_, std::max<std::size_t>(std::size_t(c0 + c1) * kRec, 1));
    mpcd_pack_migrants<S4>(m.view(), list_[0].data(), c0, rec_.data(), st);
    mpcd_pack_migrants<S4>(m.view(), list_[1].data(), c1, rec_.data() + std::size_t(c0) * kRec, st);
    const uint32_t kept = n - c0 - c1;
    if (c0 + c1) {
      grow_buffer(holes_, c0 + c1);
      grow_buffer(movers_, c0 + c1);
      holes_kernel<<<blocks(c0 + c1), kBlock, 0, st>>>(code_.data(), list_[0].data(), c0, list_[1].data(), c1, kept,
                                                       holes_.data(), movers_.data(), counts_.data());
      MESO_CUDA_CHECK(cudaGetLastError());
      mpcd_move_slots<S4>(m.view(), movers_.data(), holes_.data(), counts_.data() + 3, c0 + c1, st);
    }
    m.n = kept;
    m.cells_valid = false;
    out.records = rec_.data();
    return out;
  }
  double* arrivals(std::size_t records, std::size_t width) override {
    if (width != kRec) throw std::logic_error("cuda mpcd/domain: arrivals of another record size");
    grow_buffer(in_, std::max<std::size_t>(records * kRec, 1));
    return in_.data();
  }
  void add_arrivals(std::size_t records) override {
    if (!records) return;
    auto& m = ctx_.mpcd;
    if (uint64_t(m.n) + records >= (1ull << 32))
      throw_input_error("MPCD solvent of ", uint64_t(m.n) + records, " particles on one rank is too large");
    const uint32_t k = uint32_t(records);
    m.reserve(m.n + k, ctx_.stream);
    mpcd_unpack_migrants<S4>(m.view(), in_.data(), k, m.n, ctx_.stream);
    m.n += k;
    m.cells_valid = false;
    if (DeviceTimeline* t = DeviceTimeline::solvent()) t->mark("exchange", ctx_.stream);
  }
  void* device_stream() override { return ctx_.stream; }

  double copy_seconds() const override { return copy_s_; }
  std::pmr::memory_resource* message_memory() override { return &pinned_; }

  std::size_t device_bytes() const override {
    return code_.bytes() + temp_.bytes() + rec_.bytes() + in_.bytes() + counts_.bytes() + list_[0].bytes() +
           list_[1].bytes() + holes_.bytes() + movers_.bytes();
  }

 private:
  CudaContext<P>& ctx_;
  DeviceBuffer<uint8_t> code_;
  DeviceBuffer<unsigned char> temp_;
  DeviceBuffer<double> rec_;
  DeviceBuffer<double> in_;  // arrivals of the device path
  DeviceBuffer<uint32_t> counts_;  // the two selections' counts, the strays, holes and movers
  DeviceBuffer<uint32_t> holes_, movers_;  // the device path's hole closing
  std::array<DeviceBuffer<uint32_t>, 2> list_;
  PinnedMemory pinned_;  // the message buffers: records cross in one copy
  uint32_t h_counts_[3] = {0, 0, 0};
  double copy_s_ = 0.0;

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
