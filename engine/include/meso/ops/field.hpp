// The MD-SCF field force ("field/mdscf"; meso/core/mdscf_field.hpp has the
// method): a ForceOp that also shows its grids, so that tests can compare
// the density, potential and forces of two backends vertex by vertex.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/ops/force.hpp"

namespace meso {

// The grids of the last field update, in double, x-fastest vertex order
// (physics::GridShape::index), one block of nx*ny*nz per present type in
// type order (`types`: the composition list).
struct MdscfSnapshot {
  std::vector<uint32_t> types;  // the types with particles, ascending
  std::vector<double> phi;      // rho_K / rho0 by cloud-in-cell, before the filter
  std::vector<double> potential;  // V_K (after the second filter pass, if any)
  uint64_t updates = 0;         // field updates so far
};

class MdscfFieldOp : public ForceOp {
 public:
  // Copies the grids out (waits for a device backend).
  virtual void snapshot(MdscfSnapshot& out) const = 0;
};

}  // namespace meso
