// The default variant of each workload, per backend and precision
// (ARCHITECTURE.md, "Backends and variants": the fastest variant measured on
// the device the committed figures come from, among those that passed every
// gate of the workload's physics). `mesobench run` without
// --variant runs a case with its workload's default for the backend, in the
// workload's default precision; --variant overrides it axis by axis (a given
// precision selects that precision's default first). The table says, for
// every entry, which measurement made it the fastest and which gates ran
// with it (`mesobench list --variants` prints it).
#pragma once

#include <string>
#include <vector>

#include "meso/run/variant.hpp"
#include "workload.hpp"

namespace meso::bench {

// Every entry; a (workload, backend, precision) not listed runs Variant{}
// with that precision.
const std::vector<VariantDefault>& variant_defaults();

// The precision a workload runs in on a backend when --variant names none.
Precision default_precision(const std::string& workload, const std::string& backend);

// The default of (workload, backend, precision) as a variant string.
std::string default_variant_text(const std::string& workload, const std::string& backend,
                                 Precision precision);

struct ResolvedVariant {
  Variant variant;   // what the case runs with
  std::string base;  // the default it started from (default_variant_text)
  std::string given; // the axes --variant named, canonical (empty: none)
};

// The variant of a case of `workload` on `backend`: the default for the
// precision `given` names (else default_precision), then the axes of `given`
// over it. Throws InputError for a bad `given`, as Variant::parse does.
ResolvedVariant resolve_variant(const std::string& workload, const std::string& backend,
                                const std::string& given);

}  // namespace meso::bench
