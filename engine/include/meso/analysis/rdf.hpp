// Radial distribution function g(r) of one configuration from minimum-image
// distances: by cells of edge >= r_max when the box holds 3 a side (O(N);
// an analysis on the host, not a kernel), else all pairs. Normalised by the ideal-gas pair count in each shell, so an
// uncorrelated configuration gives g = 1 within counting noise.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/core/particle_data.hpp"

namespace meso {

struct Rdf {
  std::vector<double> r;  // bin centres
  std::vector<double> g;
  double bin_width = 0.0;
};

// r_max must be <= half the shortest box length (minimum image); bins >= 1.
// With molecule_of_tag (the molecule of each tag), only pairs of different
// molecules count, normalised by the ideal count of such pairs: the
// intermolecular g(r) that IBI fits a non-bonded potential to.
Rdf compute_rdf(const Box& box, const ParticleData<double>& p, double r_max, int bins,
                const std::vector<uint32_t>& molecule_of_tag = {});

// A g(r) from a text file: one bin a line, "r g" (further columns ignored),
// '#' starting a comment. The bins are compute_rdf's: centres (i + 1/2) dr
// from r = 0, so a run's g(r) has the same bins (r_max = the last centre +
// dr / 2). InputError naming the file and line for an unreadable file, a
// line without two numbers, a non-finite or negative g, fewer than 4 bins,
// or centres off that grid by more than 1e-6 dr.
Rdf read_rdf_file(const std::string& path);

}  // namespace meso
