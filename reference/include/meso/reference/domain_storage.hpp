// The reference's "domain" operation (meso/ops/domain_storage.hpp): ghost
// selection, packing and migration on the host arrays of CpuContext.
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuContext;

template <class Real>
std::unique_ptr<Operation> make_domain_storage(CpuContext<Real>& c);

}  // namespace meso::reference
