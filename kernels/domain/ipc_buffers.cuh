// Device buffers shared between the ranks of one node through CUDA IPC (the
// peer ghost transport of CudaDomainStorage, domain_storage_op.cu): one a
// rank exports for a neighbour to read, and a neighbour's one mapped here.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

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
  // The handle as the bytes of a note, followed by the half's size when
  // `with_half` (updates).
  std::vector<unsigned char> note(bool with_half) const {
    std::vector<unsigned char> out(sizeof handle + (with_half ? sizeof(uint64_t) : 0));
    std::memcpy(out.data(), &handle, sizeof handle);
    const uint64_t h = half();
    if (with_half) std::memcpy(out.data() + sizeof handle, &h, sizeof h);
    return out;
  }
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
  // map() of a note made by IpcExport::note (with the half's size when
  // `with_half`; the communicator may pad it with zeros); a note too short
  // is cudaErrorInvalidValue.
  cudaError_t map_note(const std::vector<unsigned char>& note, bool with_half) {
    cudaIpcMemHandle_t h;
    uint64_t hf = 0;
    if (note.size() < sizeof h + (with_half ? sizeof hf : 0)) return cudaErrorInvalidValue;
    std::memcpy(&h, note.data(), sizeof h);
    if (with_half) std::memcpy(&hf, note.data() + sizeof h, sizeof hf);
    half = hf;
    return map(h);
  }
};

}  // namespace meso::cuda
