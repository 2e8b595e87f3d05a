// libFuzzer target: the topology reader (meso/core/topology.hpp) and what a
// system does with a topology it accepted: Topology::validate and the
// per-particle lists. Every input must be read or refused with an
// InputError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "meso/core/error.hpp"
#include "meso/core/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const meso::Topology t = meso::read_topology(in, "fuzz.top");
    for (const uint64_t n : {uint64_t{0}, uint64_t{3}, uint64_t{64}}) {
      try {
        t.validate(n);
        (void)meso::make_bonded_lists(t, n);
      } catch (const meso::InputError&) {
      }
    }
  } catch (const meso::InputError&) {
  }
  return 0;
}
