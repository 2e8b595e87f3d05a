// Reference SSD/RF water forces and torques: the "pair_force/ssd"
// operation (src/md/ssd_water_force.cpp) over the shared evaluator
// (engine/include/meso/physics/ssd_water.hpp).
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuContext;

template <class Real>
std::unique_ptr<Operation> make_ssd_water_force(CpuContext<Real>& c);

}  // namespace meso::reference
