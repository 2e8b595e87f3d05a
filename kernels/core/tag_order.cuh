// The permutation that lists particles in tag order, for copying device
// state out the way every backend returns it (get_particles, get_mpcd):
// whatever order the device keeps, results compare tag by tag; and the copy
// out that the MD particles and the solvent share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "core/device_views.cuh"
#include "meso/cuda/check.hpp"
#include "meso/cuda/device_buffer.hpp"

namespace meso::cuda {

inline std::vector<uint32_t> tag_order(const std::vector<uint32_t>& tags) {
  std::vector<uint32_t> by_tag(tags.size());
  std::iota(by_tag.begin(), by_tag.end(), 0u);
  std::sort(by_tag.begin(), by_tag.end(), [&](uint32_t a, uint32_t b) { return tags[a] < tags[b]; });
  return by_tag;
}

// The first n elements of a device buffer, copied to the host (the caller
// has synchronised the stream that wrote them).
template <class T>
std::vector<T> to_host(const DeviceBuffer<T>& d, std::size_t n) {
  std::vector<T> h(n);
  if (n > 0) MESO_CUDA_CHECK(cudaMemcpy(h.data(), d.data(), n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// Copies n particles' position, type (the w of the position), velocity, tag
// and image out of device buffers into `out` (ParticleData or MpcdParticles,
// resized to n) in tag order; returns the tag order, for the arrays only one
// of them has.
template <class S4, class Out>
std::vector<uint32_t> copy_out_by_tag(const DeviceBuffer<S4>& pos, const DeviceBuffer<S4>& vel,
                                      const DeviceBuffer<uint32_t>& tag, const DeviceBuffer<Image>& image,
                                      uint32_t n, Out& out) {
  const std::vector<S4> hp = to_host(pos, n), hv = to_host(vel, n);
  const std::vector<uint32_t> ht = to_host(tag, n);
  const std::vector<Image> hi = to_host(image, n);
  std::vector<uint32_t> by_tag = tag_order(ht);
  out.resize(n);
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = by_tag[k];
    out.position[k] = xyz(hp[i]);
    out.velocity[k] = xyz(hv[i]);
    out.type[k] = type_of(hp[i]);
    out.tag[k] = ht[i];
    out.image[k] = hi[i];
  }
  return by_tag;
}

}  // namespace meso::cuda
