// An owning, typed device allocation (RAII); resize() does not preserve the
// contents. An allocation failure becomes DeviceMemoryError naming the
// request and the free memory, so an oversize system fails with a clear
// message instead of a sticky CUDA error.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "meso/cuda/check.hpp"

namespace meso::cuda {

// An OutOfMemory (meso/core/error.hpp), so the front ends report it as a system
// too large for the device, naming N and the bytes.
class DeviceMemoryError : public OutOfMemory {
 public:
  using OutOfMemory::OutOfMemory;
};

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) { resize(n); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    swap(o);
    return *this;
  }
  ~DeviceBuffer() { release(); }

  // Exactly n elements (reallocates when the size changes).
  void resize(std::size_t n) {
    if (n == size_) return;
    release();
    if (n == 0) return;
    void* p = nullptr;
    const cudaError_t err = cudaMalloc(&p, n * sizeof(T));
    if (err != cudaSuccess) {
      (void)cudaGetLastError();  // clear the non-sticky allocation error
      std::size_t free_b = 0, total_b = 0;
      cudaMemGetInfo(&free_b, &total_b);
      throw DeviceMemoryError("out of device memory: allocating " + std::to_string(n) + " x " +
                              std::to_string(sizeof(T)) + " bytes failed (" +
                              std::to_string(free_b >> 20) + " MiB free of " +
                              std::to_string(total_b >> 20) + " MiB)");
    }
    ptr_ = static_cast<T*>(p);
    size_ = n;
  }
  void release() {
    if (ptr_) cudaFree(ptr_);
    ptr_ = nullptr;
    size_ = 0;
  }
  void swap(DeviceBuffer& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(size_, o.size_);
  }

  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  std::size_t size_ = 0;
};

// Host data copied in once (set-up: the copy waits for itself): d resized to
// h's size, or to `min_size` when h is smaller (a buffer a kernel takes even
// when it is empty).
template <class T>
void upload(DeviceBuffer<T>& d, const std::vector<T>& h, std::size_t min_size = 0) {
  d.resize(h.size() < min_size ? min_size : h.size());
  if (!h.empty()) MESO_CUDA_CHECK(cudaMemcpy(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}

}  // namespace meso::cuda
