// The permutation that lists particles in tag order, for copying device
// state out the way every backend returns it (get_particles, get_mpcd):
// whatever order the device keeps, results compare tag by tag.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace meso::cuda {

inline std::vector<uint32_t> tag_order(const std::vector<uint32_t>& tags) {
  std::vector<uint32_t> by_tag(tags.size());
  std::iota(by_tag.begin(), by_tag.end(), 0u);
  std::sort(by_tag.begin(), by_tag.end(), [&](uint32_t a, uint32_t b) { return tags[a] < tags[b]; });
  return by_tag;
}

}  // namespace meso::cuda
