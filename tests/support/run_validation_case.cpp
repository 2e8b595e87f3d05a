#include "support/run_validation_case.hpp"

#include <gtest/gtest.h>

#include "meso/reference/cpu_backend.hpp"

namespace meso::test_support {

namespace {

validation::Result run(const std::string& name, const Variant& variant, const std::string& control,
                       const std::map<std::string, double>& params) {
  BackendRegistry reg;
  reference::register_cpu_backend(reg);
  validation::Context ctx;
  ctx.registry = &reg;
  ctx.backend = "cpu";
  ctx.variant = variant;
  ctx.control = control;
  ctx.params = params;
  for (const auto& c : validation::all_cases())
    if (c.name == name) {
      if (!control.empty())
        ctx.params = validation::control_params(validation::find_control(c, control), ctx.form, params);
      return c.run(ctx);
    }
  ADD_FAILURE() << "no validation case " << name;
  return {};
}

}  // namespace

validation::Result run_validation_case(const std::string& name, const Variant& variant,
                                       const std::map<std::string, double>& params) {
  return run(name, variant, "", params);
}

validation::Result run_validation_control(const std::string& name, const std::string& control) {
  return run(name, {}, control, {});
}

std::unique_ptr<Backend> validation_backend() {
  return std::make_unique<reference::CpuBackend<double>>(Variant{});
}

}  // namespace meso::test_support
