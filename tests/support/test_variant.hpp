// MESO_TEST_VARIANT: variant axes laid over every CUDA variant the GPU tests
// make (their registries apply it), so that a whole test binary can run one
// way: MESO_TEST_VARIANT=graphs=off under compute-sanitizer's racecheck,
// which cannot follow CUDA graphs. A test harness setting, never the
// benchmark's: runs name their axes in --variant (docs/testing.md).
#pragma once

#include <cstdlib>

#include "meso/run/variant.hpp"

namespace meso::test {

inline Variant with_test_axes(const Variant& v) {
  const char* axes = std::getenv("MESO_TEST_VARIANT");
  return axes && *axes ? Variant::parse(axes, v) : v;
}

}  // namespace meso::test
