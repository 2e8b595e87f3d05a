// Shared by the CUDA backend tests: a fresh seed per run (printed through
// SCOPED_TRACE by the callers, so a failure can be replayed), a registry with
// both backends (MESO_TEST_VARIANT laid over the CUDA variants), the
// neighbor-list probe of a simulation, and the clean skip when no device is
// present.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>

#include "meso/cuda/cuda_backend.hpp"
#include "meso/cuda/device_info.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/testing/neighbor_list_probe.hpp"
#include "support/test_variant.hpp"

#define REQUIRE_GPU() \
  if (::meso::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device"

namespace meso::test {

// A fresh seed per run (the tests draw new configurations each time), or
// MESO_TEST_SEED to replay the seed a failing run printed.
inline uint64_t fresh_seed() {
  if (const char* s = std::getenv("MESO_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  return (uint64_t(std::random_device{}()) << 20) ^ std::random_device{}();
}

// The CUDA backend's variants pass through with_test_axes (MESO_TEST_VARIANT).
inline BackendRegistry make_registry() {
  BackendRegistry r;
  reference::register_cpu_backend(r);
  auto cuda = std::make_shared<BackendRegistry>();
  cuda::register_cuda_backend(*cuda);
  r.add(
      "cuda", [cuda](const Variant& v) { return cuda->create("cuda", with_test_axes(v)); },
      [cuda] { return cuda->usable("cuda"); });
  return r;
}

// The test probe of a simulation's neighbor list (both backends' lists
// implement it); throws std::bad_cast for a list without one.
inline const meso::testing::NeighborListProbe& probe(const Simulation& s) {
  return dynamic_cast<const meso::testing::NeighborListProbe&>(s.plan().nlist());
}

}  // namespace meso::test
