// Runs one validation case by name on the CPU reference backend through the
// same code path as `mesobench validate` (short form unless told otherwise).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "meso/reference/cpu_backend.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::test_support {

inline validation::Result run_validation_case(const std::string& name) {
  BackendRegistry reg;
  reference::register_cpu_backend(reg);
  validation::Context ctx;
  ctx.registry = &reg;
  ctx.backend = "cpu";
  for (const auto& c : validation::all_cases())
    if (c.name == name) return c.run(ctx);
  ADD_FAILURE() << "no validation case " << name;
  return {};
}

}  // namespace meso::test_support
