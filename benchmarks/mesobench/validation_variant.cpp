#include "validation_variant.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "workload.hpp"

namespace meso::bench {

ResolvedVariant validation_variant(const validation::Case& c, const std::string& backend,
                                   const std::string& given) {
  const bool none = c.workload == validation::kNoWorkload;
  const auto& all = workloads();
  if (!none && std::none_of(all.begin(), all.end(), [&](const Workload* w) { return w->name() == c.workload; }))
    throw std::logic_error("validation case '" + c.name + "' names workload '" + c.workload +
                           "', which is not registered (`mesobench list`)");
  if (backend == "cpu" || none) {
    ResolvedVariant r;
    r.variant = Variant::parse(given);
    r.given = r.variant.to_string(Variant::named_axes(given));
    return r;
  }
  ResolvedVariant r = resolve_variant(c.workload, backend, given);
  if (c.gpu_axes.empty()) return r;
  // The case's needs over the workload's default, then the given axes.
  const Variant base = Variant::parse(c.gpu_axes, Variant::parse(r.base));
  std::vector<std::string> axes = Variant::named_axes(r.base);
  for (const auto& a : Variant::named_axes(c.gpu_axes)) axes.push_back(a);
  r.base = base.to_string(axes);
  r.variant = Variant::parse(given, base);
  return r;
}

}  // namespace meso::bench
