#include "variant_defaults.hpp"

#include <algorithm>

namespace meso::bench {

// Each workload states its own defaults and the evidence behind them
// (Workload::variant_defaults, in its file under workloads/).
const std::vector<VariantDefault>& variant_defaults() {
  static const std::vector<VariantDefault> table = [] {
    std::vector<VariantDefault> t;
    for (const Workload* w : workloads())
      for (VariantDefault d : w->variant_defaults()) {
        d.workload = w->name();
        t.push_back(std::move(d));
      }
    return t;
  }();
  return table;
}

Precision default_precision(const std::string& workload, const std::string& backend) {
  for (const Workload* w : workloads())
    if (w->name() == workload) return w->default_precision(backend);
  return Variant{}.precision;
}

std::string default_variant_text(const std::string& workload, const std::string& backend,
                                 Precision precision) {
  for (const auto& d : variant_defaults())
    if (d.workload == workload && d.backend == backend && d.precision == precision) return d.variant;
  if (precision == Variant{}.precision) return "";
  return std::string("precision=") + to_string(precision);
}

ResolvedVariant resolve_variant(const std::string& workload, const std::string& backend,
                                const std::string& given) {
  ResolvedVariant r;
  const Variant named = Variant::parse(given);  // validates given
  const std::vector<std::string> axes = Variant::named_axes(given);
  const bool has_precision = std::find(axes.begin(), axes.end(), "precision") != axes.end();
  const Precision p = has_precision ? named.precision : default_precision(workload, backend);
  r.base = default_variant_text(workload, backend, p);
  r.given = named.to_string(axes);
  r.variant = Variant::parse(given, Variant::parse(r.base));
  return r;
}

}  // namespace meso::bench
