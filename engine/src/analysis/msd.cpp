#include "meso/analysis/msd.hpp"

#include <stdexcept>

namespace meso {

MsdTracker::MsdTracker(const Box& box, const ParticleData<double>& reference) : box_(box) {
  origin_.resize(reference.n_local);
  for (std::size_t i = 0; i < reference.n_local; ++i)
    origin_[i] = box_.unwrap(reference.position[i], reference.image[i]);
}

double MsdTracker::operator()(const ParticleData<double>& now) const {
  if (now.n_local != origin_.size()) throw std::invalid_argument("MsdTracker: particle count changed");
  if (origin_.empty()) return 0.0;
  double sum = 0.0;
  for (std::size_t i = 0; i < origin_.size(); ++i) {
    const Vec3d d = box_.unwrap(now.position[i], now.image[i]) - origin_[i];
    sum += dot(d, d);
  }
  return sum / static_cast<double>(origin_.size());
}

}  // namespace meso
