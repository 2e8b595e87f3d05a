#include "meso/rdf.hpp"

#include <cmath>
#include <numbers>

#include "meso/error.hpp"

namespace meso {

Rdf compute_rdf(const Box& box, const ParticleData<double>& p, double r_max, int bins) {
  require_positive("g(r) r_max", r_max);
  if (bins < 1) throw_input_error("g(r) bins = ", bins, " is invalid: it must be >= 1");
  if (r_max > 0.5 * box.min_length())
    throw_input_error("g(r) r_max = ", r_max, " is invalid: it must be <= half the box, ",
                      0.5 * box.min_length());
  const std::size_t n = p.n_local;
  Rdf out;
  out.bin_width = r_max / bins;
  std::vector<double> count(static_cast<std::size_t>(bins), 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const Vec3d d = box.min_image(p.position[i] - p.position[j]);
      const double r = std::sqrt(dot(d, d));
      if (r < r_max) count[static_cast<std::size_t>(r / out.bin_width)] += 1.0;
    }
  // Ideal pairs in a shell: N (N - 1) / 2 * shell volume / V.
  const double pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n > 0 ? n - 1 : 0);
  for (int b = 0; b < bins; ++b) {
    const double lo = b * out.bin_width, hi = lo + out.bin_width;
    const double shell = 4.0 / 3.0 * std::numbers::pi * (hi * hi * hi - lo * lo * lo);
    out.r.push_back(lo + 0.5 * out.bin_width);
    out.g.push_back(pairs > 0 ? count[b] / (pairs * shell / box.volume()) : 0.0);
  }
  return out;
}

}  // namespace meso
