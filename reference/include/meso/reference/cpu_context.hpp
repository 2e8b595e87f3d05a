// The state the CPU reference operations share (OpenMM's platform data): the
// system and run parameters, the particles in the storage precision, the
// Groot-Warren prediction, TEA signatures, the cell list and the neighbor
// list. The CpuBackend owns it; each operation holds a reference to it.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/backend.hpp"
#include "meso/reference/cell_list.hpp"
#include "meso/reference/neighbor_list.hpp"
#include "meso/system.hpp"
#include "meso/variant.hpp"

namespace meso::reference {

template <class Real>
struct CpuContext {
  System sys;
  RunParams params;
  Variant variant;
  ParticleData<Real> p;
  // Velocities the dissipative forces use instead of v (Groot-Warren's
  // prediction); empty when forces read v itself.
  std::vector<Vec3<Real>> v_pred;
  std::vector<uint32_t> signature;  // TEA signatures (rng=tea)
  CellList cells;
  NeighborList nlist;

  // Cell width and list radius: the largest cutoff plus the Verlet skin.
  double r_list() const { return sys.max_rcut() + params.skin; }
};

}  // namespace meso::reference
