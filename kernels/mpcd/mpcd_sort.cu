// The MPCD solvent into cell order (HOOMD-blue's mpcd::SorterGPU; Howard et
// al., CPC 230, 10 (2018), sec. 3.4): keys are the row-major cells of the
// unshifted grid, the stable radix sort and gather of sort_permute.cuh (the
// machinery of the MD reorder) give the permutation and move pos, vel, tag
// and image; tags travel along, so results in tag order are unchanged (and,
// as the cell sums do not depend on the members' order, bitwise so).
//
// Memory: the sort ping-pongs in place (cub::DoubleBuffer: two key and two
// value buffers, CUB's histograms), and once it is done the key buffers,
// 16 bytes a particle, are the gather buffer of the 16-byte fp32 records.
// All of it lives in the solvent's scratch pool, which the collision's cell
// list reuses (mpcd_context.cuh).
// Reference: reference/src/mpcd/mpcd_sort.cpp.
#include <algorithm>

#include "meso/cuda/check.hpp"
#include "mpcd/mpcd_kernels.cuh"
#include "core/sort_permute.cuh"

namespace meso::cuda {
namespace {

// The slots past the device's count (a bound n, MpcdView::live) take the
// key one past the last cell: the stable sort leaves them at the end.
template <class S4>
__global__ void mpcd_sort_keys_kernel(MpcdView<S4> p, physics::MpcdGrid grid, unsigned long long* __restrict__ keys,
                                      uint32_t* __restrict__ vals) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  keys[i] = i < solvent_count(p) ? grid.cell_of(xyz(ldg4(p.pos + i)), Vec3d{0.0, 0.0, 0.0}) : grid.ncells();
  vals[i] = i;
}

// The pool's layout: [keys 0 | keys 1] (also the gather buffer), vals 0,
// vals 1, CUB's scratch.
struct SortLayout {
  std::size_t keys_half, keys_region, vals, temp;
  SortLayout(uint32_t n, std::size_t record) {
    keys_half = align256(std::size_t(n) * sizeof(unsigned long long));
    keys_region = std::max(2 * keys_half, align256(std::size_t(n) * record));
    vals = align256(std::size_t(n) * sizeof(uint32_t));
    temp = align256(key_sort_temp_bytes(n, true));
  }
  std::size_t total() const { return keys_region + 2 * vals + temp; }
};

// The largest per-particle record the gather moves.
template <class S4>
constexpr std::size_t kRecord = std::max(sizeof(S4), sizeof(Image));

}  // namespace

template <class S4>
std::size_t mpcd_sort_bytes(uint32_t n) {
  return n == 0 ? 0 : SortLayout(n, kRecord<S4>).total();
}

template <class S4>
void mpcd_sort(MpcdView<S4> p, const physics::MpcdGrid& grid, unsigned char* scratch,
               cudaStream_t s) {
  const uint32_t n = p.n;
  if (n == 0) return;
  const SortLayout L(n, kRecord<S4>);
  unsigned char* const gather = scratch;
  KeySort ks;
  ks.keys[0] = reinterpret_cast<unsigned long long*>(scratch);
  ks.keys[1] = reinterpret_cast<unsigned long long*>(scratch + L.keys_half);
  ks.vals[0] = reinterpret_cast<uint32_t*>(scratch + L.keys_region);
  ks.vals[1] = reinterpret_cast<uint32_t*>(scratch + L.keys_region + L.vals);
  ks.temp = scratch + L.keys_region + 2 * L.vals;
  ks.temp_bytes = L.temp;
  ks.overwrite = true;
  mpcd_sort_keys_kernel<S4><<<(n + 255) / 256, 256, 0, s>>>(p, grid, ks.keys[0], ks.vals[0]);
  MESO_CUDA_CHECK(cudaGetLastError());
  const uint32_t* perm = sort_pairs(ks, n, bits_for(grid.ncells() + (p.live ? 1u : 0u)), s);
  // The keys are spent: their buffers take the gathers (perm is in a value buffer).
  permute(p.pos, perm, gather, n, s);
  permute(p.vel, perm, gather, n, s);
  permute(p.tag, perm, gather, n, s);
  permute(p.image, perm, gather, n, s);
}

template std::size_t mpcd_sort_bytes<Double4>(uint32_t);
template std::size_t mpcd_sort_bytes<float4>(uint32_t);
template void mpcd_sort<Double4>(MpcdView<Double4>, const physics::MpcdGrid&, unsigned char*,
                                 cudaStream_t);
template void mpcd_sort<float4>(MpcdView<float4>, const physics::MpcdGrid&, unsigned char*,
                                cudaStream_t);

}  // namespace meso::cuda
