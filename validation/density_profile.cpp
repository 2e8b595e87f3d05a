#include "meso/validation/density_profile.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace meso::validation {

DensityProfile::DensityProfile(uint32_t ntypes, uint32_t nbins, double lz, double area)
    : ntypes_(ntypes), nbins_(nbins), lz_(lz), area_(area) {
  if (ntypes == 0 || nbins == 0 || !(lz > 0.0) || !(area > 0.0))
    throw std::invalid_argument("DensityProfile: ntypes, nbins, lz and area must be positive");
}

void DensityProfile::add(const ParticleData<double>& p, const std::vector<uint32_t>& centre_types) {
  std::vector<bool> in_centre(ntypes_, false);
  for (uint32_t t : centre_types) in_centre.at(t) = true;
  // The circular mean: the centre of a slab that may straddle the boundary.
  const double q = 2.0 * std::numbers::pi / lz_;
  double s = 0.0, c = 0.0;
  for (std::size_t i = 0; i < p.n_local; ++i)
    if (in_centre[p.type[i]]) {
      s += std::sin(q * p.position[i].z);
      c += std::cos(q * p.position[i].z);
    }
  const double centre = std::atan2(s, c) / q;
  std::vector<float> h(std::size_t(ntypes_) * nbins_, 0.0f);
  const double per = 1.0 / (area_ * bin_width());
  for (std::size_t i = 0; i < p.n_local; ++i) {
    double z = p.position[i].z - centre;
    z -= lz_ * std::floor(z / lz_ + 0.5);  // [-lz/2, lz/2)
    long b = static_cast<long>(std::floor((z + 0.5 * lz_) / bin_width()));
    b = b < 0 ? 0 : (b >= long(nbins_) ? long(nbins_) - 1 : b);
    h[std::size_t(p.type[i]) * nbins_ + std::size_t(b)] += static_cast<float>(per);
  }
  samples_.push_back(std::move(h));
}

std::vector<double> DensityProfile::mean(uint32_t type, std::size_t first, std::size_t last) const {
  std::vector<double> m(nbins_, 0.0);
  if (last <= first) return m;
  for (std::size_t s = first; s < last; ++s)
    for (uint32_t b = 0; b < nbins_; ++b) m[b] += samples_[s][std::size_t(type) * nbins_ + b];
  for (double& x : m) x /= double(last - first);
  return m;
}

double parabolic_peak(const std::vector<double>& f, const DensityProfile& d, double zlo, double zhi) {
  long best = -1;
  for (uint32_t b = 0; b < d.nbins(); ++b) {
    const double z = d.bin_centre(b);
    if (z >= zlo && z < zhi && (best < 0 || f[b] > f[std::size_t(best)])) best = b;
  }
  if (best < 0) throw std::invalid_argument("parabolic_peak: no bin in the range");
  const double z0 = d.bin_centre(uint32_t(best));
  if (best == 0 || best + 1 >= long(d.nbins())) return z0;
  const double fm = f[std::size_t(best - 1)], f0 = f[std::size_t(best)], fp = f[std::size_t(best + 1)];
  const double curv = fm - 2.0 * f0 + fp;
  if (!(curv < 0.0)) return z0;
  return z0 + 0.5 * d.bin_width() * (fm - fp) / curv;
}

double slab_mean(const std::vector<double>& f, const DensityProfile& d, double zlo, double zhi) {
  double sum = 0.0;
  int n = 0;
  for (uint32_t b = 0; b < d.nbins(); ++b) {
    const double z = std::fabs(d.bin_centre(b));
    if (z >= zlo && z < zhi) {
      sum += f[b];
      ++n;
    }
  }
  if (n == 0) throw std::invalid_argument("slab_mean: no bin in the slab");
  return sum / n;
}

}  // namespace meso::validation
