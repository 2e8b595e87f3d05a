// Radial distribution function g(r) of one configuration by all-pairs
// minimum-image distances (O(N^2): an analysis tool for N up to ~10^4, not a
// kernel). Normalised by the ideal-gas pair count in each shell, so an
// uncorrelated configuration gives g = 1 within counting noise.
#pragma once

#include <vector>

#include "meso/box.hpp"
#include "meso/particle_data.hpp"

namespace meso {

struct Rdf {
  std::vector<double> r;  // bin centres
  std::vector<double> g;
  double bin_width = 0.0;
};

// r_max must be <= half the shortest box length (minimum image); bins >= 1.
Rdf compute_rdf(const Box& box, const ParticleData<double>& p, double r_max, int bins);

}  // namespace meso
