// The radix sort of sort_permute.cuh (CUB DeviceRadixSort::SortPairs, stable
// LSD radix sort; Merrill & Grimshaw, onesweep in CUB 1.15+).
#include <cub/device/device_radix_sort.cuh>

#include "core/sort_permute.cuh"

namespace meso::cuda {

size_t key_sort_temp_bytes(uint32_t n, bool overwrite) {
  size_t bytes = 0;
  if (overwrite) {
    cub::DoubleBuffer<unsigned long long> k(nullptr, nullptr);
    cub::DoubleBuffer<uint32_t> v(nullptr, nullptr);
    MESO_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, int(n)));
  } else {
    MESO_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, bytes, static_cast<unsigned long long*>(nullptr),
        static_cast<unsigned long long*>(nullptr), static_cast<uint32_t*>(nullptr),
        static_cast<uint32_t*>(nullptr), int(n)));
  }
  return bytes;
}

const uint32_t* sort_pairs(const KeySort& ks, uint32_t n, int end_bit, cudaStream_t s) {
  size_t bytes = ks.temp_bytes;
  if (!ks.overwrite) {
    MESO_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(ks.temp, bytes, ks.keys[0], ks.keys[1],
                                                    ks.vals[0], ks.vals[1], int(n), 0, end_bit, s));
    return ks.vals[1];
  }
  cub::DoubleBuffer<unsigned long long> k(ks.keys[0], ks.keys[1]);
  cub::DoubleBuffer<uint32_t> v(ks.vals[0], ks.vals[1]);
  MESO_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(ks.temp, bytes, k, v, int(n), 0, end_bit, s));
  return v.Current();  // the selector is set on the host: the number of passes
}

}  // namespace meso::cuda
