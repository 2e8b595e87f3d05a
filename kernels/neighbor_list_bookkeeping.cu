// The neighbor-list bookkeeping kernels (neighbor_list_bookkeeping.cuh).
#include "meso/cuda/check.hpp"
#include "neighbor_list_bookkeeping.cuh"

namespace meso::cuda {
namespace {

template <class S4>
__global__ void finish_kernel(const S4* __restrict__ pos, S4* __restrict__ last_pos, uint32_t n,
                              StepControl* ctl) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (ctl->abort) return;
  if (ctl->list.cell_overflow || ctl->list.nlist_overflow) {
    // Every thread sees the same flags; one records the abort.
    if (i == 0) ctl->abort = 1;
    return;
  }
  if (i < n) last_pos[i] = pos[i];
  if (i == 0) {
    ctl->list.steps_since_build = 0;
    ctl->list.builds += 1;
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

}  // namespace

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
  template void finish_nlist_build<S4>(const S4*, S4*, uint32_t, StepControl*, cudaStream_t); \
  template void max_displacement<S4>(const S4*, const S4*, uint32_t, const Box&, StepControl*, \
                                     cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
