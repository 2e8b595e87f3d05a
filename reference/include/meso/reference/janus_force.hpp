// Reference soft Janus forces and torques: the "pair_force/janus" operation
// (src/md/janus_force.cpp) over the shared evaluator
// (engine/include/meso/physics/janus.hpp).
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuContext;

template <class Real>
std::unique_ptr<Operation> make_janus_force(CpuContext<Real>& c);

}  // namespace meso::reference
