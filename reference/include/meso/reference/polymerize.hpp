// Reference chain-growth polymerization: the "polymerize" operation
// (src/md/polymerize.cpp), GALAMOST's stochastic reaction model as
// meso/core/polymerization.hpp states it, with the draws of
// meso/physics/polymerization.hpp.
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

// A PolymerizeOp over the context's particles and topology: new bonds are
// appended to c.sys.topology (the bonded force rebuilds its lists when the
// topology grows), reacted monomers take their new type in c.p.
template <class Real>
std::unique_ptr<Operation> make_polymerize(CpuContext<Real>& c);

}  // namespace meso::reference
