// Reference reordering (variant reorder=cell, every `sort` steps at a
// rebuild): particles are put in cell-list order so that neighbors are near
// in memory; at large N the force loop is otherwise bound by cache misses on
// randomly ordered positions. Tags travel with the particles.
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuContext;

// Builds the context's cell list and permutes every per-particle array (and
// the Groot-Warren prediction) into its order.
template <class Real>
void sort_by_cell(CpuContext<Real>& c);

// The "reorder" operation (sort_by_cell).
template <class Real>
std::unique_ptr<Operation> make_reorder(CpuContext<Real>& c);

}  // namespace meso::reference
