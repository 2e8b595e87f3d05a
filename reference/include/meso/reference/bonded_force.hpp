// Reference bonded forces: the "bonded" operation (src/bonded_force.cpp),
// harmonic and FENE(+WCA) bonds and harmonic angles of the System's topology
// (meso/core/topology.hpp), evaluated by the shared evaluators of
// meso/physics/bonded.hpp.
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

// A ForceOp that adds the bonded forces to the net force of every local
// particle (it writes the net force only when it is the plan's first force).
// Throws InputError naming the tags, r and R0 when a FENE bond is stretched
// to r >= R0.
template <class Real>
std::unique_ptr<Operation> make_bonded_force(CpuContext<Real>& c);

}  // namespace meso::reference
