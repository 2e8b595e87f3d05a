// The structure of an assembling soft Janus system (meso/physics/janus.hpp),
// for the janus-assembly gate and `mesobench janus-structure`:
//   - the nematic order S of the patch axes (the largest eigenvalue of
//     Q = <3/2 n n - 1/2 I>) and its director: 0 for random axes (to
//     O(N^-1/2)), 1 when every axis is parallel or antiparallel; and the
//     local order, P2(n_i . n_j) = (3 (n_i . n_j)^2 - 1) / 2 over the
//     neighbour pairs: also 0 for random axes, near 1 inside each grain of
//     a system that ordered into grains of different directors, where S
//     averages the grains' directors away;
//   - the neighbour pairs (r < r_c) and, among them, the facing fraction:
//     both patches towards the partner (the patch factor f > 0). Random axes
//     face with probability p^2, p = 1 - cos(theta_m) for a triblock (two
//     caps; (1 - cos(theta_m)) / 2 for a diblock): 0.333 at 65 degrees;
//   - patch bonds: facing pairs with f^nu > 1/2, half the full attraction or
//     more; their count per particle as a histogram, and the clusters of
//     particles they join (union-find), by size.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/core/particle_data.hpp"
#include "meso/physics/janus.hpp"

namespace meso {

struct JanusAssembly {
  uint64_t n = 0;
  double order = 0.0;        // nematic S of the patch axes
  double local_order = 0.0;  // <P2(n_i . n_j)> over neighbour pairs
  Vec3d director{0, 0, 1};   // its eigenvector
  double neighbours = 0.0;   // pairs within r_c per particle (each pair counted for both)
  double facing = 0.0;       // fraction of those pairs with both patches facing
  double facing_chance = 0.0;  // the same for random axes, p^2
  double bonds = 0.0;        // patch bonds per particle
  std::vector<uint64_t> bond_histogram;  // particles with 0, 1, ... bonds (the last bin: that many or more)
  uint64_t clusters = 0;     // clusters of two or more bonded particles
  uint64_t largest = 0;      // particles in the largest
  uint64_t unbonded = 0;     // particles without a bond
  double mean_cluster = 0.0; // particles per cluster of two or more
};

// p^2: the facing fraction of random axes.
double janus_facing_chance(const physics::JanusParams& jp);

// Over particles of any count: pairs by a cell list of side >= r_c.
JanusAssembly analyse_janus_assembly(const Box& box, const ParticleData<double>& p, const physics::JanusParams& jp);

}  // namespace meso
