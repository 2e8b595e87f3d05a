// Neighbor list, `nlist=atomic` (HOOMD-blue NeighborListGPUBinned, Anderson
// et al. JCP 227 (2008)): one thread per particle walks the stencil cells and
// appends hits to its own column of the list with a private counter. No
// atomics are needed for the append because each row has a single writer;
// only the overflow report is atomic. Order: stencil order, then ascending
// index inside a cell (deterministic, not globally sorted).
#include "meso/cuda/check.hpp"
#include "neighbor_list.cuh"

namespace meso::cuda {
namespace {

template <class S4>
__global__ void atomic_kernel(const S4* __restrict__ pos, uint32_t n, NlistBuildArgs a) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  StepControl* ctl = a.ctl;
  if (ctl->abort || ctl->cell_overflow) return;
  using R = BuildReal<S4>;
  const S4 pi = ldg4(pos + i);
  const uint32_t c = a.grid.cell_of(xyz(pi));
  const MinImage<R> box(a.box);
  const R r_list_sq = R(a.r_list_sq);
  const int ns = a.grid.stencil_size();
  const uint32_t cap = a.nl.cap;
  uint32_t cnt = 0;
  for (int k = 0; k < ns; ++k) {
    const uint32_t sc = a.grid.stencil_cell(c, k);
    const uint32_t b = a.cells.begin(sc), m = a.cells.size(sc);
    for (uint32_t t = 0; t < m; ++t) {
      const uint32_t j = __ldg(a.cells.members + b + t);
      if (j == i) continue;
      const S4 pj = ldg4(pos + j);
      R dx = R(pi.x) - R(pj.x), dy = R(pi.y) - R(pj.y), dz = R(pi.z) - R(pj.z);
      box.apply(dx, dy, dz);
      if (dx * dx + dy * dy + dz * dz < r_list_sq) {
        if (cnt < cap) a.nl.idx[size_t(cnt) * a.nl.stride + i] = j;
        ++cnt;
      }
    }
  }
  a.nl.count[i] = cnt;
  if (cnt > cap) atomicMax(&ctl->nlist_overflow, cnt);
}

template <class S4>
__global__ void finish_kernel(const S4* __restrict__ pos, S4* __restrict__ last_pos, uint32_t n,
                              StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (ctl->abort) return;
  if (ctl->cell_overflow || ctl->nlist_overflow) {
    // Every thread sees the same flags; one records the abort.
    if (i == 0) ctl->abort = 1;
    return;
  }
  if (i < n) last_pos[i] = pos[i];
  if (i == 0) {
    ctl->steps_since_build = 0;
    ctl->builds += 1;
  }
}

template <class S4>
__global__ void displacement_kernel(const S4* __restrict__ pos, const S4* __restrict__ last_pos,
                                    uint32_t n, Box box, StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (ctl->abort) return;  // frozen after an overflow; the host resumes
  double d2 = 0.0;
  if (i < n) {
    const Vec3d d = box.min_image(xyz(ldg4(pos + i)) - xyz(ldg4(last_pos + i)));
    d2 = dot(d, d);
  }
  for (int o = 16; o > 0; o >>= 1) d2 = fmax(d2, __shfl_xor_sync(0xffffffffu, d2, o));
  if ((threadIdx.x & 31u) == 0 && d2 > 0.0)
    atomicMax(&ctl->max_disp_bits, static_cast<unsigned long long>(__double_as_longlong(d2)));
}

}  // namespace

template <class S4>
void build_nlist_atomic(const S4* pos, const NlistBuildArgs& a, cudaStream_t s) {
  atomic_kernel<S4><<<(a.n + 127) / 128, 128, 0, s>>>(pos, a.n, a);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void finish_nlist_build(const S4* pos, S4* last_pos, uint32_t n, StepControl* ctl,
                        cudaStream_t s) {
  finish_kernel<S4><<<(n + 255) / 256, 256, 0, s>>>(pos, last_pos, n, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void max_displacement(const S4* pos, const S4* last_pos, uint32_t n, const Box& box,
                      StepControl* ctl, cudaStream_t s) {
  displacement_kernel<S4><<<(n + 255) / 256, 256, 0, s>>>(pos, last_pos, n, box, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                  \
  template void build_nlist_atomic<S4>(const S4*, const NlistBuildArgs&, cudaStream_t);      \
  template void finish_nlist_build<S4>(const S4*, S4*, uint32_t, StepControl*, cudaStream_t); \
  template void max_displacement<S4>(const S4*, const S4*, uint32_t, const Box&, StepControl*, \
                                     cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
