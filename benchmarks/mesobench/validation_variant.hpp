// The variant a validation case runs on a backend (docs/testing.md,
// "Precision is what ran"): on a GPU its workload's default, as `mesobench
// run` would run a benchmark of that workload, so that a gate vouches for
// what a user runs; on the CPU the reference in Variant{}.
#pragma once

#include <string>

#include "meso/validation/validation_case.hpp"
#include "variant_defaults.hpp"

namespace meso::bench {

// The variant case `c` runs on `backend` when --variant says `given`:
// - on "cpu", Variant::parse(given), its `base` empty. CI's short forms run
//   the reference in Variant{}: every gate's committed CPU trajectory and
//   tolerance was stated for it (the CPU default's cell order would change
//   them all);
// - elsewhere, resolve_variant(c.workload, backend, given) with the case's
//   gpu_axes laid over the default before the axes of `given` (a precision
//   named in `given` picks that precision's default); for kNoWorkload,
//   Variant::parse(given).
// A workload that is not registered is a programming error (std::logic_error):
// resolve_variant would run Variant{} for it unnoticed. A bad `given` is an
// InputError, as Variant::parse throws.
ResolvedVariant validation_variant(const validation::Case& c, const std::string& backend,
                                   const std::string& given);

}  // namespace meso::bench
