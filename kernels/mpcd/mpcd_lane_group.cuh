// The lane groups of the MPCD collision kernels (mpcd_collide.cu,
// mpcd_collide_layers.cu): kLanes threads per cell stride over its members
// and combine their partial results with warp shuffles.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "meso/physics/srd.hpp"

namespace meso::cuda {

constexpr uint32_t kLanes = 8;  // threads per cell: ~10 members at rho = 10

// Butterfly reductions over the kLanes lanes of a cell (all 32 lanes of the
// warp take part: callers keep every thread alive up to here). Integer sums
// and nan_max are associative and commutative: any combination order gives
// the same result.
template <uint32_t NV>
__device__ __forceinline__ void lane_group_sum(long long (&s)[NV]) {
#pragma unroll
  for (uint32_t off = kLanes / 2; off > 0; off >>= 1)
#pragma unroll
    for (uint32_t v = 0; v < NV; ++v) s[v] += __shfl_xor_sync(0xffffffffu, s[v], off);
}
__device__ __forceinline__ double lane_group_max(double x) {
#pragma unroll
  for (uint32_t off = kLanes / 2; off > 0; off >>= 1)
    x = physics::nan_max(x, __shfl_xor_sync(0xffffffffu, x, off));
  return x;
}

}  // namespace meso::cuda
