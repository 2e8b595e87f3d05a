// The `polymerize` operation of the CUDA backend: GALAMOST's stochastic
// chain growth (meso/core/polymerization.hpp) on the device, forming the bonds
// the CPU reference (reference/src/md/polymerize.cpp) forms. One attempt:
//
//   1. the storage index of every tag (the reorder permutes the arrays);
//   2. the free monomers binned into capture cells at least one capture
//      radius wide (counts, a CUB scan, a fill);
//   3. one warp per active end: the acceptance draw, then the smallest
//      candidate key over the monomers within the capture radius in its own
//      and the neighbouring cells, and the end's claim on that monomer by
//      one 64-bit atomicMin;
//   4. one thread per chain: the end whose claim is the monomer's minimum
//      wins it, retypes it in place (pos.w), writes the bond into both
//      particles' slots of the grown bonds (CudaContextBase::GrownBonds,
//      which the bonded force reads from the next step on) and into the
//      log, and moves its chain's end to it;
//   5. the claims cleared, and one thread folds the attempt's counts into
//      the statistics.
//
// Every choice is a minimum of keyed draws (meso/physics/polymerization.hpp),
// so the visiting order of warps and the members' order in a cell change
// nothing. Nothing waits for the host: an attempt is a few launches on the
// context's stream, and the statistics and the bonds come to the host only
// when asked for (stats(), formed(): the log sorted by attempt and old end
// tag, the reference's order). Nothing can overflow either: a linear chain
// gives a particle at most two growth bonds (the one it joined by, the one
// its chain grew from it by), and the log holds one entry for each monomer
// free at t = 0.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <memory>
#include <vector>

#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/polymerize.hpp"
#include "meso/physics/polymerization.hpp"

namespace meso::cuda {
namespace {

constexpr uint32_t kBlock = 128;
constexpr uint64_t kNone = ~uint64_t{0};
uint32_t blocks(uint64_t threads) { return uint32_t((threads + kBlock - 1) / kBlock); }

// The capture cells: nc[a] along each axis of the box.
struct CaptureCells {
  Vec3d lo, length;
  uint32_t nc[3];
  __device__ uint32_t axis(const Vec3d& x, int a) const {
    return physics::polymerization_cell((&x.x)[a], (&lo.x)[a], (&length.x)[a], nc[a]);
  }
  __device__ uint32_t index(uint32_t x, uint32_t y, uint32_t z) const { return (z * nc[1] + y) * nc[0] + x; }
  __device__ uint32_t of(const Vec3d& x) const { return index(axis(x, 0), axis(x, 1), axis(x, 2)); }
};

__global__ void index_kernel(const uint32_t* __restrict__ tag, uint32_t n, uint32_t* __restrict__ index_of_tag) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) index_of_tag[tag[i]] = i;
}

// fill == false: counts the free monomers of each cell into `slots`;
// fill == true: writes their tags at slots[cell]++ (slots: the cells'
// starts), in whatever order the atomics come.
template <class S4, bool kFill>
__global__ void bin_kernel(const S4* __restrict__ pos, const uint32_t* __restrict__ tag, uint32_t n,
                           const uint8_t* __restrict__ free, CaptureCells g, uint32_t* __restrict__ slots,
                           uint32_t* __restrict__ members) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t t = tag[i];
  if (!free[t]) return;
  const uint32_t at = atomicAdd(slots + g.of(xyz(pos[i])), 1u);
  if constexpr (kFill) members[at] = t;
}

// The running statistics on the device (PolymerizationStats without the
// growth per chain), and one attempt's counts, which the tally folds in.
struct DeviceStats {
  unsigned long long attempts, reactions, contested, free_monomers, attempting, candidates;
  double box_monomers;
};
struct AttemptCounts {
  unsigned long long attempting, candidates, chosen, won;
};

template <class S4>
struct ChooseArgs {
  const S4* pos;
  const uint32_t* index_of_tag;
  const uint32_t* ends;  // per chain: the tag of its active end
  uint32_t n_ends;
  const uint32_t* start;    // ncells + 1
  const uint32_t* members;  // free monomer tags by cell
  CaptureCells cells;
  Box box;
  double rc2;
  double probability;
  const double* chain_probability;  // per chain, or nullptr: every end at `probability`
  uint32_t seed;
  uint64_t step;
  uint64_t* choice;           // per chain: the smallest candidate, kNone if none
  unsigned long long* claim;  // per monomer tag: the smallest claim on it
  AttemptCounts* counts;      // ends that attempted, candidates they found
};

// One warp per chain: the lanes stride through the members of the (distinct)
// cells within one cell of the end's, and reduce their smallest key.
template <class S4>
__global__ void choose_kernel(ChooseArgs<S4> a) {
  const uint32_t k = (blockIdx.x * blockDim.x + threadIdx.x) / 32u, lane = threadIdx.x & 31u;
  if (k >= a.n_ends) return;  // whole warps
  const uint32_t e = a.ends[k];
  const double p = a.chain_probability ? a.chain_probability[k] : a.probability;
  if (!physics::polymerization_accepts(a.seed, a.step, e, p)) {
    if (lane == 0) a.choice[k] = kNone;
    return;
  }
  const Vec3d xe = xyz(a.pos[a.index_of_tag[e]]);
  uint32_t near[3][3], count[3];
  for (int d = 0; d < 3; ++d) {  // c - 1, c, c + 1 modulo nc, each once
    const uint32_t c = a.cells.axis(xe, d), nc = a.cells.nc[d];
    count[d] = 0;
    for (uint32_t off : {nc - 1, 0u, 1u}) {
      const uint32_t q = (c + off) % nc;
      bool seen = false;
      for (uint32_t j = 0; j < count[d]; ++j) seen |= near[d][j] == q;
      if (!seen) near[d][count[d]++] = q;
    }
  }
  uint64_t best = kNone;
  uint32_t found = 0;
  for (uint32_t z = 0; z < count[2]; ++z)
    for (uint32_t y = 0; y < count[1]; ++y)
      for (uint32_t x = 0; x < count[0]; ++x) {
        const uint32_t cell = a.cells.index(near[0][x], near[1][y], near[2][z]);
        for (uint32_t q = a.start[cell] + lane; q < a.start[cell + 1]; q += 32u) {
          const uint32_t m = a.members[q];
          const Vec3d d = a.box.min_image(xyz(a.pos[a.index_of_tag[m]]) - xe);
          if (dot(d, d) <= a.rc2) {
            const uint64_t key = physics::polymerization_candidate(a.seed, a.step, e, m);
            best = key < best ? key : best;
            ++found;
          }
        }
      }
  for (int o = 16; o > 0; o >>= 1) {
    const uint64_t other = __shfl_xor_sync(0xffffffffu, (unsigned long long)best, o);
    best = other < best ? other : best;
    found += __shfl_xor_sync(0xffffffffu, found, o);
  }
  if (lane != 0) return;
  a.choice[k] = best;
  atomicAdd(&a.counts->attempting, 1ull);
  atomicAdd(&a.counts->candidates, (unsigned long long)found);
  if (best != kNone) atomicMin(a.claim + uint32_t(best), physics::polymerization_claim(best, e));
}

template <class S4>
struct ResolveArgs {
  S4* pos;
  const uint32_t* index_of_tag;
  uint32_t* ends;
  uint32_t* growth;  // per chain
  uint32_t n_ends;
  const uint64_t* choice;
  const unsigned long long* claim;
  uint8_t* free;
  uint32_t reacted_type;
  uint32_t* partner;  // GrownBonds: 2 slots per tag
  uint32_t* id;
  uint32_t* log;      // end, monomer, attempt per bond
  const DeviceStats* stats;
  AttemptCounts* counts;
};

// One thread per chain: the smallest claim on a monomer wins it. The bond
// takes the next free entry of the log (the order within an attempt is the
// atomics'; the host sorts it when asked), slot 1 of the old end and slot 0
// of the monomer.
template <class S4>
__global__ void resolve_kernel(ResolveArgs<S4> a) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= a.n_ends) return;
  const uint64_t c = a.choice[k];
  if (c == kNone) return;
  atomicAdd(&a.counts->chosen, 1ull);
  const uint32_t m = uint32_t(c), e = a.ends[k];
  if (a.claim[m] != physics::polymerization_claim(c, e)) return;
  const uint32_t entry = uint32_t(a.stats->reactions + atomicAdd(&a.counts->won, 1ull));
  a.log[3 * std::size_t(entry)] = e;
  a.log[3 * std::size_t(entry) + 1] = m;
  a.log[3 * std::size_t(entry) + 2] = uint32_t(a.stats->attempts);
  a.partner[2 * std::size_t(e) + 1] = m;
  a.id[2 * std::size_t(e) + 1] = entry;
  a.partner[2 * std::size_t(m)] = e;
  a.id[2 * std::size_t(m)] = entry;
  a.free[m] = 0;
  S4& r = a.pos[a.index_of_tag[m]];
  r.w = decltype(r.w)(a.reacted_type);
  a.ends[k] = m;
  ++a.growth[k];
}

// The claims back to "none" for the next attempt (after every resolve read them).
__global__ void release_kernel(const uint64_t* __restrict__ choice, uint32_t n_ends,
                               unsigned long long* __restrict__ claim) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n_ends && choice[k] != kNone) claim[uint32_t(choice[k])] = kNone;
}

// One thread: the attempt's counts into the statistics, in the reference's
// order (the box's free monomers are those before this attempt's bonds).
__global__ void tally_kernel(DeviceStats* __restrict__ st, AttemptCounts* __restrict__ c) {
  st->attempting += c->attempting;
  st->candidates += c->candidates;
  st->box_monomers += double(c->attempting) * double(st->free_monomers);
  st->contested += c->chosen - c->won;
  st->reactions += c->won;
  st->free_monomers -= c->won;
  st->attempts += 1;
  *c = AttemptCounts{};
}

template <class P>
class CudaPolymerize final : public PolymerizeOp, public DeviceOp {
  using S4 = typename P::S4;

 public:
  explicit CudaPolymerize(CudaContext<P>& ctx) : DeviceOp(ctx), ctx_(ctx) {
    if (ctx.n_ghost != 0) throw_input_error("polymerization is not decomposed over ranks yet: run it on one rank");
    const Polymerization& pz = ctx.sys.polymerization;
    ParticleData<double> p;
    ctx.get_particles(p);  // tag order
    const uint32_t n = ctx.n;
    std::vector<uint8_t> free(n, 0);
    for (uint32_t i = 0; i < n; ++i) free[p.tag[i]] = p.type[i] == pz.monomer_type;
    for (const Bond& b : ctx.sys.topology.bonds) free[b.a] = free[b.b] = 0;
    const std::vector<uint32_t>& ends = pz.initiators;
    for (uint32_t t : ends) free[t] = 0;
    n_ends_ = uint32_t(ends.size());
    initial_ = uint64_t(std::count(free.begin(), free.end(), uint8_t{1}));
    upload(free_, free, 1);
    upload(ends_d_, ends, 1);
    if (!pz.chain_probability.empty()) upload(chain_probability_, pz.chain_probability, 1);
    growth_.resize(std::max<uint32_t>(n_ends_, 1));
    MESO_CUDA_CHECK(cudaMemset(growth_.data(), 0, growth_.bytes()));
    index_of_tag_.resize(std::max<uint32_t>(n, 1));
    claim_.resize(std::max<uint32_t>(n, 1));
    MESO_CUDA_CHECK(cudaMemset(claim_.data(), 0xff, claim_.bytes()));  // kNone
    members_.resize(std::max<uint64_t>(initial_, 1));
    choice_.resize(std::max<uint32_t>(n_ends_, 1));
    DeviceStats st{};
    st.free_monomers = initial_;
    stats_d_.resize(1);
    MESO_CUDA_CHECK(cudaMemcpy(stats_d_.data(), &st, sizeof st, cudaMemcpyHostToDevice));
    counts_.resize(1);
    MESO_CUDA_CHECK(cudaMemset(counts_.data(), 0, counts_.bytes()));
    auto& g = ctx.grown;  // the bonded force reads these from its next launch
    g.partner.resize(2 * std::size_t(std::max<uint32_t>(n, 1)));
    MESO_CUDA_CHECK(cudaMemset(g.partner.data(), 0xff, g.partner.bytes()));  // GrownBonds::kNoTag
    g.id.resize(g.partner.size());
    g.log.resize(3 * std::max<uint64_t>(initial_, 1));
    g.type = pz.bond_type;
    ctx.invalidate_graphs();
    size_cells();
  }

  void apply(uint64_t step) override {
    const Polymerization& pz = ctx_.sys.polymerization;
    const uint32_t n = ctx_.n;
    cudaStream_t s = ctx_.stream;
    const S4* pos = ctx_.pos.data();
    const uint32_t* tag = ctx_.tag.data();
    if (n) {
      index_kernel<<<blocks(n), kBlock, 0, s>>>(tag, n, index_of_tag_.data());
      MESO_CUDA_CHECK(cudaGetLastError());
    }
    // The free monomers by cell: counts, their exclusive scan (the last of
    // the ncells + 1 entries is the total), the fill.
    MESO_CUDA_CHECK(cudaMemsetAsync(count_.data(), 0, count_.bytes(), s));
    if (n) {
      bin_kernel<S4, false><<<blocks(n), kBlock, 0, s>>>(pos, tag, n, free_.data(), cells_, count_.data(), nullptr);
      MESO_CUDA_CHECK(cudaGetLastError());
    }
    std::size_t bytes = scan_.size();
    MESO_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_.data(), bytes, count_.data(), start_.data(),
                                                  int(count_.size()), s));
    if (n) {
      MESO_CUDA_CHECK(cudaMemcpyAsync(count_.data(), start_.data(), start_.bytes(), cudaMemcpyDeviceToDevice, s));
      bin_kernel<S4, true><<<blocks(n), kBlock, 0, s>>>(pos, tag, n, free_.data(), cells_, count_.data(),
                                                        members_.data());
      MESO_CUDA_CHECK(cudaGetLastError());
    }
    if (n_ends_) {
      const ChooseArgs<S4> c{pos, index_of_tag_.data(), ends_d_.data(), n_ends_, start_.data(), members_.data(),
                             cells_, ctx_.sys.box, pz.capture_radius * pz.capture_radius, pz.probability,
                             pz.chain_probability.empty() ? nullptr : chain_probability_.data(), ctx_.params.seed,
                             step, choice_.data(), claim_.data(), counts_.data()};
      choose_kernel<S4><<<blocks(uint64_t(n_ends_) * 32u), kBlock, 0, s>>>(c);
      MESO_CUDA_CHECK(cudaGetLastError());
      auto& g = ctx_.grown;
      const ResolveArgs<S4> r{ctx_.pos.data(), index_of_tag_.data(), ends_d_.data(), growth_.data(), n_ends_,
                              choice_.data(), claim_.data(), free_.data(), pz.reacted_type, g.partner.data(),
                              g.id.data(), g.log.data(), stats_d_.data(), counts_.data()};
      resolve_kernel<S4><<<blocks(n_ends_), kBlock, 0, s>>>(r);
      MESO_CUDA_CHECK(cudaGetLastError());
      release_kernel<<<blocks(n_ends_), kBlock, 0, s>>>(choice_.data(), n_ends_, claim_.data());
      MESO_CUDA_CHECK(cudaGetLastError());
    }
    tally_kernel<<<1, 1, 0, s>>>(stats_d_.data(), counts_.data());
    MESO_CUDA_CHECK(cudaGetLastError());
  }

  PolymerizationStats stats() const override {
    DeviceStats st{};
    PolymerizationStats out;
    out.growth.resize(n_ends_);
    MESO_CUDA_CHECK(cudaMemcpyAsync(&st, stats_d_.data(), sizeof st, cudaMemcpyDeviceToHost, ctx_.stream));
    if (n_ends_)
      MESO_CUDA_CHECK(cudaMemcpyAsync(out.growth.data(), growth_.data(), n_ends_ * sizeof(uint32_t),
                                      cudaMemcpyDeviceToHost, ctx_.stream));
    MESO_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    out.attempts = st.attempts;
    out.reactions = st.reactions;
    out.contested = st.contested;
    out.free_monomers = st.free_monomers;
    out.initial_monomers = initial_;
    out.attempting = st.attempting;
    out.candidates = st.candidates;
    out.box_monomers = st.box_monomers;
    return out;
  }

  // The log in the reference's order: by attempt, within one by the old
  // end's tag (an end forms at most one bond an attempt).
  const std::vector<Bond>& formed() const override {
    const uint64_t bonds = stats().reactions;
    std::vector<uint32_t> log(3 * bonds);
    if (bonds)
      MESO_CUDA_CHECK(cudaMemcpy(log.data(), ctx_.grown.log.data(), log.size() * sizeof(uint32_t),
                                 cudaMemcpyDeviceToHost));
    std::vector<uint64_t> order(bonds);
    for (uint64_t k = 0; k < bonds; ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
      return log[3 * a + 2] != log[3 * b + 2] ? log[3 * a + 2] < log[3 * b + 2] : log[3 * a] < log[3 * b];
    });
    formed_.clear();
    for (uint64_t k : order) formed_.push_back(Bond{log[3 * k], log[3 * k + 1], ctx_.grown.type});
    return formed_;
  }

  std::size_t device_bytes() const override {
    const auto& g = ctx_.grown;
    return free_.bytes() + ends_d_.bytes() + chain_probability_.bytes() + growth_.bytes() + index_of_tag_.bytes() +
           claim_.bytes() + members_.bytes() + choice_.bytes() + stats_d_.bytes() + counts_.bytes() + count_.bytes() +
           start_.bytes() + scan_.bytes() + g.partner.bytes() + g.id.bytes() + g.log.bytes();
  }

 private:
  CudaContext<P>& ctx_;
  uint32_t n_ends_ = 0;
  uint64_t initial_ = 0;  // free monomers at t = 0
  mutable std::vector<Bond> formed_;
  CaptureCells cells_{};
  DeviceBuffer<uint8_t> free_;
  DeviceBuffer<uint32_t> ends_d_, growth_, index_of_tag_, members_, count_, start_;
  DeviceBuffer<uint64_t> choice_;
  DeviceBuffer<double> chain_probability_;  // per chain, when the system gives them
  DeviceBuffer<unsigned long long> claim_;
  DeviceBuffer<DeviceStats> stats_d_;
  DeviceBuffer<AttemptCounts> counts_;
  DeviceBuffer<unsigned char> scan_;

  // Cells at least one capture radius wide, as the reference bins them; a
  // box many capture radii wide gets wider cells, at most about two per
  // particle (an end then reads more non-candidates, never misses one).
  void size_cells() {
    const Box& box = ctx_.sys.box;
    const Vec3d l = box.lengths();
    const double rc = ctx_.sys.polymerization.capture_radius;
    cells_.lo = box.lo();
    cells_.length = l;
    for (int a = 0; a < 3; ++a) cells_.nc[a] = std::max<uint32_t>(1, uint32_t((&l.x)[a] / rc));
    const uint64_t most = 2 * uint64_t(ctx_.n) + 64;
    auto total = [&] { return uint64_t(cells_.nc[0]) * cells_.nc[1] * cells_.nc[2]; };
    while (total() > most) {
      uint32_t& widest = *std::max_element(cells_.nc, cells_.nc + 3);
      widest = std::max<uint32_t>(1, widest / 2);
    }
    count_.resize(total() + 1);
    start_.resize(total() + 1);
    std::size_t bytes = 0;
    MESO_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, count_.data(), start_.data(), int(count_.size())));
    scan_.resize(std::max<std::size_t>(bytes, 1));
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_polymerize(CudaContext<P>& ctx) {
  return std::make_unique<CudaPolymerize<P>>(ctx);
}

template std::unique_ptr<Operation> make_cuda_polymerize(CudaContext<PrecDouble>&);
template std::unique_ptr<Operation> make_cuda_polymerize(CudaContext<PrecMixed>&);
template std::unique_ptr<Operation> make_cuda_polymerize(CudaContext<PrecSingle>&);

}  // namespace meso::cuda
