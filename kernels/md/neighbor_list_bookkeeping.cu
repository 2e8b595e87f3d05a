// The neighbor-list bookkeeping kernels (neighbor_list_bookkeeping.cuh).
#include "meso/cuda/check.hpp"
#include "md/neighbor_list_bookkeeping.cuh"

namespace meso::cuda {
namespace {

constexpr uint32_t kFinishBlock = 256;

template <class S4>
__global__ void __launch_bounds__(kFinishBlock)
    finish_kernel(const S4* __restrict__ pos, S4* __restrict__ last_pos,
                  const uint32_t* __restrict__ count, uint32_t n, StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (ctl->abort) return;
  if (ctl->list.cell_overflow || ctl->list.nlist_overflow) {
    // Every thread sees the same flags; one records the abort.
    if (i == 0) ctl->abort = 1;
    return;
  }
  // The block's longest row into ctl->list.nlist_max (one atomic per block),
  // what the host's shrink_to_fit sizes the capacity from.
  uint32_t c = 0;
  if (i < n) {
    last_pos[i] = pos[i];
    c = count[i];
  }
  __shared__ uint32_t warp_max[kFinishBlock / 32];
  c = __reduce_max_sync(0xffffffffu, c);
  if ((threadIdx.x & 31u) == 0) warp_max[threadIdx.x >> 5] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (uint32_t w = 1; w < kFinishBlock / 32; ++w) c = max(c, warp_max[w]);
    atomicMax(&ctl->list.nlist_max, c);
  }
  if (i == 0) {
    ctl->list.steps_since_build = 0;
    ctl->list.builds += 1;
    ctl->list.outer_moved = 0.0;  // dynamic pruning: the outer list is new
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
  record_max_displacement(d2, &ctl->list);
}

template <class S4>
__global__ void edge_kernel(const S4* __restrict__ pos, uint32_t n, EdgeFaces f, uint8_t* __restrict__ edge) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  bool near = false;
  const Vec3d r = i < n ? xyz(ldg4(pos + i)) : Vec3d{0, 0, 0};
  for (int k = 0; k < f.count && i < n; ++k) {
    const double x = f.axis[k] == 0 ? r.x : f.axis[k] == 1 ? r.y : r.z;
    double u = x - f.lo[k];  // folded into [0, len), as DomainSlab::offset
    if (u < 0.0) u += f.len[k];
    if (u >= f.len[k]) u -= f.len[k];
    near = near || u < f.reach || u >= f.width[k] - f.reach;
  }
  // By 32 rows (a warp of the force kernels, whose blocks are whole warps):
  // a warp of interior and edge rows would otherwise run in both launches.
  near = __any_sync(0xffffffffu, near);
  if (i < n) edge[i] = near ? 1 : 0;
}

}  // namespace

EdgeFaces edge_faces(const Domain& d, double r_list) {
  EdgeFaces f;
  const Vec3d len = d.global.lengths();
  auto axis = [](const Vec3d& v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; };
  for (int a = 0; a < 3; ++a) {
    if (d.grid[a] == 1) continue;
    f.axis[f.count] = a;
    f.lo[f.count] = axis(d.lo, a);
    f.len[f.count] = axis(len, a);
    f.width[f.count] = axis(d.hi, a) - axis(d.lo, a);
    ++f.count;
  }
  f.reach = r_list * (1.0 + 1e-4);
  return f;
}

template <class S4>
void mark_edge_rows(const S4* pos, uint32_t n, const EdgeFaces& f, uint8_t* edge, cudaStream_t s) {
  if (!n) return;
  edge_kernel<S4><<<(n + 255) / 256, 256, 0, s>>>(pos, n, f, edge);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void finish_nlist_build(const S4* pos, S4* last_pos, const uint32_t* count, uint32_t n,
                        StepControl* ctl, cudaStream_t s) {
  finish_kernel<S4><<<(n + kFinishBlock - 1) / kFinishBlock, kFinishBlock, 0, s>>>(pos, last_pos,
                                                                                   count, n, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template <class S4>
void max_displacement(const S4* pos, const S4* last_pos, uint32_t n, const Box& box,
                      StepControl* ctl, cudaStream_t s) {
  displacement_kernel<S4><<<(n + 255) / 256, 256, 0, s>>>(pos, last_pos, n, box, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_INSTANTIATE(S4)                                                                  \
  template void finish_nlist_build<S4>(const S4*, S4*, const uint32_t*, uint32_t, StepControl*, \
                                       cudaStream_t);                                          \
  template void max_displacement<S4>(const S4*, const S4*, uint32_t, const Box&, StepControl*, \
                                     cudaStream_t);                                          \
  template void mark_edge_rows<S4>(const S4*, uint32_t, const EdgeFaces&, uint8_t*, cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
