// Neighbor list, `nlist=tiled`: one block per cell. The block stages the
// members of the cell's 27 stencil cells (position, image shift, index) in
// shared memory once, and then each warp takes particles of the cell one at
// a time and tests 32 staged candidates per round, one per lane; the hits
// are appended in lane order by ballot + popc (Tang & Karniadakis, CPC 2014,
// Alg. 3), so rows come in stencil order and then ascending member slot:
// entry for entry the rows of nlist=atomic.
//
// Why: the atomic builder walks the stencil per particle, so every particle
// re-gathers ~27 x (occupancy) candidates through L1/L2 behind a dependent
// member -> position load; at lj-liquid (16 per cell, 420 candidates) ncu
// showed it latency-bound at 0.7 instructions per cycle and scheduler. Here
// the block gathers each candidate once for all the cell's particles and the
// rounds read shared memory only, with every lane busy but those of the last
// round of a particle (lanes per candidate rather than per particle: a
// cell of 17 would otherwise round up to 32 particle slots).
//
// nlist=half (HALF): each pair in one of its two rows, chosen by index parity
// (pair_in_half_row): each row keeps about half of its particle's neighbours
// wherever the particle sits, so the rows are even (at rho = 3, N = 1M: the
// longest 24 for a mean of 13.3, against 38 and 26.6 for full rows). Two
// alternatives were measured slower and removed (results/cuda-dpd/half-list):
// a half stencil (the cell and its 13 forward neighbours), which halves the
// candidate tests (618 against 862 us a build) but makes rows uneven (a
// particle near the top of its cell finds most neighbours in forward cells:
// the longest 34, so neither the capacity nor the force kernel's longest
// warp shrinks); and rows with their pairs inside r_c first (a second ballot
// per round costs the build more than the force kernel gains).
//
// The pair displacement is (x_i - x_j) + image shift of j's stencil cell,
// bit for bit the minimum image of every pair within r_list (as in the
// atomic builder); grids with fewer than 3 cells on an axis use the full
// minimum image instead (PAIR_IMAGE), as do ranged grids (several ranks).
#include <stdexcept>

#include "meso/cuda/check.hpp"
#include "md/neighbor_list.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kTileBlock = 128;
constexpr uint32_t kWarps = kTileBlock / 32;
constexpr uint32_t kChunk = 512;  // candidates staged at a time
constexpr uint32_t kPass = 128;   // particles of the cell whose counts are kept at a time
constexpr int kMaxStencil = 27;

// A staged candidate: position, then its stencil cell's image shift and its
// index, each 16 bytes for float (one shared load each).
template <class R>
struct alignas(4 * sizeof(R)) CandPos {
  R x, y, z, pad;
};
template <class R>
struct alignas(4 * sizeof(R)) CandShift {
  R sx, sy, sz;
  uint32_t j;
};

// Whether the pair (i, j) goes into the half row of local i (n locals): the
// lower index when i + j is even, else the higher one, so exactly one of
// (i, j) and (j, i) is true between locals. A ghost j (several ranks: j >= n)
// has no row here, and its owner's rank holds the pair in the ghost's row as
// well: the pair is kept, and each rank applies it to its own particle only
// (pair_force_half.cuh), so no force goes back to an owner.
__device__ __forceinline__ bool pair_in_half_row(uint32_t i, uint32_t j, uint32_t n) {
  return j >= n || (((i ^ j) & 1u) ? j > i : j < i);
}

template <class S4, bool PAIR_IMAGE, bool ROW_MAJOR, bool HALF>
__global__ void __launch_bounds__(kTileBlock) tiled_kernel(const S4* __restrict__ pos, NlistBuildArgs a) {
  using R = BuildReal<S4>;
  __shared__ CandPos<R> cpos[kChunk];
  __shared__ CandShift<R> cshift[kChunk];
  __shared__ uint32_t st_begin[kMaxStencil], st_size[kMaxStencil], st_off[kMaxStencil + 1];
  __shared__ R st_shift[kMaxStencil][3];
  __shared__ uint32_t cnt_s[kPass];

  StepControl* ctl = a.ctl;
  if (ctl->abort || ctl->list.cell_overflow) return;  // the same for every thread
  const CellGrid& g = a.grid;
  const uint32_t c = blockIdx.x;
  const uint32_t m_c = a.cells.size(c);
  if (m_c == 0) return;  // the whole block
  const uint32_t b_c = a.cells.begin(c);
  const int cx = int(c % uint32_t(g.nx)), cy = int((c / uint32_t(g.nx)) % uint32_t(g.ny)),
            cz = int(c / uint32_t(g.nx * g.ny));
  const Stencil st(g, cx, cy, cz);
  const int ns = st.size;
  const MinImage<R> box(a.box);
  const uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
  // The stencil (CellGrid::stencil_cell order), one thread per cell.
  if (int(tid) < ns) {
    const int q = int(tid);
    const uint32_t sc = st.cell(g, q, box, st_shift[q][0], st_shift[q][1], st_shift[q][2]);
    const uint32_t m = a.cells.size(sc);
    st_size[q] = m;
    st_begin[q] = m ? a.cells.begin(sc) : 0u;
  }
  __syncthreads();
  if (tid == 0) {
    uint32_t s = 0;
    for (int q = 0; q < ns; ++q) {
      st_off[q] = s;
      s += st_size[q];
    }
    st_off[ns] = s;
  }
  __syncthreads();
  const uint32_t total = st_off[ns];
  const R r_list_sq = R(a.r_list_sq);
  const uint32_t cap = a.nl.cap;
  const size_t ks = a.nl.slot_stride;
  const uint32_t lower = (1u << lane) - 1u;

  for (uint32_t p0 = 0; p0 < m_c; p0 += kPass) {
    const uint32_t np = min(kPass, m_c - p0);
    for (uint32_t t = tid; t < np; t += kTileBlock) cnt_s[t] = 0;
    for (uint32_t q0 = 0; q0 < total; q0 += kChunk) {
      const uint32_t n_chunk = min(kChunk, total - q0);
      __syncthreads();  // counts initialised; the previous chunk is done with the tile
      for (uint32_t t = tid; t < n_chunk; t += kTileBlock) {
        const uint32_t q = q0 + t;
        int lo = 0, hi = ns;  // the stencil cell holding candidate q
        while (hi - lo > 1) {
          const int mid = (lo + hi) >> 1;
          if (st_off[mid] <= q) lo = mid;
          else hi = mid;
        }
        const uint32_t j = a.cells.members[st_begin[lo] + (q - st_off[lo])];
        const S4 pj = ldg4(pos + j);
        cpos[t] = {R(pj.x), R(pj.y), R(pj.z), R(0)};
        cshift[t] = {st_shift[lo][0], st_shift[lo][1], st_shift[lo][2], j};
      }
      // Pad to whole rounds with candidates at NaN, which no distance test
      // passes (d2 is NaN, and NaN < r is false), so the rounds need no
      // bounds check. (A pad at 1e30 failed on grids under 3 cells an axis:
      // there the minimum image x - L rint(x / L) of x_i - 1e30 can round to
      // exactly 0, and the pad's index 0xffffffff went into the rows, as for
      // dpd-fluid N = 81, L = 3, in mixed precision.)
      const uint32_t n_pad = (n_chunk + 31u) & ~31u;
      const R nan = R(__longlong_as_double(0x7ff8000000000000ll));
      for (uint32_t t = n_chunk + tid; t < n_pad; t += kTileBlock) {
        cpos[t] = {nan, nan, nan, R(0)};
        cshift[t] = {R(0), R(0), R(0), 0xffffffffu};
      }
      __syncthreads();
      // One particle per warp at a time (warp-uniform), 32 candidates a round.
      for (uint32_t ip = warp; ip < np; ip += kWarps) {
        const uint32_t i = a.cells.members[b_c + p0 + ip];
        if (i >= a.n) continue;  // a ghost (several ranks): a candidate, not a row; warp-uniform
        const S4 pi = ldg4(pos + i);
        const R xi = R(pi.x), yi = R(pi.y), zi = R(pi.z);
        uint32_t* __restrict__ row = a.nl.idx + a.nl.at(i, 0);
        uint32_t cnt = cnt_s[ip];
        for (uint32_t t = lane; t < n_pad; t += 32) {
          const CandPos<R> cp = cpos[t];
          const CandShift<R> cs = cshift[t];
          R dx = xi - cp.x, dy = yi - cp.y, dz = zi - cp.z;
          if constexpr (PAIR_IMAGE) {
            box.apply(dx, dy, dz);
          } else {
            dx += cs.sx;
            dy += cs.sy;
            dz += cs.sz;
          }
          const R d2 = dx * dx + dy * dy + dz * dz;
          bool hit = (d2 < r_list_sq) & (cs.j != i);  // no short-circuit: no branch
          if constexpr (HALF) hit &= pair_in_half_row(i, cs.j, a.n);
          const uint32_t hits = __ballot_sync(0xffffffffu, hit);
          if (hit) {
            const uint32_t k = cnt + __popc(hits & lower);
            if (k < cap) row[ROW_MAJOR ? size_t(k) : k * ks] = cs.j;
          }
          cnt += __popc(hits);
        }
        // Every lane read cnt_s[ip] above; the ballots keep the warp in step
        // but are no memory barrier (compute-sanitizer racecheck reports the
        // write-after-read): order the reads before lane 0's write.
        __syncwarp();
        if (lane == 0) cnt_s[ip] = cnt;
      }
    }
    __syncthreads();
    for (uint32_t t = tid; t < np; t += kTileBlock) {
      const uint32_t i = a.cells.members[b_c + p0 + t];
      if (i >= a.n) continue;
      const uint32_t cnt = cnt_s[t];
      a.nl.count[i] = cnt;
      if (cnt > cap) atomicMax(&ctl->list.nlist_overflow, cnt);
    }
    __syncthreads();  // cnt_s is reused by the next pass
  }
}

}  // namespace

template <class S4>
void build_nlist_tiled(const S4* pos, const NlistBuildArgs& a, cudaStream_t s) {
  const CellGrid& g = a.grid;
  const uint32_t nc = g.ncells();
  const bool pair_image = g.nx < 3 || g.ny < 3 || g.nz < 3 || g.ranged();
  const bool row_major = a.nl.slot_stride == 1;  // the row of i is contiguous (tpp > 1)
  if (a.half) {
    // Half rows are read one thread a particle: column-major.
    if (row_major) throw std::logic_error("nlist=half: row-major rows");
    if (pair_image) tiled_kernel<S4, true, false, true><<<nc, kTileBlock, 0, s>>>(pos, a);
    else tiled_kernel<S4, false, false, true><<<nc, kTileBlock, 0, s>>>(pos, a);
  } else if (pair_image) {
    if (row_major) tiled_kernel<S4, true, true, false><<<nc, kTileBlock, 0, s>>>(pos, a);
    else tiled_kernel<S4, true, false, false><<<nc, kTileBlock, 0, s>>>(pos, a);
  } else {
    if (row_major) tiled_kernel<S4, false, true, false><<<nc, kTileBlock, 0, s>>>(pos, a);
    else tiled_kernel<S4, false, false, false><<<nc, kTileBlock, 0, s>>>(pos, a);
  }
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void build_nlist_tiled<Double4>(const Double4*, const NlistBuildArgs&, cudaStream_t);
template void build_nlist_tiled<float4>(const float4*, const NlistBuildArgs&, cudaStream_t);

}  // namespace meso::cuda
