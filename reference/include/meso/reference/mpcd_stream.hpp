// Reference MPCD streaming (operation "mpcd/stream"; HOOMD-blue's
// mpcd::ConstantForce bulk streaming): ballistic motion over one collision
// period, with the solvent's constant body force if it has one.
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuMpcd;
template <class Real>
struct CpuContext;

// r += v dt + g dt^2 / 2, v += g dt, g = BodyForce::force(r, type, m) / m at
// the position before streaming (exact for a uniform g; for the reverse
// force the sign is that of the half the particle started in), then wrapped
// into the box with image counts.
template <class Real>
void mpcd_stream(CpuMpcd<Real>& s);

// The "mpcd/stream" operation.
template <class Real>
std::unique_ptr<Operation> make_mpcd_stream(CpuContext<Real>& c);

}  // namespace meso::reference
