// Fixed-order block reductions in fp64, so that sums over particles are the
// same in every run (no atomics in the sums): the energy/virial partials of
// the force kernels (reduce_partials, dpd_force.cu) and the kinetic energy of
// the Nose-Hoover thermostat (integrate_nose_hoover.cu). One algorithm for
// both: each thread sums its values strided by the block size, then a
// shared-memory tree halves from n/2. And last_block, the
// threadFenceReduction pattern that lets the block finishing last of a kernel
// do the second stage itself.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace meso::cuda {

// The tree's first stride: kThreads / 2, a compile-time block size, or
// blockDim.x / 2 read at run time when kThreads is kBlockDim. (Passing
// blockDim.x as an argument instead would lose what nvcc knows of its range
// before inlining and change the shifts of the loop.)
constexpr uint32_t kBlockDim = 0;

// NV values per thread into sh[v][threadIdx.x] (NV shared arrays of at least
// the block size), then summed over the block in a fixed tree order: at each
// level s = n/2, n/4, ..., 1 (n: the block size, a power of two), thread
// t < s adds sh[v][t + s]; the totals are in sh[v][0]. Every thread must
// call it. The halving is a logical shift of the positive s: the same
// loop nvcc made of s >>= 1 when this was written out in each kernel.
template <uint32_t kThreads, uint32_t NV>
__device__ __forceinline__ void block_tree_sum(const double (&val)[NV], double* const (&sh)[NV]) {
#pragma unroll
  for (uint32_t v = 0; v < NV; ++v) sh[v][threadIdx.x] = val[v];
  __syncthreads();
  for (int s = (kThreads == kBlockDim ? blockDim.x : kThreads) / 2; s > 0;
       s = int(uint32_t(s) >> 1)) {
    if (int(threadIdx.x) < s) {
#pragma unroll
      for (uint32_t v = 0; v < NV; ++v) sh[v][threadIdx.x] += sh[v][threadIdx.x + s];
    }
    __syncthreads();
  }
}

// How sum_partials reads the partials: plain loads, or __ldcg (through L2
// only) when they may have been written by other blocks of the same kernel.
enum class PartialsLoad { plain, cache_global };

// The per-block partials (NV interleaved values per block: value v of block b
// at partials[NV b + v]) summed in a fixed order by one block: thread t
// takes blocks t, t + blockDim.x, ... in turn, then block_tree_sum<kThreads>.
// The totals are in sh[v][0]. Every thread must call it.
template <uint32_t kThreads, PartialsLoad L, uint32_t NV>
__device__ __forceinline__ void sum_partials(const double* partials, uint32_t nblocks,
                                             double* const (&sh)[NV]) {
  double acc[NV];
#pragma unroll
  for (uint32_t v = 0; v < NV; ++v) acc[v] = 0.0;
  for (uint32_t b = threadIdx.x; b < nblocks; b += blockDim.x) {
#pragma unroll
    for (uint32_t v = 0; v < NV; ++v) {
      if constexpr (L == PartialsLoad::cache_global) acc[v] += __ldcg(partials + (NV * b + v));
      else acc[v] += partials[NV * b + v];
    }
  }
  block_tree_sum<kThreads>(acc, sh);
}

// True in the one block that finishes last (the CUDA threadFenceReduction
// pattern): every block's global writes before the call are visible to it.
// It resets the counter for the next kernel. Every thread must call it.
// One fence per block, by the thread that counts: the barrier orders the
// block's writes before it, and the fence is cumulative.
__device__ __forceinline__ bool last_block(unsigned int* counter) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) *counter = 0;
  return last;
}

}  // namespace meso::cuda
