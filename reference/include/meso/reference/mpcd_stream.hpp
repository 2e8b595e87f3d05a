// Reference MPCD streaming (operation "mpcd/stream"; HOOMD-blue's
// mpcd::ConstantForce bulk streaming): ballistic motion over one collision
// period, with the solvent's constant body force if it has one.
#pragma once

#include <cstdint>
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
// into the box with image counts. With Lees-Edwards shear (params.shear) a
// particle that crosses a z face takes the sheared image's offset and
// velocity at the end of the period, the time of the collision numbered
// `collision` (1, 2, ...: required with shear, unused without).
template <class Real>
void mpcd_stream(CpuMpcd<Real>& s, uint64_t collision = 0);

// The "mpcd/stream" operation.
template <class Real>
std::unique_ptr<Operation> make_mpcd_stream(CpuContext<Real>& c);

}  // namespace meso::reference
