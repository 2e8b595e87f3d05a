// Test and diagnostic access to a neighbor list, kept out of the production
// interfaces (NeighborListOp): the neighbor-list operations of both backends
// also implement it, and tests reach it with dynamic_cast from the plan's
// NeighborListOp. Nothing outside tests/ and diagnostics includes it.
#pragma once

#include <cstdint>
#include <vector>

namespace meso::testing {

class NeighborListProbe {
 public:
  virtual ~NeighborListProbe() = default;
  // Neighbors (full list, by tag, sorted) of every particle, indexed by tag;
  // for single-rank systems whose tags are 0..N-1.
  virtual std::vector<std::vector<uint32_t>> neighbors_by_tag() const = 0;
  // Rows as stored: particle indices, in the storage order of particles and
  // of entries (for tests of a list's ordering).
  virtual std::vector<std::vector<uint32_t>> rows() const = 0;
};

}  // namespace meso::testing
