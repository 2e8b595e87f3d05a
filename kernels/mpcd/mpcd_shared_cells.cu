// The decomposed MPCD collision's state between collisions (mpcd_shared_cells.cuh).
#include <algorithm>
#include <type_traits>
#include <vector>

#include "mpcd/mpcd_shared_cells.cuh"

namespace meso::cuda {
namespace {

bool same(const CellRange& a, const CellRange& b) { return a.n == b.n && a.first == b.first && a.count == b.count; }

constexpr uint32_t kBlock = 256;

// out = [plane, the layer's values]: value w of layer cell j is that of
// shared cell map[j].
template <class T>
__global__ void layer_pack_kernel(const T* __restrict__ v, const uint32_t* __restrict__ map, uint32_t values,
                                  int width, T plane, T* __restrict__ out) {
  const uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e == 0) out[0] = plane;
  if (e >= values) return;
  out[1 + e] = v[std::size_t(map[e / width]) * width + e % width];
}

template <class T>
__device__ __forceinline__ T layer_combine(T mine, T theirs, int w, uint32_t max_mask) {
  if constexpr (std::is_floating_point_v<T>) {
    if ((max_mask >> w) & 1u) return mine < theirs ? theirs : mine;  // std::max, as combine_layers
  }
  return mine + theirs;
}

// Both received layers merged into this rank's layer of the same plane
// (that of the lower neighbour first, as combine_layers merges them); each
// thread owns one value of a layer, so no two threads touch one cell value.
template <class T>
__global__ void layer_merge_kernel(T* __restrict__ v, const uint32_t* __restrict__ map_lo,
                                   const uint32_t* __restrict__ map_hi, int plane_lo, int plane_hi, uint32_t values,
                                   int width, const T* __restrict__ in0, const T* __restrict__ in1, uint32_t max_mask) {
  const uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= values) return;
  const uint32_t j = e / width;
  const int w = int(e % width);
  for (const T* in : {in0, in1}) {
    const int p = int(in[0]);
    const T x = in[1 + e];
    if (p == plane_lo) {
      T& mine = v[std::size_t(map_lo[j]) * width + w];
      mine = layer_combine(mine, x, w, max_mask);
    }
    if (p == plane_hi) {
      T& mine = v[std::size_t(map_hi[j]) * width + w];
      mine = layer_combine(mine, x, w, max_mask);
    }
  }
}

}  // namespace

void MpcdSharedCells::reserve_messages(int width) {
  for (int a = 0; a < 3; ++a) {
    if (!(cur_->view.split >> a & 1u)) continue;
    const std::size_t bytes = (std::size_t(cur_->layer_cells[a]) * uint32_t(width) + 1) * sizeof(double);
    for (int k = 0; k < 2; ++k) {
      // Grown only when a range grows: cudaFree waits for the device, so no
      // message in flight loses its buffer.
      if (send_[k].size() < bytes) {
        send_[k].resize(bytes + bytes / 4);
        ++generation;
      }
      if (recv_[k].size() < bytes) {
        recv_[k].resize(bytes + bytes / 4);
        ++generation;
      }
    }
  }
}

template <class T>
void MpcdSharedCells::combine_device(const DeviceLinks& links, T* dev, int width, uint32_t max_mask) {
  static_assert(sizeof(T) == sizeof(double), "layer values of 8 bytes (reserve_messages)");
  reserve_messages(width);
  RangeLists& r = *cur_;
  for (int a = 0; a < 3; ++a) {
    if (!(r.view.split >> a & 1u)) continue;
    const uint32_t values = r.layer_cells[a] * uint32_t(width);
    const std::size_t bytes = (std::size_t(values) + 1) * sizeof(T);
    const uint32_t grid = (values + kBlock - 1) / kBlock;
    auto* out0 = reinterpret_cast<T*>(send_[0].data());
    auto* out1 = reinterpret_cast<T*>(send_[1].data());
    layer_pack_kernel<T><<<grid, kBlock, 0, stream>>>(dev, r.layer[a][0].data(), values, width, T(r.plane[a][0]), out0);
    layer_pack_kernel<T><<<grid, kBlock, 0, stream>>>(dev, r.layer[a][1].data(), values, width, T(r.plane[a][1]), out1);
    MESO_CUDA_CHECK(cudaGetLastError());
    links.exchange(a, {out0, out1}, {bytes, bytes}, {recv_[0].data(), recv_[1].data()}, {bytes, bytes}, stream);
    layer_merge_kernel<T><<<grid, kBlock, 0, stream>>>(dev, r.layer[a][0].data(), r.layer[a][1].data(), r.plane[a][0],
                                                       r.plane[a][1], values, width,
                                                       reinterpret_cast<const T*>(recv_[0].data()),
                                                       reinterpret_cast<const T*>(recv_[1].data()), max_mask);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
}

template void MpcdSharedCells::combine_device<double>(const DeviceLinks&, double*, int, uint32_t);
template void MpcdSharedCells::combine_device<long long>(const DeviceLinks&, long long*, int, uint32_t);

MpcdSharedCells::MpcdSharedCells() {
  int least = 0, greatest = 0;
  MESO_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  MESO_CUDA_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest));
  MESO_CUDA_CHECK(cudaEventCreateWithFlags(&cells_built, cudaEventDisableTiming));
  MESO_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  outside.resize(1);
}

MpcdSharedCells::~MpcdSharedCells() {
  if (stream) cudaStreamSynchronize(stream);
  if (cells_built) cudaEventDestroy(cells_built);
  if (done) cudaEventDestroy(done);
  if (stream) cudaStreamDestroy(stream);
}

void MpcdSharedCells::prepare(const CellRange& r, const Domain& d, cudaStream_t s) {
  if (!cur_ || !same(cur_->range, r)) {
    cur_ = nullptr;
    for (auto& e : ranges_)
      if (same(e->range, r)) cur_ = e.get();
    if (!cur_) {
      auto e = std::make_unique<RangeLists>();
      e->range = r;
      for (int a = 0; a < 3; ++a) {
        e->view.n[a] = r.n[a];
        e->view.first[a] = r.first[a];
        e->view.count[a] = r.count[a];
      }
      e->view.split = (d.grid[0] > 1 ? 1u : 0u) | (d.grid[1] > 1 ? 2u : 0u) | (d.grid[2] > 1 ? 4u : 0u);
      e->view.ncells = uint32_t(r.cells());
      std::vector<uint32_t> compact(e->view.ncells, 0);
      for (uint32_t l = 0; l < e->view.ncells; ++l)
        if (e->view.shared(l)) {
          compact[l] = uint32_t(e->shared.size());
          e->shared.push_back(l);
        }
      e->list.resize(std::max<std::size_t>(e->shared.size(), 1));
      if (!e->shared.empty())
        MESO_CUDA_CHECK(cudaMemcpyAsync(e->list.data(), e->shared.data(), e->shared.size() * sizeof(uint32_t),
                                        cudaMemcpyHostToDevice, stream));
      // The layers of each split axis, walked as combine_layers packs them.
      std::vector<std::vector<uint32_t>> maps;
      for (int a = 0; a < 3; ++a) {
        if (!(e->view.split >> a & 1u)) continue;
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        e->layer_cells[a] = uint32_t(r.count[b]) * uint32_t(r.count[c]);
        for (int side = 0; side < 2; ++side) {
          const int along = side == 0 ? 0 : r.count[a] - 1;
          e->plane[a][side] = (r.first[a] + along) % r.n[a];
          std::vector<uint32_t>& m = maps.emplace_back();
          for (int jc = 0; jc < r.count[c]; ++jc)
            for (int jb = 0; jb < r.count[b]; ++jb) {
              int ijk[3];
              ijk[a] = along, ijk[b] = jb, ijk[c] = jc;
              m.push_back(compact[r.local(ijk[0], ijk[1], ijk[2])]);
            }
          e->layer[a][side].resize(m.size());
          MESO_CUDA_CHECK(cudaMemcpyAsync(e->layer[a][side].data(), m.data(), m.size() * sizeof(uint32_t),
                                          cudaMemcpyHostToDevice, stream));
        }
      }
      MESO_CUDA_CHECK(cudaStreamSynchronize(stream));  // before `maps` goes
      ranges_.push_back(std::move(e));
      cur_ = ranges_.back().get();
    }
  }
  const std::size_t ns = std::max<std::size_t>(cur_->shared.size(), 1);
  if (v1.size() < 3 * ns) {
    // No kernel of the last collision still reads them (the context's
    // stream waited for its last kernel).
    MESO_CUDA_CHECK(cudaStreamSynchronize(s));
    const std::size_t cap = ns + ns / 4;
    v1.resize(3 * cap);
    q2.resize(3 * cap);
    q3.resize(4 * cap);
    ++generation;
  }
  h1.resize(r.cells() * 3);
  h2.resize(r.cells() * 3);
  h3.resize(r.cells() * 4);
}

}  // namespace meso::cuda
