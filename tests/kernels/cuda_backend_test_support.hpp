// Shared by the CUDA DPD backend tests (cuda_backend_test.cpp,
// cuda_dpd_bitwise_test.cpp, cuda_half_list_test.cpp, cuda_prune_test.cpp):
// the heterogeneous two-type DPD fluid they run, and the bitwise comparison
// of two states by tag.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "meso/run/simulation.hpp"

namespace meso::test {

// A heterogeneous two-type DPD fluid (type-pair matrices of a, gamma, r_c,
// s, per-type masses; non-integer s exercises pow), random positions and
// velocities drawn from `seed`. s_min is the smallest weight exponent: with
// s < 1 the weight w_R = (1 - r/r_c)^s has an infinite slope at r_c, so the
// fp32 position rounding of mixed/single is amplified by (1 - r/r_c)^(s-1)
// for pairs near the cutoff. The mixed-precision gate (1e-5) is specified for
// the dpd-fluid workloads (s = 0.5); s = 0.25 (the low end of Tang's DPD pow
// range) measured 0.7e-5 to 1.2e-5 there, so fp32 tests use s_min = 0.5.
inline System two_type_fluid(uint64_t seed, uint64_t n = 6000, double s_min = 0.25) {
  DpdFluidParams fp;
  fp.rho = 3.0;
  fp.n = n;
  fp.s = 1.0;
  fp.seed = seed;
  System sys = make_dpd_fluid(fp);
  sys.type_names = {"A", "B"};
  sys.type_mass = {1.0, 1.5};
  PairTable<physics::DpdPairParams> t(2);
  auto pp = [&](double a, double gamma, double rc, double s) {
    return physics::DpdPairParams{a, gamma, std::sqrt(2.0 * gamma * sys.kT), rc, s};
  };
  t.set(0, 0, pp(25.0, 4.5, 1.0, 1.0));
  t.set(1, 1, pp(30.0, 6.0, 0.9, 0.5));
  t.set(0, 1, pp(40.0, 4.5, 1.0, s_min));
  sys.pair_table<physics::DpdPairParams>() = t;
  std::mt19937_64 g(seed ^ 0x9e3779b97f4a7c15ull);
  for (auto& ty : sys.particles.type) ty = uint32_t(g() & 1u);
  return sys;
}

// Positions, velocities and forces bit for bit the same, by tag (a
// reordering permutes the stored order).
inline bool same_state(const ParticleData<double>& a, const ParticleData<double>& b) {
  std::vector<std::size_t> at(a.n_local);
  for (std::size_t i = 0; i < b.n_local; ++i) at[b.tag[i]] = i;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    const std::size_t j = at[a.tag[i]];
    if (std::memcmp(&a.position[i], &b.position[j], sizeof(Vec3d)) != 0 ||
        std::memcmp(&a.velocity[i], &b.velocity[j], sizeof(Vec3d)) != 0 ||
        std::memcmp(&a.force[i], &b.force[j], sizeof(Vec3d)) != 0)
      return false;
  }
  return true;
}

}  // namespace meso::test
