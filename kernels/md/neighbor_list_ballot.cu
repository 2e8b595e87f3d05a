// Neighbor list, `nlist=ballot` (Tang & Karniadakis, CPC 2014, sec. 3.3,
// Alg. 3), as implemented here:
//
// * One warp per cell. The i-particles of the cell are taken 32 at a time
//   (a group of kGroup); the j-candidates are the members of the stencil cells,
//   visited in ascending order of their first member index and in ascending
//   index inside a cell (the "fine-grained stencil" flattened into one
//   ordered candidate sequence). When particles are in cell order
//   (cells=sorted or any reorder), cells are disjoint index ranges and every
//   list is strictly increasing; in any case the order is deterministic.
// * Insertion without atomics: for one i, the 32 lanes test 32 candidates,
//   __ballot_sync gives the hit mask and __popc of the mask below a lane gives
//   its slot, so a warp appends up to 32 neighbors per instruction and the
//   result is independent of scheduling.
// * Core/skin double insertion: hits inside max r_c are appended from the
//   front of the particle's shared-memory row, hits in the skin from the
//   back; the join step emits core then skin, so at force time the pairs
//   that interact come first and the warp's threads stay converged longer.
// * kGroup x cap local transpose: rows are assembled in shared memory (one per
//   i of the group) and written out slot by slot, lane = particle, into the
//   column-major global layout: coalesced stores for cell-ordered particles.
// Candidate indices and positions are staged in shared memory in batches of
// kBatch so that each is loaded from global memory once per group.
#include <stdexcept>
#include <string>

#include "meso/cuda/check.hpp"
#include "md/neighbor_list.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kBatch = 64;
// i-particles per group (rows of the shared-memory tile). Cells hold ~7
// particles at rho = 3 and ~14 at rho = 6 (r_c + skin = 1.3): 16 rows keep
// the tile small enough for ~9 resident blocks per SM, where 32 rows left
// 5 (ncu: shared memory was the occupancy limit at 25%).
constexpr uint32_t kGroup = 16;
constexpr int kMaxWarpsPerBlock = 4;
constexpr size_t kSmemLimit = 200 * 1024;  // opt-in dynamic shared memory we allow

__host__ __device__ size_t words_per_warp(uint32_t cap) {
  // tile kGroup x (cap + 1) | candidates | cand x,y,z (up to doubles) | counts | order
  size_t w = size_t(kGroup) * (cap + 1) + kBatch + 2 * 32 + 2 * 32;
  w = (w + 1) & ~size_t(1);  // 8-byte alignment of the doubles that follow
  return w + 2 * 3 * kBatch;
}

template <class S4>
__global__ void ballot_kernel(const S4* __restrict__ pos, NlistBuildArgs a) {
  extern __shared__ uint32_t smem[];
  const uint32_t lane = threadIdx.x & 31u;
  const uint32_t warp = threadIdx.x >> 5;
  const uint32_t c = blockIdx.x * (blockDim.x >> 5) + warp;
  const CellGrid& g = a.grid;
  if (c >= g.ncells()) return;  // warp-uniform; the kernel uses warp sync only
  StepControl* ctl = a.ctl;
  if (ctl->abort || ctl->list.cell_overflow) return;
  // Members are in ascending index and ghosts come after the n locals: a
  // cell whose first member is a ghost, or that is empty, has no row to
  // build. On several ranks that is every cell of the global grid outside
  // the domain and its ghost layer, and the ghost-only cells, which would
  // otherwise load all their candidates for nothing. Warp-uniform.
  if (a.cells.size(c) == 0 || a.cells.members[a.cells.begin(c)] >= a.n) return;

  const uint32_t cap = a.nl.cap;
  const uint32_t row = cap + 1;  // odd row pitch: transposed reads avoid bank conflicts
  uint32_t* base = smem + words_per_warp(cap) * warp;
  uint32_t* tile = base;
  uint32_t* cand = tile + size_t(kGroup) * row;
  uint32_t* n_core = cand + kBatch;
  uint32_t* n_skin = n_core + 32;
  uint32_t* order = n_skin + 32;   // stencil cell of rank r
  uint32_t* prefix = order + 32;   // candidates before rank r
  using R = BuildReal<S4>;
  R* cpos = reinterpret_cast<R*>(base + ((size_t(kGroup) * row + kBatch + 128 + 1) & ~size_t(1)));
  const MinImage<R> mi(a.box);
  const R r_list_sq = R(a.r_list_sq), r_core_sq = R(a.r_core_sq);

  // Rank the stencil cells by their first member (ties and empty cells by
  // stencil position) so candidates come in ascending index order, one
  // chunk of up to 32 stencil cells (a lane each) at a time: one chunk of at
  // most 27 cells, ranked once, without shear; under shear a cell next to a
  // z face has whole rows across it (sheared_stencil_size), several chunks
  // ranked again for each group of the cell.
  const int ns_all = a.sheared ? sheared_stencil_size(g, c) : g.stencil_size();
  int ns = 0;          // cells of the chunk ranked now
  uint32_t total = 0;  // its candidates
  auto rank_chunk = [&](int k0) {
    const auto stencil_at = [&](int k) {
      return a.sheared ? sheared_stencil_cell(g, c, k0 + k) : g.stencil_cell(c, k0 + k);
    };
    ns = min(32, ns_all - k0);
    __syncwarp();  // the previous chunk's order and prefix are read
    uint32_t first = 0xffffffffu;
    if (int(lane) < ns) {
      const uint32_t sc = stencil_at(int(lane));
      if (a.cells.size(sc)) first = a.cells.members[a.cells.begin(sc)];
    }
    uint32_t rank = 0;
    for (int l = 0; l < ns; ++l) {
      const uint32_t f = __shfl_sync(0xffffffffu, first, l);
      if (int(lane) < ns && (f < first || (f == first && uint32_t(l) < lane))) ++rank;
    }
    if (int(lane) < ns) order[rank] = lane;
    __syncwarp();
    const uint32_t my_cell = int(lane) < ns ? stencil_at(int(order[lane])) : 0;
    const uint32_t my_size = int(lane) < ns ? a.cells.size(my_cell) : 0;
    uint32_t incl = my_size;
    for (int d = 1; d < 32; d <<= 1) {
      const uint32_t v = __shfl_up_sync(0xffffffffu, incl, d);
      if (int(lane) >= d) incl += v;
    }
    prefix[lane] = incl - my_size;
    total = __shfl_sync(0xffffffffu, incl, 31);
    // From here on order[r] holds the first member slot of the rank-r cell.
    const uint32_t my_begin = int(lane) < ns ? a.cells.begin(my_cell) : 0;
    __syncwarp();
    order[lane] = my_begin;
    __syncwarp();
  };
  int ranked = 0;
  rank_chunk(0);

  const uint32_t m_c = a.cells.size(c);
  const uint32_t b_c = a.cells.begin(c);
  const uint32_t lt = (1u << lane) - 1u;
  for (uint32_t g0 = 0; g0 < m_c; g0 += kGroup) {
    const uint32_t gs = min(kGroup, m_c - g0);
    uint32_t my_i = 0;
    S4 my_r{};
    if (lane < gs) {
      my_i = a.cells.members[b_c + g0 + lane];
      my_r = ldg4(pos + my_i);
    }
    n_core[lane] = 0;
    n_skin[lane] = 0;
    for (int k0 = 0; k0 < ns_all; k0 += 32) {  // the stencil's chunks
      if (k0 != ranked) {
        rank_chunk(k0);
        ranked = k0;
      }
      // Rank whose candidate range holds this lane's candidate k. A lane's k
      // only grow within a group (t = lane, lane + 32, ... of batches b0 =
      // 0, kBatch, ...), so the scan over the ranks resumes where it stopped
      // instead of restarting from rank 0 for every candidate (up to 27 shared
      // loads each before): the same rank, found once per group, chunk and lane.
      int rk = 0;
      for (uint32_t b0 = 0; b0 < total; b0 += kBatch) {
        const uint32_t bs = min(kBatch, total - b0);
        __syncwarp();
        for (uint32_t t = lane; t < bs; t += 32) {
          const uint32_t k = b0 + t;
          while (rk + 1 < ns && prefix[rk + 1] <= k) ++rk;
          const uint32_t j = a.cells.members[order[rk] + (k - prefix[rk])];
          cand[t] = j;
          const S4 rj = ldg4(pos + j);
          cpos[t] = R(rj.x);
          cpos[kBatch + t] = R(rj.y);
          cpos[2 * kBatch + t] = R(rj.z);
        }
        __syncwarp();
        for (uint32_t r = 0; r < gs; ++r) {
          const uint32_t i = __shfl_sync(0xffffffffu, my_i, r);
          if (i >= a.n) continue;  // a ghost (several ranks): a candidate, not a row; warp-uniform
          const R rix = R(__shfl_sync(0xffffffffu, my_r.x, r));
          const R riy = R(__shfl_sync(0xffffffffu, my_r.y, r));
          const R riz = R(__shfl_sync(0xffffffffu, my_r.z, r));
          uint32_t cc = n_core[r], ss = n_skin[r];
          uint32_t* trow = tile + size_t(r) * row;
          for (uint32_t t0 = 0; t0 < bs; t0 += 32) {
            const uint32_t t = t0 + lane;
            bool in_list = false, in_core = false;
            uint32_t j = 0;
            if (t < bs) {
              j = cand[t];
              R dx = rix - cpos[t], dy = riy - cpos[kBatch + t], dz = riz - cpos[2 * kBatch + t];
              // Across a sheared z face: y and z only, whatever the images' offset.
              const bool across = a.sheared && mi.rnd(dz * mi.ilz) != R(0);
              mi.apply(dx, dy, dz);
              const R d2 = (across ? R(0) : dx * dx) + dy * dy + dz * dz;
              in_list = j != i && d2 < r_list_sq;
              in_core = in_list && d2 < r_core_sq;
            }
            const uint32_t mc = __ballot_sync(0xffffffffu, in_core);
            const uint32_t ms = __ballot_sync(0xffffffffu, in_list && !in_core);
            const uint32_t pc = __popc(mc), ps = __popc(ms);
            if (cc + ss + pc + ps <= cap) {  // else overflow: count only
              if (in_core) trow[cc + __popc(mc & lt)] = j;
              else if (in_list) trow[cap - 1 - (ss + __popc(ms & lt))] = j;
            }
            cc += pc;
            ss += ps;
          }
          __syncwarp();
          if (lane == 0) {
            n_core[r] = cc;
            n_skin[r] = ss;
          }
          __syncwarp();
        }
      }
    }
    __syncwarp();
    // Join and transpose: slot k of every i of the group, lane = i.
    const bool has_row = lane < gs && my_i < a.n;  // ghosts have no row
    const uint32_t core = has_row ? n_core[lane] : 0;
    const uint32_t cnt = has_row ? core + n_skin[lane] : 0;
    if (has_row) {
      a.nl.count[my_i] = cnt;
      if (cnt > cap) atomicMax(&ctl->list.nlist_overflow, cnt);
    }
    const uint32_t kmax = __reduce_max_sync(0xffffffffu, cnt <= cap ? cnt : 0);
    for (uint32_t k = 0; k < kmax; ++k) {
      if (has_row && k < cnt && cnt <= cap) {
        const uint32_t* trow = tile + size_t(lane) * row;
        a.nl.idx[a.nl.at(my_i, k)] = k < core ? trow[k] : trow[cap - 1 - (k - core)];
      }
    }
    __syncwarp();
  }
}

}  // namespace

namespace {
size_t ballot_smem_per_warp(uint32_t cap) { return words_per_warp(cap) * sizeof(uint32_t); }
}  // namespace

bool ballot_fits(uint32_t cap) { return ballot_smem_per_warp(cap) <= kSmemLimit; }

template <class S4>
void build_nlist_ballot(const S4* pos, const NlistBuildArgs& a, cudaStream_t s) {
  const size_t per_warp = ballot_smem_per_warp(a.nl.cap);
  if (per_warp > kSmemLimit)
    throw std::runtime_error("ballot neighbor list: capacity " + std::to_string(a.nl.cap) +
                             " needs " + std::to_string(per_warp) +
                             " bytes of shared memory per warp (limit " +
                             std::to_string(kSmemLimit) + "); " +
                             (a.sheared ? "the rows next to a sheared z face grow with L_x: shear a shorter box"
                                        : "use nlist=atomic"));
  int warps = kMaxWarpsPerBlock;
  while (warps > 1 && per_warp * warps > 96 * 1024) --warps;
  const size_t smem = per_warp * warps;
  MESO_CUDA_CHECK(cudaFuncSetAttribute(ballot_kernel<S4>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(kSmemLimit)));
  const uint32_t nc = a.grid.ncells();
  ballot_kernel<S4><<<(nc + warps - 1) / warps, 32 * warps, smem, s>>>(pos, a);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void build_nlist_ballot<Double4>(const Double4*, const NlistBuildArgs&, cudaStream_t);
template void build_nlist_ballot<float4>(const float4*, const NlistBuildArgs&, cudaStream_t);

}  // namespace meso::cuda
