// Neighbor list, `nlist=atomic` (HOOMD-blue NeighborListGPUBinned, Anderson
// et al. JCP 227 (2008); threads_per_particle as in HOOMD-blue 2+):
// TPP lanes of a warp share particle i and walk its 27 stencil cells; inside a
// cell lane s tests members s, s + TPP, ... and the group's hits are
// compacted by a ballot (offset = hits of the lower lanes of the group), so
// every row is written front to back without atomics, in stencil order and
// then ascending member slot: the same list for every TPP. Only the overflow
// report is atomic.
//
// Why TPP lanes: at one thread per particle each thread makes ~27 x (cell
// occupancy) dependent loads in a row (member, then its position), and N =
// 64000 gives only ~15 warps per SM to hide them: ncu showed the kernel
// stalled on L1TEX with 0.06 instructions issued per cycle and scheduler. TPP
// lanes multiply the warps in flight and divide each one's chain by TPP.
// With the row-major layout (tpp > 1, NlistView) a group's stores of one
// round are consecutive words of its row.
#include "meso/cuda/check.hpp"
#include "md/neighbor_list.cuh"
#include "core/tpp_dispatch.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kBuildBlock = 128;

template <class S4, uint32_t TPP, bool PAIR_IMAGE>
__global__ void __launch_bounds__(kBuildBlock) atomic_kernel(const S4* __restrict__ pos, NlistBuildArgs a) {
  static_assert(TPP >= 1 && TPP <= 32 && (TPP & (TPP - 1)) == 0, "TPP: a power of two up to 32");
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t i = t / TPP, sub = t % TPP;
  // Whole warps leave together (the ballots below need every lane); lanes
  // past the last particle stay in with no candidates.
  if ((t & ~31u) / TPP >= a.n) return;
  StepControl* ctl = a.ctl;
  if (ctl->abort || ctl->list.cell_overflow) return;  // the same for every thread
  const bool active = i < a.n;
  using R = BuildReal<S4>;
  const CellGrid& g = a.grid;
  const uint32_t me = active ? i : 0u;  // lanes past the end read particle 0 and test nothing
  const S4 pi = ldg4(pos + me);
  // The cell of i exactly as the cell list computed it (CellGrid::cell_of).
  const int cx = g.bin_x(double(pi.x)), cy = g.bin_y(double(pi.y)), cz = g.bin_z(double(pi.z));
  const Stencil st(g, cx, cy, cz);
  const MinImage<R> box(a.box);
  const R r_list_sq = R(a.r_list_sq);
  const R xi = R(pi.x), yi = R(pi.y), zi = R(pi.z);
  const uint32_t cap = a.nl.cap;
  uint32_t* __restrict__ row = a.nl.idx + a.nl.at(me, 0);
  const size_t ks = a.nl.slot_stride;
  const uint32_t lane = threadIdx.x & 31u;
  const uint32_t group_lo = lane & ~(TPP - 1u);  // first lane of i's group
  const uint32_t below = (1u << sub) - 1u;       // group lanes before this one
  uint32_t cnt = 0;
  // One candidate slot of the current cell: its hit goes to the next free
  // entry of the row (after the hits of the group's lower lanes).
  auto test = [&](uint32_t slot, uint32_t m, const S4& pj, uint32_t j, R sx, R sy, R sz) {
    R ddx = xi - R(pj.x), ddy = yi - R(pj.y), ddz = zi - R(pj.z);
    if constexpr (PAIR_IMAGE) {
      box.apply(ddx, ddy, ddz);
    } else {
      ddx += sx;
      ddy += sy;
      ddz += sz;
    }
    const bool hit = slot < m && j != i && ddx * ddx + ddy * ddy + ddz * ddz < r_list_sq;
    uint32_t k = cnt;
    if constexpr (TPP == 1) {
      cnt += hit;
    } else {
      const uint32_t ballot = __ballot_sync(0xffffffffu, hit);
      const uint32_t mine = TPP == 32 ? ballot : (ballot >> group_lo) & ((1u << (TPP % 32)) - 1u);
      k += __popc(mine & below);
      cnt += __popc(mine);
    }
    if (hit && k < cap) row[k * ks] = j;
  };
  // Stencil cells in the order of CellGrid::stencil_cell (z outer, x
  // inner), TPP at a time: lane s of the group looks up cell q0 + s (its
  // first member slot, size and image shift), so the group has TPP of these
  // loads in flight, and then the group walks them one by one by shuffle.
  const int ns = st.size;
  for (int q0 = 0; q0 < ns; q0 += int(TPP)) {
    uint32_t my_b = 0, my_m = 0;
    R my_sx = 0, my_sy = 0, my_sz = 0;
    const int q = q0 + int(sub);
    if (q < ns) {
      const uint32_t c = st.cell(g, q, box, my_sx, my_sy, my_sz);
      my_m = active ? a.cells.size(c) : 0u;
      my_b = my_m ? a.cells.begin(c) : 0u;
    }
    const int nq = min(int(TPP), ns - q0);
    for (int r = 0; r < nq; ++r) {
      uint32_t m = my_m, b = my_b;
      R sx = my_sx, sy = my_sy, sz = my_sz;
      if constexpr (TPP > 1) {
        const int src = int(group_lo) + r;
        m = __shfl_sync(0xffffffffu, my_m, src);
        b = __shfl_sync(0xffffffffu, my_b, src);
        sx = __shfl_sync(0xffffffffu, my_sx, src);
        sy = __shfl_sync(0xffffffffu, my_sy, src);
        sz = __shfl_sync(0xffffffffu, my_sz, src);
      }
      const uint32_t* __restrict__ members = a.cells.members + b;
      // TPP > 1: every lane runs the warp's longest cell, so ballots are
      // full-warp; lanes past their own cell's end test nothing.
      uint32_t rounds_end = m;
      if constexpr (TPP > 1) rounds_end = __reduce_max_sync(0xffffffffu, m);
      // Two rounds at a time: both members and both positions are loaded
      // before either is tested.
      for (uint32_t t0 = sub; t0 - sub < rounds_end; t0 += 2 * TPP) {
        const uint32_t t1 = t0 + TPP;
        const uint32_t j0 = t0 < m ? __ldg(members + t0) : me;
        const uint32_t j1 = t1 < m ? __ldg(members + t1) : me;
        const S4 p0 = ldg4(pos + j0), p1 = ldg4(pos + j1);
        test(t0, m, p0, j0, sx, sy, sz);
        test(t1, m, p1, j1, sx, sy, sz);
      }
    }
  }
  if (active && sub == 0) {
    a.nl.count[i] = cnt;
    if (cnt > cap) atomicMax(&ctl->list.nlist_overflow, cnt);
  }
}

template <class S4, uint32_t TPP>
void launch_atomic(const S4* pos, const NlistBuildArgs& a, cudaStream_t s) {
  const uint64_t threads = uint64_t(a.n) * TPP;
  const uint32_t blocks = uint32_t((threads + kBuildBlock - 1) / kBuildBlock);
  // With fewer than 3 cells on an axis one cell is both the -1 and the +1
  // neighbour, so the image depends on the pair: full minimum image there
  // (a separate instantiation: predicated, the unused path still issues).
  // So does a ranged grid (several ranks), whose stencil wraps in the range.
  const CellGrid& g = a.grid;
  if (g.nx < 3 || g.ny < 3 || g.nz < 3 || g.ranged())
    atomic_kernel<S4, TPP, true><<<blocks, kBuildBlock, 0, s>>>(pos, a);
  else
    atomic_kernel<S4, TPP, false><<<blocks, kBuildBlock, 0, s>>>(pos, a);
}
}  // namespace

template <class S4>
void build_nlist_atomic(const S4* pos, const NlistBuildArgs& a, cudaStream_t s) {
  dispatch_tpp(a.tpp, "build_nlist_atomic",
               [&](auto tpp) { launch_atomic<S4, decltype(tpp)::value>(pos, a, s); });
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void build_nlist_atomic<Double4>(const Double4*, const NlistBuildArgs&, cudaStream_t);
template void build_nlist_atomic<float4>(const float4*, const NlistBuildArgs&, cudaStream_t);

}  // namespace meso::cuda
