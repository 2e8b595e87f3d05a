// Cluster-pair lists, `nlist=cluster` (GROMACS nbnxm; Páll & Hess, CPC 184,
// 2641, 2013): particles are taken as clusters of consecutive storage
// indices, i-clusters of kClusterI and j-clusters of kClusterJ, and a row per
// i-cluster lists the j-clusters with a member within r_list of the
// i-cluster's bounding box. The forces then evaluate i-cluster x j-cluster
// tiles with one lane a pair (pair_force_cluster.cuh). Clusters are compact
// only right after a spatial reorder, so the variant takes one at every
// rebuild (the operation refuses reorder=none and sort > 0).
//
// One kernel, one warp an i-cluster. Its box: the members unwrapped by
// minimum image against the first one (a cluster across a periodic face
// gets a small box). The warp takes the cells that overlap the box widened
// by r_list, 32 at a time, one a lane, walking each cell's members. A member
// j within r_list of the box (per axis max(0, |x_j - c| - h), at the minimum
// image of the centre c) puts its j-cluster in the row if no lower member of
// that j-cluster is within r_list too: each j-cluster once, with no shared
// state. No pair within r_list is missed: its j member is within r_list of
// the i-cluster's box. Hits go in by ballot, in lane order, so rows are
// deterministic (the cell list's members are sorted).
//
// A first version tested j-clusters' boxes against the i-box and found them
// through their first member, within h_i + 2 H + r_list where H is the
// largest j-box anywhere: one wide cluster (a jump of the space-filling
// curve) made every warp scan most of the box (115 ms a build at N = 1M).
// The box arithmetic is fp64 on the stored positions, whatever the storage.
#include <cmath>

#include "meso/cuda/check.hpp"
#include "md/neighbor_list.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kSearchBlock = 128;
constexpr uint32_t kSearchWarps = kSearchBlock / 32;

// The first cell and the number of cells an axis of n cells visits for
// [x - r, x + r]: each cell once (all of them when the range wraps).
__device__ __forceinline__ void cell_span(double x, double r, double lo, double inv_w, int n, int& first, int& count) {
  const int a = int(floor((x - r - lo) * inv_w)), z = int(floor((x + r - lo) * inv_w));
  count = z - a + 1;
  first = a;
  if (count >= n) {
    first = 0;
    count = n;
  }
}

__device__ __forceinline__ int wrap(int x, int n) { return ((x % n) + n) % n; }

// Whether x is within r (squared: r_sq) of the box (c, h), at the minimum image.
__device__ __forceinline__ bool near_box(const Vec3d& x, const Vec3d& c, const Vec3d& h, const Box& box, double r_sq) {
  const Vec3d d = box.min_image(x - c);
  const double gx = fmax(0.0, fabs(d.x) - h.x), gy = fmax(0.0, fabs(d.y) - h.y), gz = fmax(0.0, fabs(d.z) - h.z);
  return gx * gx + gy * gy + gz * gz < r_sq;
}

template <class S4>
__global__ void __launch_bounds__(kSearchBlock)
    cluster_search_kernel(const S4* __restrict__ pos, uint32_t n, Box box, CellGrid g, CellView cells, NlistView nl,
                          double r_list, StepControl* ctl) {
  if (ctl->abort) return;  // the same for every thread: set before this build
  const uint32_t lane = threadIdx.x & 31u;
  const uint32_t ci = blockIdx.x * kSearchWarps + (threadIdx.x >> 5);
  const uint32_t nci = (n + kClusterI - 1) / kClusterI;
  if (ci >= nci) return;  // the whole warp
  // The i-cluster's box, from its members (lanes 0 .. kClusterI - 1).
  const uint32_t first = ci * kClusterI;
  const Vec3d p0 = xyz(ldg4(pos + first));
  Vec3d lo{0.0, 0.0, 0.0}, hi{0.0, 0.0, 0.0};
  if (lane < kClusterI && first + lane < n) lo = hi = box.min_image(xyz(ldg4(pos + first + lane)) - p0);
  for (int o = 16; o > 0; o >>= 1) {
    lo = Vec3d{fmin(lo.x, __shfl_xor_sync(0xffffffffu, lo.x, o)), fmin(lo.y, __shfl_xor_sync(0xffffffffu, lo.y, o)),
               fmin(lo.z, __shfl_xor_sync(0xffffffffu, lo.z, o))};
    hi = Vec3d{fmax(hi.x, __shfl_xor_sync(0xffffffffu, hi.x, o)), fmax(hi.y, __shfl_xor_sync(0xffffffffu, hi.y, o)),
               fmax(hi.z, __shfl_xor_sync(0xffffffffu, hi.z, o))};
  }
  const Vec3d c = p0 + 0.5 * (lo + hi), h = 0.5 * (hi - lo);
  int fx, sx, fy, sy, fz, sz;
  cell_span(c.x, h.x + r_list, g.lo_x, g.inv_wx, g.nx, fx, sx);
  cell_span(c.y, h.y + r_list, g.lo_y, g.inv_wy, g.ny, fy, sy);
  cell_span(c.z, h.z + r_list, g.lo_z, g.inv_wz, g.nz, fz, sz);
  const uint32_t ncells = uint32_t(sx) * uint32_t(sy) * uint32_t(sz);
  const double r_sq = r_list * r_list;
  const uint32_t below = (1u << lane) - 1u;
  uint32_t count = 0;
  for (uint32_t q0 = 0; q0 < ncells; q0 += 32) {
    const uint32_t q = q0 + lane;
    uint32_t m = 0, begin = 0;
    if (q < ncells) {
      const int x = fx + int(q % uint32_t(sx)), y = fy + int((q / uint32_t(sx)) % uint32_t(sy)),
                z = fz + int(q / uint32_t(sx * sy));
      const uint32_t cell = uint32_t((wrap(z, g.nz) * g.ny + wrap(y, g.ny)) * g.nx + wrap(x, g.nx));
      m = cells.size(cell);
      begin = m ? cells.begin(cell) : 0u;
    }
    const uint32_t rounds = __reduce_max_sync(0xffffffffu, m);
    for (uint32_t t = 0; t < rounds; ++t) {
      bool hit = false;
      uint32_t jc = 0;
      if (t < m) {
        const uint32_t j = cells.members[begin + t];
        if (near_box(xyz(ldg4(pos + j)), c, h, box, r_sq)) {
          jc = j / kClusterJ;
          hit = true;
          for (uint32_t k = jc * kClusterJ; k < j && hit; ++k) hit = !near_box(xyz(ldg4(pos + k)), c, h, box, r_sq);
        }
      }
      const uint32_t bits = __ballot_sync(0xffffffffu, hit);
      if (hit) {
        const uint32_t slot = count + __popc(bits & below);
        if (slot < nl.cap) nl.idx[nl.at(ci, slot)] = jc;
      }
      count += __popc(bits);
    }
  }
  if (lane == 0) {
    nl.count[ci] = count;
    if (count > nl.cap) atomicMax(&ctl->list.nlist_overflow, count);
  }
}

}  // namespace

template <class S4>
void build_nlist_cluster(const S4* pos, const NlistBuildArgs& a, cudaStream_t s) {
  if (!a.n) return;
  const uint32_t nci = (a.n + kClusterI - 1) / kClusterI;
  // r_list as the other builders take it (widened by 2^-20 for fp32 lists).
  cluster_search_kernel<S4><<<(nci + kSearchWarps - 1) / kSearchWarps, kSearchBlock, 0, s>>>(
      pos, a.n, a.box, a.grid, a.cells, a.nl, std::sqrt(a.r_list_sq), a.ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void build_nlist_cluster<Double4>(const Double4*, const NlistBuildArgs&, cudaStream_t);
template void build_nlist_cluster<float4>(const float4*, const NlistBuildArgs&, cudaStream_t);

}  // namespace meso::cuda
