// The neighbor list of a simulation by tag, through the test-only probe
// (meso/testing/neighbor_list_probe.hpp) that every backend's neighbor-list
// operation implements.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "meso/run/simulation.hpp"
#include "meso/testing/neighbor_list_probe.hpp"

namespace meso::testing {

inline const NeighborListProbe& probe(const Simulation& s) {
  const auto* p = dynamic_cast<const NeighborListProbe*>(&s.plan().nlist());
  if (!p) throw std::logic_error("the neighbor-list operation implements no NeighborListProbe");
  return *p;
}

inline std::vector<std::vector<uint32_t>> neighbors_by_tag(const Simulation& s) {
  return probe(s).neighbors_by_tag();
}

}  // namespace meso::testing
