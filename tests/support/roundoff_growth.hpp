// The yardstick of a GPU trajectory against the reference: two reference
// runs whose starts differ by a uniform perturbation of at most 1e-13 a
// coordinate separate by the round-off the dynamics amplify; a GPU run that
// stays within a few times that separation behaves like a round-off
// perturbation of the reference.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "meso/core/box.hpp"
#include "meso/core/particle_data.hpp"
#include "meso/core/system.hpp"

namespace meso::test {

// sys with every position moved by a uniform draw in [-1e-13, 1e-13] a
// coordinate (std::mt19937_64 seeded with `seed`).
inline System perturbed_start(const System& sys, uint64_t seed) {
  System pert = sys;
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1e-13, 1e-13);
  for (auto& r : pert.particles.position) r += Vec3d{u(g), u(g), u(g)};
  return pert;
}

// The largest minimum-image distance between the positions of a and b (the
// same particles in the same order: backends return them by tag).
inline double max_separation(const Box& box, const ParticleData<double>& a, const ParticleData<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    const Vec3d d = box.min_image(a.position[i] - b.position[i]);
    m = std::max(m, std::sqrt(dot(d, d)));
  }
  return m;
}

}  // namespace meso::test
