// The reference's "mpcd/domain" operation (meso/ops/mpcd.hpp): the
// solvent's leavers selected and packed along one axis, arrivals appended,
// on the host arrays of CpuMpcd.
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuContext;

template <class Real>
std::unique_ptr<Operation> make_mpcd_domain(CpuContext<Real>& c);

}  // namespace meso::reference
