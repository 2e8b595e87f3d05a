// Reference Gay-Berne forces and torques: the "pair_force/gay_berne"
// operation (src/md/gay_berne_force.cpp) over the shared evaluator
// (engine/include/meso/physics/gay_berne.hpp).
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuContext;

template <class Real>
std::unique_ptr<Operation> make_gay_berne_force(CpuContext<Real>& c);

}  // namespace meso::reference
