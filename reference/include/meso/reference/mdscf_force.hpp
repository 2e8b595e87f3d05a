// Reference MD-SCF field force: the "field/mdscf" operation
// (src/mdscf_force.cpp), the method of meso/core/mdscf_field.hpp evaluated with
// the shared pieces of meso/physics/mdscf.hpp, in double, serially (the
// density scatter in particle storage order; the grids are small).
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

// A MdscfFieldOp (meso/ops/field.hpp) adding -grad V_K to the net force.
template <class Real>
std::unique_ptr<Operation> make_mdscf_force(CpuContext<Real>& c);

}  // namespace meso::reference
