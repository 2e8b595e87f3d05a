// Device buffers shared between the ranks of one node through CUDA IPC (the
// peer ghost transport of CudaDomainStorage, domain_storage_op.cu): one a
// rank exports for a neighbour to read, and a neighbour's one mapped here.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

#include "meso/cuda/check.hpp"
#include "meso/cuda/device_buffer.hpp"

namespace meso::cuda {

// A device buffer that a neighbour maps. When it grows, the old one is kept
// until the next exchange (the neighbour still maps it until it imports the
// new handle) and freed then.
struct IpcExport {
  DeviceBuffer<double> buf, retired;
  cudaIpcMemHandle_t handle{};
  // At an exchange: room for `doubles`; true when the buffer is new.
  bool reserve(std::size_t doubles) {
    retired.release();  // the neighbour mapped its successor at the last exchange
    if (buf.size() >= doubles) return false;
    retired.swap(buf);
    buf.resize(doubles + doubles / 4 + 256);
    MESO_CUDA_CHECK(cudaIpcGetMemHandle(&handle, buf.data()));  // once a buffer: the driver call is not free
    return true;
  }
  std::size_t bytes() const { return buf.bytes() + retired.bytes(); }
  std::size_t half() const { return buf.size() / 2; }  // doubles of one half (updates)
};

// A neighbour's exported buffer, mapped.
struct IpcImport {
  cudaIpcMemHandle_t handle{};
  void* ptr = nullptr;
  std::size_t half = 0;

  void close() {
    if (ptr) cudaIpcCloseMemHandle(ptr);
    ptr = nullptr;
  }
  // Maps the neighbour's buffer `h`, unless it is the one mapped already
  // (opened again only when the neighbour's buffer grew). An error is
  // returned, and cleared: the caller falls back to the host.
  cudaError_t map(const cudaIpcMemHandle_t& h) {
    if (ptr && std::memcmp(&h, &handle, sizeof h) == 0) return cudaSuccess;
    close();
    void* p = nullptr;
    const cudaError_t e = cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      return e;
    }
    handle = h;
    ptr = p;
    return cudaSuccess;
  }
};

}  // namespace meso::cuda
