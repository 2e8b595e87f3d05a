// Runs one validation case by name through the same code path as `mesobench
// validate` (short form, on the variant given). The gates' short-form tests
// live in their folders under validation/, which include no backend header
// (tests/scripts/include_graph.sh): the backend, the CPU reference, is the
// test program's choice (run_validation_case.cpp).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "meso/validation/validation_case.hpp"

namespace meso::test_support {

// The case's Result; a name no case has is a test failure (and an empty Result).
// `params`: knob overrides, as `mesobench validate --param k=v` (a gate's
// negative controls).
validation::Result run_validation_case(const std::string& name, const Variant& variant = {},
                                       const std::map<std::string, double>& params = {});

// The case's short form under its negative control `control`, with the knobs
// `mesobench validate --control` sets (validation::control_params).
validation::Result run_validation_control(const std::string& name, const std::string& control);

// The backend those cases run on (the CPU reference, double), for a gate's
// test that runs a simulation of its own.
std::unique_ptr<Backend> validation_backend();

}  // namespace meso::test_support
