// Shared by the CUDA backend tests: a fresh seed per run (printed through
// SCOPED_TRACE by the callers, so a failure can be replayed), a registry with
// both backends (MESO_TEST_VARIANT laid over the CUDA variants), the
// neighbor-list probe of a simulation, and the clean skip when no device is
// present.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <utility>

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

// The largest difference of position and velocity components of two
// states by tag (a run on either backend against the other).
inline double max_state_difference(const ParticleData<double>& a, const ParticleData<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    const Vec3d dr = a.position[i] - b.position[i], dv = a.velocity[i] - b.velocity[i];
    d = std::max({d, std::fabs(dr.x), std::fabs(dr.y), std::fabs(dr.z), std::fabs(dv.x), std::fabs(dv.y),
                  std::fabs(dv.z)});
  }
  return d;
}

// A run on the cuda backend against the CPU reference: its variant, the
// integrator, the steps (dt = 0.01) and the largest state difference allowed.
struct ReferenceCase {
  const char* variant;
  Integrator integrator;
  uint64_t steps;
  double tolerance;
};

// sys advanced c.steps steps on the CPU reference (Variant{}) and on the
// cuda backend with c.variant, the pair noise keyed by seed; expects the two
// states within c.tolerance and returns them (the reference's first).
inline std::pair<ParticleData<double>, ParticleData<double>> run_against_reference(
    const BackendRegistry& reg, const System& sys, const ReferenceCase& c, uint64_t seed) {
  RunParams rp;
  rp.dt = 0.01;
  rp.integrator = c.integrator;
  rp.seed = uint32_t(seed);
  Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
  Simulation gpu(reg.create("cuda", Variant::parse(c.variant)), sys, rp);
  cpu.run(c.steps);
  gpu.run(c.steps);
  std::pair<ParticleData<double>, ParticleData<double>> out{cpu.particles(), gpu.particles()};
  EXPECT_EQ(out.first.n_local, out.second.n_local);
  if (out.first.n_local == out.second.n_local) {
    EXPECT_LT(max_state_difference(out.first, out.second), c.tolerance);
  }
  return out;
}

// The test probe of a simulation's neighbor list (both backends' lists
// implement it); throws std::bad_cast for a list without one.
inline const meso::testing::NeighborListProbe& probe(const Simulation& s) {
  return dynamic_cast<const meso::testing::NeighborListProbe&>(s.plan().nlist());
}

}  // namespace meso::test
