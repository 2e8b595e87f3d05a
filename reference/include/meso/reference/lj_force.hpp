// Reference Lennard-Jones forces: one pass per particle over its full
// neighbor list, calling the shared evaluator (engine/physics/lj_force.hpp).
// As for DPD, each pair is evaluated from both sides with bitwise opposite
// separations, so F_ji == -F_ij exactly and the loop needs no atomics: the
// result is deterministic under OpenMP and independent of when the list was
// rebuilt (pairs beyond r_cut are skipped, the others summed in index order).
//
// Arithmetic precision follows the storage: double storage evaluates and
// accumulates in double; float storage (precision=single) separates in
// double, rounds r_ij to float once, then evaluates and accumulates each
// particle's force in float, like a single-precision MD code (HOOMD-blue's
// CPU-SP build). Energy and virial sums are always accumulated in double.
#pragma once

#include <cstddef>
#include <cstdint>

#include "meso/reference/neighbor_list.hpp"
#include "meso/system.hpp"
#include "meso/thermo.hpp"

namespace meso::reference {

template <class Real>
PairSums compute_lj_forces(const System& sys, const Vec3<Real>* pos, const uint32_t* type,
                           std::size_t n, const NeighborList& nlist, bool want_sums,
                           Vec3<Real>* force);

}  // namespace meso::reference
