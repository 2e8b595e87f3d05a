// The sort-and-gather machinery of every reordering, written once: a stable
// CUB radix sort of (64-bit key, 32-bit index) pairs gives the permutation,
// then a gather per array moves the data (Tang & Karniadakis 2014, sec. 3.4;
// HOOMD-blue's SFCPackTuner and MPCD Sorter do the same). Used by the MD
// reorder (reorder.cu) and the MPCD solvent's cell-order sort (mpcd_sort.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "meso/cuda/check.hpp"

namespace meso::cuda {

// Bits needed for the values 0 .. n - 1 (at least 1): the radix sort's end_bit.
__host__ __device__ inline int bits_for(uint32_t n) {
  int b = 1;
  while ((1u << b) < n) ++b;
  return b;
}

// The pairs to sort: keys[0], vals[0] on entry. Two modes:
// - copy (overwrite = false): the sorted values land in vals[1]; CUB's
//   scratch holds its own ping-pong copies (about 12 bytes a particle).
// - overwrite (cub::DoubleBuffer): the sort ping-pongs between [0] and [1]
//   and returns whichever holds the result; its scratch is only CUB's
//   histograms, so the memory a caller must hold is the two pairs of
//   buffers (the MPCD solvent's budget depends on it).
struct KeySort {
  unsigned long long* keys[2];
  uint32_t* vals[2];
  void* temp;
  size_t temp_bytes;
  bool overwrite;
};

// CUB's scratch for n pairs in the given mode.
size_t key_sort_temp_bytes(uint32_t n, bool overwrite);
// Sorts stably on bits [0, end_bit); returns the sorted values: slot k of
// the new order takes the old element perm[k].
const uint32_t* sort_pairs(const KeySort& ks, uint32_t n, int end_bit, cudaStream_t s);

template <class T>
__global__ void gather_kernel(const T* __restrict__ src, const uint32_t* __restrict__ perm,
                              uint32_t n, T* __restrict__ dst) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) dst[k] = src[perm[k]];
}

// a[k] = a_old[perm[k]] through `gather` (n * sizeof(T) bytes, not
// overlapping a or perm); a null `a` is skipped (arrays a run does not hold).
template <class T>
void permute(T* a, const uint32_t* perm, void* gather, uint32_t n, cudaStream_t s) {
  if (!a || n == 0) return;
  T* tmp = static_cast<T*>(gather);
  gather_kernel<T><<<(n + 255) / 256, 256, 0, s>>>(a, perm, n, tmp);
  MESO_CUDA_CHECK(cudaGetLastError());
  MESO_CUDA_CHECK(cudaMemcpyAsync(a, tmp, size_t(n) * sizeof(T), cudaMemcpyDeviceToDevice, s));
}

}  // namespace meso::cuda
