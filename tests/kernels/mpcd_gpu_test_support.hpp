// Shared by the CUDA MPCD tests (mpcd_gpu_test.cpp, mpcd_solute_gpu_test.cpp,
// mpcd_wall_gpu_test.cpp): the mixed-precision tolerance, the shuffled
// benchmark solvent, its fp32-rounded state, the velocity and position
// comparisons and the collision rules they run (mpcd_gpu_test.cpp's header
// says why the fp32 state is compared so).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "meso/core/mpcd.hpp"

namespace meso::test {

constexpr double kMixedTol = 1.0 / (1 << 23);  // 2 x the fp32 rounding of a stored component

// The benchmark solvent (make_srd_fluid) with its tags shuffled, so that tag
// order, storage order and cell order all differ.
inline MpcdSystem solvent(uint64_t seed, double L, double rho, MpcdParams prm) {
  prm.seed = uint32_t(seed ^ (seed >> 32));
  SrdFluidParams f;
  f.L = L;
  f.rho = rho;
  f.seed = seed;
  MpcdSystem s = make_srd_fluid(f, prm);
  std::mt19937_64 g(seed + 7);
  std::shuffle(s.particles.tag.begin(), s.particles.tag.end(), g);
  return s;
}

// The state an fp32 backend stores: components rounded to float, positions
// folded back into the box when rounding lands on the upper face (as
// kernels/mpcd/mpcd_context.cuh does).
inline MpcdSystem rounded_to_fp32(MpcdSystem s) {
  const Vec3d lo = s.box.lo(), L = s.box.lengths();
  auto fold = [](double x, double l, double len, int32_t& im) {
    double y = double(float(x));
    if (y >= l + len) { y = double(float(y - len)); ++im; }
    else if (y < l) { y = double(float(y + len)); --im; }
    return y;
  };
  for (std::size_t i = 0; i < s.particles.size(); ++i) {
    Vec3d& r = s.particles.position[i];
    Image& im = s.particles.image[i];
    r = {fold(r.x, lo.x, L.x, im.x), fold(r.y, lo.y, L.y, im.y), fold(r.z, lo.z, L.z, im.z)};
    Vec3d& v = s.particles.velocity[i];
    v = {double(float(v.x)), double(float(v.y)), double(float(v.z))};
  }
  return s;
}

// Largest |unwrapped a - unwrapped b| component.
inline double max_position_diff(const Box& box, const MpcdParticles& a, const MpcdParticles& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Vec3d d = box.unwrap(a.position[i], a.image[i]) - box.unwrap(b.position[i], b.image[i]);
    m = std::max({m, std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)});
  }
  return m;
}

inline double rel_l2_velocity(const MpcdParticles& a, const MpcdParticles& b) {
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a.tag[i], b.tag[i]);
    const Vec3d d = a.velocity[i] - b.velocity[i];
    num += dot(d, d);
    den += dot(b.velocity[i], b.velocity[i]);
  }
  return std::sqrt(num / den);
}

struct Rule {
  const char* name;
  MpcdRule rule;
  bool thermostat;
  double mass;
};
const Rule kRules[] = {{"srd", MpcdRule::srd, false, 1.0},
                       {"srd+thermostat", MpcdRule::srd, true, 1.5},
                       {"at", MpcdRule::at, false, 1.0}};

inline MpcdParams params_of(const Rule& r) {
  MpcdParams p;
  p.rule = r.rule;
  p.thermostat = r.thermostat;
  p.mass = r.mass;
  p.kT = 1.2;
  p.angle_deg = 130.0;
  return p;
}

}  // namespace meso::test
