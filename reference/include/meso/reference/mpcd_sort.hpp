// Reference MPCD sort (operation "mpcd/sort", variant reorder=cell with
// sort=N; HOOMD-blue's mpcd::Sorter): the solvent into the order of the
// unshifted cell grid, so that a cell's particles are near in memory for the
// cell-property and collision passes. Tags, types and images travel along.
// The trajectory does not change: the reference sums cells in tag order
// (mpcd_collide.hpp).
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuMpcd;
template <class Real>
struct CpuContext;

// Bins s.cells on the unshifted grid and permutes every per-particle array
// into cell order (within a cell, ascending tag). Leaves s.cells describing
// the new order.
template <class Real>
void mpcd_sort(CpuMpcd<Real>& s);

// The "mpcd/sort" operation.
template <class Real>
std::unique_ptr<Operation> make_mpcd_sort(CpuContext<Real>& c);

}  // namespace meso::reference
