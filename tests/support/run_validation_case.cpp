#include "support/run_validation_case.hpp"

#include <gtest/gtest.h>

#include "meso/reference/cpu_backend.hpp"

namespace meso::test_support {

namespace {

validation::Result run(const std::string& name, const Variant& variant, const std::string& control) {
  BackendRegistry reg;
  reference::register_cpu_backend(reg);
  validation::Context ctx;
  ctx.registry = &reg;
  ctx.backend = "cpu";
  ctx.variant = variant;
  ctx.control = control;
  for (const auto& c : validation::all_cases())
    if (c.name == name) {
      if (!control.empty())
        ctx.params = validation::control_params(validation::find_control(c, control), ctx.form, {});
      return c.run(ctx);
    }
  ADD_FAILURE() << "no validation case " << name;
  return {};
}

}  // namespace

validation::Result run_validation_case(const std::string& name, const Variant& variant) {
  return run(name, variant, "");
}

validation::Result run_validation_control(const std::string& name, const std::string& control) {
  return run(name, {}, control);
}

}  // namespace meso::test_support
