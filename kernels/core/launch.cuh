// The launch of the one-thread-an-item kernels (classify, pack, move,
// unpack: the domain storage of MD particles and of the solvent), written
// once: nothing for no items, else ceil(count / kBlock) blocks of kBlock
// threads on the stream, the launch checked.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

#include "meso/cuda/check.hpp"

namespace meso::cuda {

template <uint32_t kBlock, class... Params, class... Args>
void launch_per_item(void (*kernel)(Params...), uint64_t count, cudaStream_t stream, Args&&... args) {
  if (count == 0) return;
  kernel<<<uint32_t((count + kBlock - 1) / kBlock), kBlock, 0, stream>>>(std::forward<Args>(args)...);
  MESO_CUDA_CHECK(cudaGetLastError());
}

}  // namespace meso::cuda
