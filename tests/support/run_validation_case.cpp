#include "support/run_validation_case.hpp"

#include <gtest/gtest.h>

#include "meso/reference/cpu_backend.hpp"

namespace meso::test_support {

validation::Result run_validation_case(const std::string& name, const Variant& variant,
                                       const std::map<std::string, double>& params) {
  BackendRegistry reg;
  reference::register_cpu_backend(reg);
  validation::Context ctx;
  ctx.registry = &reg;
  ctx.backend = "cpu";
  ctx.variant = variant;
  ctx.params = params;
  for (const auto& c : validation::all_cases())
    if (c.name == name) return c.run(ctx);
  ADD_FAILURE() << "no validation case " << name;
  return {};
}

}  // namespace meso::test_support
