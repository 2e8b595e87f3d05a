// The counting sort of cell_order.cuh: CUB's exclusive scan of the cell
// counts, one warp a cell writing the permutation, then one thread a slot
// gathering every array into scratch and one copying it back.
#include <cub/device/device_scan.cuh>

#include "md/cell_order.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

constexpr uint32_t kBlock = 256;

std::size_t piece(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

std::size_t scan_temp_bytes(uint32_t ncells) {
  std::size_t bytes = 0;
  MESO_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const uint32_t*>(nullptr),
                                                static_cast<uint32_t*>(nullptr), int(ncells)));
  return std::max<std::size_t>(bytes, 1);
}

// One warp a cell: its members, in the order the cell list holds them,
// to consecutive slots from start[c]. Thread 0 closes start with n (the
// scan covered the cells only). An overflow of the atomic cells (members
// beyond their capacity were not stored) aborts the step here, as
// finish_nlist_build does for the lists.
__global__ void permutation_kernel(CellView cells, uint32_t ncells, uint32_t n, uint32_t* start,
                                   uint32_t* perm, StepControl* ctl) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t == 0) start[ncells] = n;
  if (ctl->abort) return;
  if (ctl->list.cell_overflow) {
    if (t == 0) ctl->abort = 1;
    return;
  }
  const uint32_t c = t / 32, lane = t % 32;
  if (c >= ncells) return;
  const uint32_t from = cells.begin(c), to = start[c], m = cells.size(c);
  for (uint32_t r = lane; r < m; r += 32) perm[to + r] = cells.members[from + r];
}

template <class S4>
__global__ void gather_kernel(ParticleView<S4> p, CellOrderScratch sc, const StepControl* ctl) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= p.n || ctl->abort) return;
  const uint32_t o = sc.perm[k];
  static_cast<S4*>(sc.pos)[k] = p.pos[o];
  static_cast<S4*>(sc.vel)[k] = p.vel[o];
  if (sc.vel_pred) static_cast<S4*>(sc.vel_pred)[k] = p.vel_pred[o];
  sc.tag[k] = p.tag[o];
  sc.image[k] = p.image[o];
  if (sc.signature) sc.signature[k] = p.signature[o];
}

template <class S4>
__global__ void copy_back_kernel(ParticleView<S4> p, CellOrderScratch sc, StepControl* ctl) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (ctl->abort) return;
  if (k == 0) {  // the build's bookkeeping (finish_nlist_build's, no rows to measure)
    ctl->list.steps_since_build = 0;
    ctl->list.builds += 1;
  }
  if (k >= p.n) return;
  const S4 r = static_cast<const S4*>(sc.pos)[k];
  p.pos[k] = r;
  p.last_pos[k] = r;
  p.vel[k] = static_cast<const S4*>(sc.vel)[k];
  if (sc.vel_pred) p.vel_pred[k] = static_cast<const S4*>(sc.vel_pred)[k];
  p.tag[k] = sc.tag[k];
  p.image[k] = sc.image[k];
  if (sc.signature) p.signature[k] = sc.signature[k];
}

}  // namespace

template <class S4>
std::size_t cell_order_scratch_bytes(uint32_t n, uint32_t ncells) {
  const std::size_t words = piece(std::size_t(n) * 4), s4 = piece(std::size_t(n) * sizeof(S4));
  return words + 3 * s4 + words + piece(std::size_t(n) * sizeof(Image)) + words + piece(scan_temp_bytes(ncells));
}

template <class S4>
CellOrderScratch cell_order_scratch(void* base, uint32_t n, uint32_t ncells, bool vel_pred, bool signature) {
  char* at = static_cast<char*>(base);
  auto take = [&](std::size_t bytes) {
    char* p = at;
    at += piece(bytes);
    return p;
  };
  CellOrderScratch sc{};
  sc.perm = reinterpret_cast<uint32_t*>(take(std::size_t(n) * 4));
  sc.pos = take(std::size_t(n) * sizeof(S4));
  sc.vel = take(std::size_t(n) * sizeof(S4));
  char* pred = take(std::size_t(n) * sizeof(S4));
  sc.vel_pred = vel_pred ? pred : nullptr;
  sc.tag = reinterpret_cast<uint32_t*>(take(std::size_t(n) * 4));
  sc.image = reinterpret_cast<Image*>(take(std::size_t(n) * sizeof(Image)));
  uint32_t* sig = reinterpret_cast<uint32_t*>(take(std::size_t(n) * 4));
  sc.signature = signature ? sig : nullptr;
  sc.scan_temp_bytes = scan_temp_bytes(ncells);
  sc.scan_temp = take(sc.scan_temp_bytes);
  return sc;
}

template <class S4>
void sort_into_cell_order(ParticleView<S4> p, const CellView& cells, uint32_t ncells, uint32_t* start,
                          const CellOrderScratch& sc, StepControl* ctl, cudaStream_t s) {
  std::size_t bytes = sc.scan_temp_bytes;
  MESO_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(sc.scan_temp, bytes, cells.count, start, int(ncells), s));
  const uint64_t lanes = uint64_t(ncells) * 32;
  permutation_kernel<<<uint32_t((lanes + kBlock - 1) / kBlock), kBlock, 0, s>>>(cells, ncells, p.n, start,
                                                                                 sc.perm, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  const uint32_t blocks = (p.n + kBlock - 1) / kBlock;
  if (!blocks) return;
  gather_kernel<S4><<<blocks, kBlock, 0, s>>>(p, sc, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
  copy_back_kernel<S4><<<blocks, kBlock, 0, s>>>(p, sc, ctl);
  MESO_CUDA_CHECK(cudaGetLastError());
}

#define MESO_CELL_ORDER(S4)                                                                                  \
  template std::size_t cell_order_scratch_bytes<S4>(uint32_t, uint32_t);                                    \
  template CellOrderScratch cell_order_scratch<S4>(void*, uint32_t, uint32_t, bool, bool);                   \
  template void sort_into_cell_order<S4>(ParticleView<S4>, const CellView&, uint32_t, uint32_t*,             \
                                         const CellOrderScratch&, StepControl*, cudaStream_t);
MESO_CELL_ORDER(Double4)
MESO_CELL_ORDER(float4)
#undef MESO_CELL_ORDER

}  // namespace meso::cuda
