// The threads-per-particle switch of the variant axis tpp, written once: the
// run-time tpp of a launch picks the kernel instantiated for it (LJ forces,
// nlist=atomic). TPP adjacent lanes of a warp share a particle, so TPP is a
// power of two up to 32 (it divides the warp and the block).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace meso::cuda {

// Calls f(std::integral_constant<uint32_t, TPP>{}) for tpp = TPP in
// {1, 2, 4, 8, 16, 32}; throws std::invalid_argument naming `who` and the
// value otherwise.
template <class F>
void dispatch_tpp(uint32_t tpp, const char* who, F&& f) {
  switch (tpp) {
    case 1: f(std::integral_constant<uint32_t, 1>{}); break;
    case 2: f(std::integral_constant<uint32_t, 2>{}); break;
    case 4: f(std::integral_constant<uint32_t, 4>{}); break;
    case 8: f(std::integral_constant<uint32_t, 8>{}); break;
    case 16: f(std::integral_constant<uint32_t, 16>{}); break;
    case 32: f(std::integral_constant<uint32_t, 32>{}); break;
    default:
      throw std::invalid_argument(std::string(who) + ": tpp must be 1, 2, 4, 8, 16 or 32, not " +
                                  std::to_string(tpp));
  }
}

}  // namespace meso::cuda
