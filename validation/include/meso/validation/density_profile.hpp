// Number-density profiles along the normal of a bilayer (dppc-density):
// per bead type, histograms of z relative to the bilayer's centre, averaged
// over samples, with block errors; and the profile analyses the gates use
// (peak position by a parabola through the highest bin and its neighbours,
// slab averages, the mirror image).
#pragma once

#include <cstdint>
#include <vector>

#include "meso/core/particle_data.hpp"

namespace meso::validation {

class DensityProfile {
 public:
  // nbins over the box length lz (bin width lz / nbins), ntypes types;
  // `area` = lx ly turns counts into number densities.
  DensityProfile(uint32_t ntypes, uint32_t nbins, double lz, double area);

  // One sample: z of every particle relative to the centre (the circular
  // mean of the z of the particles whose type is in `centre_types`), wrapped
  // to [-lz/2, lz/2), histogrammed by type.
  void add(const ParticleData<double>& p, const std::vector<uint32_t>& centre_types);

  uint32_t nbins() const { return nbins_; }
  double bin_width() const { return lz_ / nbins_; }
  double bin_centre(uint32_t b) const { return -0.5 * lz_ + (b + 0.5) * bin_width(); }
  std::size_t samples() const { return samples_.size(); }
  // Mean density of type t per bin over samples [first, last).
  std::vector<double> mean(uint32_t type, std::size_t first, std::size_t last) const;
  std::vector<double> mean(uint32_t type) const { return mean(type, 0, samples()); }

 private:
  uint32_t ntypes_, nbins_;
  double lz_, area_;
  std::vector<std::vector<float>> samples_;  // per sample: ntypes x nbins densities
};

// The z of the maximum of `profile` over bins whose centres lie in [zlo,
// zhi): the vertex of the parabola through the highest bin and its two
// neighbours (the bin centre when the neighbours are missing or the fit is
// flat).
double parabolic_peak(const std::vector<double>& profile, const DensityProfile& d, double zlo, double zhi);

// Mean of `profile` over the bins whose centres satisfy zlo <= |z| < zhi.
double slab_mean(const std::vector<double>& profile, const DensityProfile& d, double zlo, double zhi);

}  // namespace meso::validation
