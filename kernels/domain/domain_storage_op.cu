// The "domain" operation of the CUDA backend (meso/ops/domain_storage.hpp):
// what a Communicator needs from the device to move particles between ranks.
// Selection and packing run on the device (domain_storage.cu: a code per
// particle, then a prefix-sum compaction of the flagged indices); records
// cross through the host (host_staging.cuh), by peer reads between ranks of
// one node (PeerGhostOp, ipc_buffers.cuh), or stay on the device for NCCL
// (DeviceRecordsOp). Storage as on the CPU: locals [0, n), then ghosts in
// message order, each message's range kept for the updates. Migration closes
// the leavers' holes with the last stayers (O(leavers) work); every buffer
// is sized by what it holds (records by the selected counts).
#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <memory>
#include <memory_resource>
#include <type_traits>
#include <vector>

#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "domain/domain_storage.cuh"
#include "domain/host_staging.cuh"
#include "domain/ipc_buffers.cuh"
#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/domain_storage.hpp"
#include "meso/ops/peer_ghosts.hpp"
#include "meso/physics/tea.hpp"

namespace meso::cuda {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

template <class P>
class CudaDomainStorage final : public DomainStorageOp, public PeerGhostOp, public DeviceRecordsOp, public DeviceOp {
  using S4 = typename P::S4;

 public:
  explicit CudaDomainStorage(CudaContext<P>& ctx) : DeviceOp(ctx), ctx_(ctx) {
    counts_.resize(4);
    MESO_CUDA_CHECK(cudaMallocHost(&h_counts_, 4 * sizeof(uint32_t)));  // pinned: the counts' copies stay async
  }

  std::size_t n_local() const override { return ctx_.n; }
  std::size_t n_ghost() const override { return ctx_.n_ghost; }
  void set_domain(const Domain& d) override { ctx_.restrict_cells(d); }
  void clear_ghosts() override {
    ctx_.n_ghost = 0;
    send_count_.fill(0);
    range_.fill({0, 0});
  }

  // Two waits: for the counts, and for the records on the host. The holes
  // are closed while the records cross.
  void take_leavers(const DomainSlab& s, Records& to_lo, Records& to_hi) override {
    const auto t0 = Clock::now();
    const std::array<uint32_t, 2> c = leave(s, [&](std::size_t a, std::size_t b) {
      enqueue_download(a, to_lo, b, &to_hi);
      if (a + b)
        MESO_CUDA_CHECK(cudaMemcpyAsync(h_counts_ + 2, counts_.data() + 2, 2 * sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, ctx_.stream));
    });
    settle();
    if (c[0] + c[1] && h_counts_[2] != h_counts_[3])
      throw std::logic_error("cuda domain storage: holes and movers differ");
    pack_s_ += seconds_since(t0);
  }

  // DeviceRecordsOp (--transport nccl): the same with one wait, for the
  // counts; the records stay in rec_ for the communicator's DeviceLinks.
  void* device_stream() override { return ctx_.stream; }
  DeviceLeavers take_leavers_device(const DomainSlab& s) override {
    const auto t0 = Clock::now();
    DeviceLeavers out;
    const std::array<uint32_t, 2> c = leave(s, [](std::size_t, std::size_t) {});
    out.count = {c[0], c[1]};
    out.records = rec_.data();
    pack_s_ += seconds_since(t0);
    return out;
  }
  double* arrivals(std::size_t records, std::size_t width) override {
    grow_buffer(in_, std::max<std::size_t>(records * width, 1));
    return in_.data();
  }
  void add_locals_device(std::size_t records) override {
    const uint32_t m = static_cast<uint32_t>(records);
    if (!m) return;
    if (ctx_.n_ghost) throw std::logic_error("cuda domain storage: locals added while ghosts are stored");
    ctx_.reserve(ctx_.n + m);
    unpack_migrants<S4>(ctx_.view(), in_.data(), m, ctx_.n, signatures(), ctx_.stream);
    ctx_.n += m;
  }
  const double* select_ghosts_device(const DomainSlab& s, bool one_neighbour, std::size_t& n_lo,
                                     std::size_t& n_hi) override {
    const auto t0 = Clock::now();
    const std::array<uint32_t, 2> c = select_send_lists(s, one_neighbour);
    n_lo = c[0];
    n_hi = c[1];
    rec_capacity(std::size_t(c[0] + c[1]) * kGhostRecord);
    pack_ghost_records(s.axis, rec_.data());
    pack_s_ += seconds_since(t0);
    return rec_.data();
  }
  void add_ghosts_device(int slot, std::size_t first, std::size_t count) override {
    const uint32_t m = static_cast<uint32_t>(count), at = ctx_.n_all();
    range_[slot] = {at, m};
    if (!m) return;
    ctx_.reserve(at + m);
    unpack_ghosts<S4>(ctx_.view(), in_.data() + first * kGhostRecord, m, kGhostRecord, at, signatures(),
                      ctx_.stream);
    ctx_.n_ghost += m;
  }
  const double* pack_updates_device(int axis, std::array<std::size_t, 2>& count) override {
    const int lo = 2 * axis, hi = lo + 1;
    count = {send_count_[lo], send_count_[hi]};
    rec_capacity((count[0] + count[1]) * update_record());
    pack_update_into(lo, rec_.data());
    pack_update_into(hi, rec_.data() + count[0] * update_record());
    return rec_.data();
  }
  void unpack_updates_device(int axis, const std::array<std::size_t, 2>& count) override {
    const int lo = 2 * axis, hi = lo + 1;
    for (int k : {0, 1})
      if (count[k] != range_[lo + k].second)
        throw std::logic_error("cuda domain storage: a device ghost update of the wrong size");
    unpack_update_from(lo, in_.data());
    unpack_update_from(hi, in_.data() + count[0] * update_record());
  }

  void add_locals(const Records& rec) override {
    const auto t0 = Clock::now();
    HostStaging::check_records(rec, kMigrateRecord, "migration");
    const uint32_t m = static_cast<uint32_t>(rec.size() / kMigrateRecord);
    if (!m) return;
    if (ctx_.n_ghost) throw std::logic_error("cuda domain storage: locals added while ghosts are stored");
    ctx_.reserve(ctx_.n + m);
    upload(rec);
    unpack_migrants<S4>(ctx_.view(), rec_.data(), m, ctx_.n, signatures(), ctx_.stream);
    ctx_.n += m;
    settle();
    pack_s_ += seconds_since(t0);
  }

  void select_ghosts(const DomainSlab& s, bool one_neighbour, Records& to_lo,
                     Records& to_hi) override {
    const auto t0 = Clock::now();
    const std::array<uint32_t, 2> c = select_send_lists(s, one_neighbour);
    rec_capacity(std::size_t(c[0] + c[1]) * kGhostRecord);
    pack_ghost_records(s.axis, rec_.data());
    download(std::size_t(c[0]) * kGhostRecord, to_lo, std::size_t(c[1]) * kGhostRecord, &to_hi);
    pack_s_ += seconds_since(t0);
  }

  std::vector<unsigned char> select_ghosts_peer(const DomainSlab& s, bool one_neighbour, std::size_t& n_lo,
                                                std::size_t& n_hi) override {
    const auto t0 = Clock::now();
    const std::array<uint32_t, 2> c = select_send_lists(s, one_neighbour);
    n_lo = c[0];
    n_hi = c[1];
    IpcExport& o = exchange_out_[s.axis];
    o.reserve(std::max<std::size_t>(std::size_t(c[0] + c[1]) * kGhostRecord, 1));
    pack_ghost_records(s.axis, o.buf.data());
    ctx_.synchronize();  // the neighbours read it once told
    pack_s_ += seconds_since(t0);
    return o.note(false);
  }

  void add_ghosts_peer(int slot, const std::vector<unsigned char>& handle, std::size_t first,
                       std::size_t count) override {
    const auto t0 = Clock::now();
    const uint32_t m = static_cast<uint32_t>(count), at = ctx_.n_all();
    range_[slot] = {at, m};
    IpcImport& in = exchange_in_[slot];
    if (const cudaError_t e = in.map_note(handle, false); e != cudaSuccess)
      throw std::runtime_error(std::string("cuda domain storage: cannot map the ghost records of message ") +
                               std::to_string(slot) + " from a rank of this node (" + cudaGetErrorString(e) +
                               "); --transport host sends them through the host");
    if (!m) return;
    ctx_.reserve(at + m);
    const double* rec = static_cast<const double*>(in.ptr) + first * kGhostRecord;
    unpack_ghosts<S4>(ctx_.view(), rec, m, kGhostRecord, at, signatures(), ctx_.stream);
    ctx_.n_ghost += m;
    ctx_.synchronize();  // read before this rank's next collective, after which the owner may repack
    const double dt = seconds_since(t0);  // the records cross between GPUs: the copy
    pack_s_ += dt;
    copy_s_ += dt;
  }

  void add_ghosts(int slot, const Records& rec) override {
    const auto t0 = Clock::now();
    HostStaging::check_records(rec, kGhostRecord, "ghost");
    const uint32_t m = static_cast<uint32_t>(rec.size() / kGhostRecord), at = ctx_.n_all();
    range_[slot] = {at, m};
    if (!m) return;
    ctx_.reserve(at + m);
    upload(rec);
    unpack_ghosts<S4>(ctx_.view(), rec_.data(), m, kGhostRecord, at, signatures(), ctx_.stream);
    ctx_.n_ghost += m;
    settle();
    pack_s_ += seconds_since(t0);
  }

  // fp32 storage sends six floats a particle (update_record() = 3 doubles'
  // bytes), fp64 storage six doubles.
  static constexpr bool kCompactUpdates = std::is_same_v<S4, float4>;
  std::size_t update_record() const override { return kCompactUpdates ? kUpdateRecord / 2 : kUpdateRecord; }

  void pack_update(int slot, Records& out) override {
    const auto t0 = Clock::now();
    const std::size_t m = send_count_[slot];
    rec_capacity(m * update_record());
    pack_update_into(slot, rec_.data());
    download(m * update_record(), out, 0, nullptr);
    pack_s_ += seconds_since(t0);
  }

  void unpack_update(int slot, const Records& in) override {
    const auto t0 = Clock::now();
    const auto [at, m] = range_[slot];
    const std::size_t size = update_record();
    if (in.size() != std::size_t(m) * size)
      throw_input_error("ghost update ", slot, " carries ", in.size() / size, " particles for ", m, " ghosts");
    if (!m) return;
    upload(in);
    unpack_update_from(slot, rec_.data());
    settle();
    pack_s_ += seconds_since(t0);
  }

  // Peer updates (CUDA IPC, PeerGhostOp): each send list's buffer is
  // exported to the rank it goes to, which reads it into its ghosts.
  std::vector<unsigned char> export_update(int slot) override {
    IpcExport& o = peer_out_[slot];
    o.reserve(2 * std::max<std::size_t>(std::size_t(send_count_[slot]) * update_record(), 1));
    return o.note(true);
  }

  bool import_update(int slot, const std::vector<unsigned char>& bytes) override {
    return peer_in_[slot].map_note(bytes, true) == cudaSuccess;  // not mappable here: updates go through the host
  }

  // Enqueued only: the communicator packs the first split axis right after
  // the first half-step, so that the wait for the step's control (and
  // wait_packed) finds it done.
  void pack_update_peer(int slot, int half) override {
    const auto t0 = Clock::now();
    IpcExport& o = peer_out_[slot];
    pack_update_into(slot, o.buf.data() + half * o.half());
    pack_s_ += seconds_since(t0);
  }

  void wait_packed() override {
    const auto t0 = Clock::now();
    ctx_.synchronize();  // the neighbours read the packs once told
    pack_s_ += seconds_since(t0);
  }

  // Enqueued only: the forces that read the ghosts follow on the stream.
  // The neighbour packs into this half again only after this rank's next
  // message, sent after wait_packed, hence after these reads (which run on
  // the device among the step's kernels: compute, in the split).
  void pull_update(int slot, int half) override {
    const auto t0 = Clock::now();
    const auto [at, m] = range_[slot];
    const IpcImport& in = peer_in_[slot];
    if (!m) return;
    if (!in.ptr || std::size_t(m) * update_record() > in.half)
      throw std::logic_error("cuda domain storage: peer update " + std::to_string(slot) + " does not fit its buffer");
    unpack_update_from(slot, static_cast<const double*>(in.ptr) + half * in.half);
    pack_s_ += seconds_since(t0);
  }

  ~CudaDomainStorage() override {
    cudaFreeHost(h_counts_);
    for (IpcImport* in : {peer_in_.data(), exchange_in_.data()})
      for (int k = 0; k < 6; ++k) in[k].close();
  }

  // Selecting, packing and unpacking on the device, with the copies
  // counted apart (copy_seconds).
  double pack_seconds() const override { return pack_s_ - copy_seconds(); }
  double copy_seconds() const override { return copy_s_ + staging_.seconds(); }
  std::pmr::memory_resource* message_memory() override { return &pinned_; }
  PeerGhostOp* peer_ghosts() override { return this; }
  DeviceRecordsOp* device_records() override { return this; }

  std::size_t device_bytes() const override {
    std::size_t b = code_.bytes() + temp_.bytes() + rec_.bytes() + in_.bytes() + counts_.bytes();
    for (const auto& l : list_) b += l.bytes();
    for (const auto& l : send_) b += l.bytes();
    for (const auto& o : peer_out_) b += o.bytes();
    for (const auto& o : exchange_out_) b += o.bytes();
    return b;
  }

 private:
  CudaContext<P>& ctx_;
  DeviceBuffer<uint8_t> code_;
  DeviceBuffer<unsigned char> temp_;
  DeviceBuffer<double> rec_;                        // records on the device, both directions
  DeviceBuffer<double> in_;                         // arrivals of the device path (DeviceRecordsOp)
  DeviceBuffer<uint32_t> counts_;                   // selection counts
  std::array<DeviceBuffer<uint32_t>, 2> list_;      // migration: leavers, holes and movers
  std::array<DeviceBuffer<uint32_t>, 6> send_;      // ghost send lists, 2 axis + side
  std::array<uint32_t, 6> send_count_{};
  std::array<std::pair<uint32_t, uint32_t>, 6> range_{};  // ghosts of message slot: first, count
  PinnedMemory pinned_;
  std::array<IpcExport, 6> peer_out_;  // per send list, in two halves
  std::array<IpcImport, 6> peer_in_;    // per message slot
  // Peer ghost exchanges: the records of an axis's two send lists, kept for
  // the neighbours until the next exchange along it; the neighbours'
  // buffers, mapped, per message slot.
  std::array<IpcExport, 3> exchange_out_;
  std::array<IpcImport, 6> exchange_in_;
  uint32_t* h_counts_ = nullptr;  // 4, pinned
  HostStaging staging_;  // host-staged records' copies

  // Migration's leavers along s: selected, packed into rec_ (towards lo
  // first), then their holes closed by the last stayers (behind the packs
  // on the stream, which read the leavers first; there are as many holes
  // below the new count m as stayers at or above it, so the movers' count,
  // which stays on the device, sizes the moves). Waits for the leavers'
  // counts only; `packed(a, b)` runs with the records' sizes after the packs
  // are enqueued.
  template <class Packed>
  std::array<uint32_t, 2> leave(const DomainSlab& s, Packed&& packed) {
    if (ctx_.n_ghost) clear_ghosts();
    const uint32_t n = ctx_.n;
    scratch(n);
    cudaStream_t st = ctx_.stream;
    classify_leavers<S4>(ctx_.pos.data(), n, slab(s), code_.data(), st);
    select(0, n, {0xff, 1, false}, list_[0].data(), 0);
    select(0, n, {0xff, 2, false}, list_[1].data(), 1);
    const std::array<uint32_t, 2> c = fetch_counts<2>();
    const std::size_t a = std::size_t(c[0]) * kMigrateRecord, b = std::size_t(c[1]) * kMigrateRecord;
    rec_capacity(a + b);
    pack_migrants<S4>(ctx_.view(), list_[0].data(), c[0], rec_.data(), st);
    pack_migrants<S4>(ctx_.view(), list_[1].data(), c[1], rec_.data() + a, st);
    packed(a, b);
    const uint32_t m = n - c[0] - c[1];
    if (c[0] + c[1]) {
      select(0, m, {0xff, 0, true}, list_[0].data(), 2);
      select(m, n, {0xff, 0, false}, list_[1].data(), 3);
      move_slots<S4>(ctx_.view(), list_[1].data(), list_[0].data(), counts_.data() + 3, c[0] + c[1], st);
    }
    ctx_.n = m;
    return c;
  }

  // Ghost selection along s.axis into send lists 2 axis and 2 axis + 1
  // (their counts returned and kept for the updates).
  std::array<uint32_t, 2> select_send_lists(const DomainSlab& s, bool one_neighbour) {
    const uint32_t n_all = ctx_.n_all(), lo = 2 * s.axis;
    scratch(n_all);
    classify_ghosts<S4>(ctx_.pos.data(), n_all, slab(s), one_neighbour, code_.data(), ctx_.stream);
    select(0, n_all, {1, 1, false}, list_[0].data(), 0);
    // One neighbour: the union is code 1, and list 2 axis + 1 stays empty.
    if (!one_neighbour) select(0, n_all, {2, 2, false}, list_[1].data(), 1);
    const std::array<uint32_t, 2> c = one_neighbour ? std::array<uint32_t, 2>{fetch_counts<1>()[0], 0}
                                                    : fetch_counts<2>();
    // The lists are kept until the next exchange, in buffers of their size.
    for (int k : {0, 1}) {
      grow_buffer(send_[lo + k], c[k]);
      if (c[k])
        MESO_CUDA_CHECK(cudaMemcpyAsync(send_[lo + k].data(), list_[k].data(), c[k] * sizeof(uint32_t),
                                        cudaMemcpyDeviceToDevice, ctx_.stream));
      send_count_[lo + k] = c[k];
    }
    return c;
  }
// Their ghost records into out: list 2 axis, then 2 axis + 1 (enqueued).
  void pack_ghost_records(int axis, double* out) {
    const uint32_t lo = 2 * axis, hi = lo + 1;
    const bool pred = ctx_.forces_read_pred;
    pack_ghosts<S4>(ctx_.view(), send_[lo].data(), send_count_[lo], kGhostRecord, pred, out, ctx_.stream);
    pack_ghosts<S4>(ctx_.view(), send_[hi].data(), send_count_[hi], kGhostRecord, pred,
                    out + std::size_t(send_count_[lo]) * kGhostRecord, ctx_.stream);
  }

  // The update records of send list `slot` into `out`, and back into the
  // ghosts of message `slot` (enqueued only).
  void pack_update_into(int slot, double* out) {
    pack_update_records<S4>(ctx_.view(), send_[slot].data(), send_count_[slot], ctx_.forces_read_pred, out,
                            ctx_.stream);
  }
  void unpack_update_from(int slot, const double* in) {
    unpack_update_records<S4>(ctx_.view(), in, range_[slot].second, range_[slot].first, signatures(), ctx_.stream);
  }
  double pack_s_ = 0.0, copy_s_ = 0.0;  // copy_s_: peer reads of ghost exchanges

  static SlabArgs slab(const DomainSlab& s) { return {s.axis, s.lo, s.hi, s.length, s.width}; }
  SignatureArgs signatures() const {
    return {ctx_.tea, ctx_.forces_read_pred && ctx_.vel_pred.size() > 0,
            physics::tea_seed_whitening(ctx_.params.seed)};
  }

  // Codes, selection lists and CUB scratch for n particles.
  void scratch(uint32_t n) { reserve_selection(n, code_, temp_, list_[0], list_[1]); }
  void rec_capacity(std::size_t doubles) { grow_buffer(rec_, std::max<std::size_t>(doubles, 1)); }

  void select(uint32_t begin, uint32_t end, CodeMatch m, uint32_t* out, int slot) {
    select_indices(code_.data(), begin, end, m, out, counts_.data() + slot, temp_.data(), temp_.size(), ctx_.stream);
  }
  template <int K>
  std::array<uint32_t, K> fetch_counts() {
    MESO_CUDA_CHECK(cudaMemcpyAsync(h_counts_, counts_.data(), K * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                                    ctx_.stream));
    ctx_.synchronize();
    std::array<uint32_t, K> c;
    std::copy(h_counts_, h_counts_ + K, c.begin());
    return c;
  }

  // The records rec_[0, a + b) to the host, the first a into out_a, the
  // next b into out_b (when given), and waits.
  void download(std::size_t a, Records& out_a, std::size_t b, Records* out_b) {
    enqueue_download(a, out_a, b, out_b);
    settle();
  }
  // The same, enqueued only (the caller's settle() waits).
  void enqueue_download(std::size_t a, Records& out_a, std::size_t b, Records* out_b) {
    staging_.download(rec_.data(), a, out_a, b, out_b, ctx_.stream);
  }
  // Records from the host into rec_ (enqueued: `in` must live until the
  // caller's settle()).
  void upload(const Records& in) {
    rec_capacity(in.size());
    staging_.upload(rec_.data(), in, ctx_.stream);
  }
  // Waits for the stream; adds the time of the copies.
  void settle() {
    ctx_.synchronize();
    staging_.account();
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_domain_storage(CudaContext<P>& ctx) {
  return std::make_unique<CudaDomainStorage<P>>(ctx);
}

template std::unique_ptr<Operation> make_cuda_domain_storage(CudaContext<PrecDouble>&);
template std::unique_ptr<Operation> make_cuda_domain_storage(CudaContext<PrecMixed>&);
template std::unique_ptr<Operation> make_cuda_domain_storage(CudaContext<PrecSingle>&);

}  // namespace meso::cuda
