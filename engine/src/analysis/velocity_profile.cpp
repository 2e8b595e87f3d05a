#include "meso/analysis/velocity_profile.hpp"

#include <cmath>
#include <limits>

#include "meso/core/error.hpp"
#include "meso/core/mpcd.hpp"

namespace meso {

namespace {

double component_of(const Vec3d& v, int c) { return c == 0 ? v.x : (c == 1 ? v.y : v.z); }

}  // namespace

VelocityProfile::VelocityProfile(const Box& box, int axis, int component, uint32_t bins)
    : axis_(axis), component_(component) {
  if (axis < 0 || axis > 2)
    throw_input_error("profile axis = ", axis, " is invalid: it must be 0, 1 or 2 (x, y, z)");
  if (component < 0 || component > 2)
    throw_input_error("profile velocity component = ", component,
                      " is invalid: it must be 0, 1 or 2 (x, y, z)");
  if (bins == 0) throw_input_error("profile bins = 0 is invalid: it must be >= 1");
  const double L = component_of(box.lengths(), axis);
  lo_ = -0.5 * L;
  width_ = L / bins;
  momentum_.assign(bins, 0.0);
  mass_.assign(bins, 0.0);
  count_.assign(bins, 0);
}

template <class MassOf>
void VelocityProfile::accumulate(std::span<const Vec3d> position, std::span<const Vec3d> velocity,
                                 MassOf mass_of) {
  if (velocity.size() != position.size())
    throw_input_error("velocity profile snapshot: ", position.size(), " positions but ", velocity.size(),
                      " velocities");
  const std::size_t n = position.size();
  const uint32_t nb = bins();
  double shift = 0.0;
  if (remove_com_) {
    double mv = 0.0, m = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double mi = mass_of(i);
      mv += mi * component_of(velocity[i], component_);
      m += mi;
    }
    if (m > 0.0) shift = mv / m;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double x = component_of(position[i], axis_);
    // Wrapped positions lie in [-L/2, L/2); the clamp only guards the
    // rounding of (x - lo) / width at the upper edge.
    auto b = static_cast<int64_t>(std::floor((x - lo_) / width_));
    if (b < 0) b = 0;
    if (b >= nb) b = nb - 1;
    const double mi = mass_of(i);
    momentum_[b] += mi * (component_of(velocity[i], component_) - shift);
    mass_[b] += mi;
    ++count_[b];
  }
  ++samples_;
}

void VelocityProfile::add(const ParticleSpans& p) {
  if (p.type.size() != p.position.size())
    throw_input_error("velocity profile snapshot: ", p.position.size(), " positions but ", p.type.size(),
                      " types");
  for (const uint32_t t : p.type)
    if (t >= p.type_mass.size())
      throw_input_error("velocity profile snapshot: particle type ", t, " has no mass (", p.type_mass.size(),
                        " types given)");
  accumulate(p.position, p.velocity, [&](std::size_t i) { return p.type_mass[p.type[i]]; });
}

void VelocityProfile::add(const ParticleData<double>& p, const std::vector<double>& type_mass) {
  const std::size_t n = p.n_local;
  add(ParticleSpans{{p.position.data(), n}, {p.velocity.data(), n}, {p.type.data(), n}, type_mass});
}

void VelocityProfile::add(const MpcdParticles& p, double mass) {
  require_positive("MPCD mass", mass);
  accumulate(p.position, p.velocity, [mass](std::size_t) { return mass; });
}

std::vector<double> VelocityProfile::centers() const {
  std::vector<double> c(bins());
  for (uint32_t b = 0; b < bins(); ++b) c[b] = bin_center(b);
  return c;
}

std::vector<double> VelocityProfile::mean() const {
  std::vector<double> u(bins());
  for (uint32_t b = 0; b < bins(); ++b)
    u[b] = mass_[b] > 0.0 ? momentum_[b] / mass_[b] : std::numeric_limits<double>::quiet_NaN();
  return u;
}

std::vector<double> VelocityProfile::mean_count() const {
  std::vector<double> n(bins(), 0.0);
  if (samples_ == 0) return n;
  for (uint32_t b = 0; b < bins(); ++b) n[b] = static_cast<double>(count_[b]) / samples_;
  return n;
}

void VelocityProfile::reset() {
  momentum_.assign(bins(), 0.0);
  mass_.assign(bins(), 0.0);
  count_.assign(bins(), 0);
  samples_ = 0;
}

void VelocityProfile::merge(const VelocityProfile& o) {
  if (o.bins() != bins() || o.axis_ != axis_ || o.component_ != component_ || o.lo_ != lo_ ||
      o.width_ != width_)
    throw_input_error("cannot merge a velocity profile of ", o.bins(), " bins along axis ", o.axis_,
                      " into one of ", bins(), " bins along axis ", axis_,
                      ": the geometries must be equal");
  for (uint32_t b = 0; b < bins(); ++b) {
    momentum_[b] += o.momentum_[b];
    mass_[b] += o.mass_[b];
    count_[b] += o.count_[b];
  }
  samples_ += o.samples_;
}

WindowedProfiles::WindowedProfiles(const VelocityProfile& prototype,
                                   const std::vector<std::pair<double, double>>& windows,
                                   double run_end) {
  for (const auto& [begin, end] : windows) {
    if (!(end >= begin) || !std::isfinite(begin) || !std::isfinite(end))
      throw_input_error("time window [", begin, ", ", end, "] is invalid: it needs begin <= end");
    if (begin < 0.0 || end > run_end)
      throw_input_error("time window [", begin, ", ", end, "] is invalid: it must lie inside the run [0, ",
                        run_end, "]");
    Window w;
    w.begin = begin;
    w.end = end;
    w.profile = prototype;
    w.profile.reset();
    windows_.push_back(std::move(w));
  }
}

bool WindowedProfiles::wants(double time) const {
  for (const auto& w : windows_)
    if (time >= w.begin && time <= w.end) return true;
  return false;
}

bool WindowedProfiles::sample(double time, const ParticleData<double>& p,
                              const std::vector<double>& type_mass) {
  bool any = false;
  for (auto& w : windows_) {
    if (time < w.begin || time > w.end) continue;
    w.profile.add(p, type_mass);
    any = true;
  }
  return any;
}

}  // namespace meso
