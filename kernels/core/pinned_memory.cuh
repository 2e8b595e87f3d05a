// Page-locked host memory as a std::pmr resource: the one kind of pinned
// buffer of the CUDA backend. The communicator's message buffers live in it
// (the device copies records straight into what MPI sends, and out of what
// it received), and so do the MPCD collision's layer values: every
// device <-> host transfer of a decomposed step is one copy.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <memory_resource>

#include "meso/cuda/check.hpp"

namespace meso::cuda {

class PinnedMemory final : public std::pmr::memory_resource {
  void* do_allocate(std::size_t bytes, std::size_t) override {
    void* p = nullptr;
    MESO_CUDA_CHECK(cudaMallocHost(&p, std::max<std::size_t>(bytes, 1)));  // page-aligned: any alignment
    return p;
  }
  void do_deallocate(void* p, std::size_t, std::size_t) override { cudaFreeHost(p); }
  bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }
};

}  // namespace meso::cuda
