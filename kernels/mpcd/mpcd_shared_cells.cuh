// What the decomposed MPCD collision of the CUDA backend (CudaMpcdCollide on
// several ranks, mpcd_op.cu) keeps between collisions:
// - the shared cells of each touched range met so far, as host and device
//   lists (the grid shift moves the range by a cell along each split axis
//   now and then, so a rank meets at most 2^3 ranges);
// - the phases' values: on the device compact, one entry per shared cell;
//   on the host over the range, as Communicator::combine_layers takes them;
// - a second stream of the highest priority for the shared cells, so that
//   their short kernels and copies are not queued behind the inner cells'
//   collision.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <vector>

#include "core/pinned_memory.cuh"
#include "meso/cuda/check.hpp"
#include "meso/cuda/device_buffer.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/ops/communicator.hpp"
#include "mpcd/mpcd_kernels.cuh"

namespace meso::cuda {

class MpcdSharedCells {
 public:
  MpcdSharedCells();
  ~MpcdSharedCells();
  MpcdSharedCells(const MpcdSharedCells&) = delete;
  MpcdSharedCells& operator=(const MpcdSharedCells&) = delete;

  // Makes range r the current one (its shared cells: the first and the last
  // layer of each split axis), and the values' buffers fit it; `s` is the
  // context's stream, waited for before a buffer the last collision read moves.
  void prepare(const CellRange& r, const Domain& d, cudaStream_t s);
  const MpcdRangeView& view() const { return cur_->view; }
  // The current range's lists (a key for what was captured with them: they
  // stay where they are as long as this object lives).
  const void* current_range() const { return cur_; }
  // Counts the moves of every buffer a captured collision holds (the
  // values', the layer messages'): a graph of an earlier generation is
  // captured again.
  uint64_t generation = 0;
  // The layer messages sized for the current range's widest phase (`width`
  // values a cell), before a capture, which cannot allocate.
  void reserve_messages(int width);
  MpcdLayerArgs args() {
    return {cur_->list.data(), uint32_t(cur_->shared.size()), v1.data(), q2.data(), q3.data()};
  }

  // The phase's values (width per shared cell, on the device) combined over
  // the ranks and copied back in place: down, into the range's host layout,
  // combine, up.
  template <class T, class D, class Combine>
  void exchange(D* dev, std::vector<T>& host, int width, Combine&& combine) {
    const std::vector<uint32_t>& shared = cur_->shared;
    const std::size_t ns = shared.size(), values = ns * std::size_t(width);
    if (pinned_.size() < (values + 1) * sizeof(D)) pinned_.resize(std::max<std::size_t>((values + 1) * sizeof(D), 256));
    D* buf = reinterpret_cast<D*>(pinned_.data());
    MESO_CUDA_CHECK(cudaStreamSynchronize(stream));  // the phase's kernel is done: the time below is the copy's
    auto t0 = std::chrono::steady_clock::now();
    if (values) MESO_CUDA_CHECK(cudaMemcpyAsync(buf, dev, values * sizeof(D), cudaMemcpyDeviceToHost, stream));
    MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
    copy_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (std::size_t k = 0; k < ns; ++k)
      for (int w = 0; w < width; ++w) host[std::size_t(shared[k]) * width + w] = T(buf[k * width + w]);
    combine(host);
    for (std::size_t k = 0; k < ns; ++k)
      for (int w = 0; w < width; ++w) buf[k * width + w] = D(host[std::size_t(shared[k]) * width + w]);
    t0 = std::chrono::steady_clock::now();
    if (values) MESO_CUDA_CHECK(cudaMemcpyAsync(dev, buf, values * sizeof(D), cudaMemcpyHostToDevice, stream));
    MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
    copy_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // The phase's values combined over the ranks on the device (--transport
  // nccl): per split axis, the first and the last layer packed by a kernel,
  // each prefixed by its global plane index as combine_layers does, moved
  // by `links` on the layers' stream, and merged into the layer of the same
  // plane; doubles by max where bit w of max_mask is set, else summed. No
  // host wait.
  template <class T>
  void combine_device(const DeviceLinks& links, T* dev, int width, uint32_t max_mask = 0);

  DeviceBuffer<uint32_t> outside;  // solvent particles outside the range's cells (one word)
  DeviceBuffer<double> v1;
  DeviceBuffer<long long> q2, q3;
  std::vector<double> h1;
  std::vector<int64_t> h2, h3;
  cudaStream_t stream = nullptr;
  cudaEvent_t cells_built = nullptr, done = nullptr;
  double copy_s = 0.0;  // seconds of host-device copies of the values

 private:
  struct RangeLists {
    CellRange range;
    MpcdRangeView view{};
    std::vector<uint32_t> shared;  // local indices of the shared cells
    DeviceBuffer<uint32_t> list;
    // Per split axis, the cells of its first [0] and last [1] layer (the
    // other two axes' local coordinates, the later one outer) as indices
    // into `shared`, and their global plane indices.
    std::array<std::array<DeviceBuffer<uint32_t>, 2>, 3> layer;
    std::array<std::array<int, 2>, 3> plane{};
    std::array<uint32_t, 3> layer_cells{};
  };
  DeviceBuffer<unsigned char> send_[2], recv_[2];  // one layer each, with its plane
  std::vector<std::unique_ptr<RangeLists>> ranges_;
  RangeLists* cur_ = nullptr;
  // Page-locked host memory: the layers' values cross in one copy each way.
  PinnedMemory pinned_memory_;
  std::pmr::vector<unsigned char> pinned_{&pinned_memory_};
};

}  // namespace meso::cuda
