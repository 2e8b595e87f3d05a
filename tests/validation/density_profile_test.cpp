// The profile analysis of dppc-density (meso/validation/density_profile.hpp):
// the centre of a slab that straddles the periodic boundary, densities by
// hand, the parabolic peak of a sampled parabola (exact), slab means.
#include "meso/validation/density_profile.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace meso;
using namespace meso::validation;

TEST(DensityProfile, CentresASlabAcrossTheBoundary) {
  // lz = 10, 20 bins of 0.5. Type 0: a slab at z = +-4.9 .. (the boundary);
  // type 1: one particle 1.0 above the slab's centre.
  ParticleData<double> p;
  p.resize(5);
  const double z[5] = {4.8, 4.9, -4.9, -4.8, -4.15};
  for (int i = 0; i < 5; ++i) {
    p.position[i] = {0.0, 0.0, z[i]};
    p.type[i] = i < 4 ? 0 : 1;
    p.tag[i] = i;
  }
  DensityProfile d(2, 20, 10.0, 4.0);  // area 4: one particle in a bin is 1 / (4 * 0.5) = 0.5
  d.add(p, {0});
  const std::vector<double> t0 = d.mean(0), t1 = d.mean(1);
  // The centre is 5.0 (= -5.0): type 0 sits at -0.2, -0.1, +0.1, +0.2.
  EXPECT_DOUBLE_EQ(t0[9], 1.0);   // [-0.5, 0): two particles
  EXPECT_DOUBLE_EQ(t0[10], 1.0);  // [0, 0.5)
  // Type 1 at z = -4.15: 0.85 above the centre -> bin [0.5, 1.0).
  EXPECT_DOUBLE_EQ(t1[11], 0.5);
}

TEST(DensityProfile, ParabolicPeakIsExactForAParabola) {
  DensityProfile d(1, 40, 8.0, 1.0);  // bins of 0.2 centred at -3.9 .. 3.9
  std::vector<double> f(40);
  for (uint32_t b = 0; b < 40; ++b) {
    const double zz = d.bin_centre(b);
    f[b] = zz > 0 ? 5.0 - (zz - 1.93) * (zz - 1.93) : 5.0 - (zz + 2.07) * (zz + 2.07);
  }
  EXPECT_NEAR(parabolic_peak(f, d, 0.0, 4.0), 1.93, 1e-12);
  EXPECT_NEAR(parabolic_peak(f, d, -4.0, 0.0), -2.07, 1e-12);
  EXPECT_THROW(parabolic_peak(f, d, 5.0, 6.0), std::invalid_argument);
}

TEST(DensityProfile, SlabMeanUsesBothSides) {
  DensityProfile d(1, 8, 8.0, 1.0);  // bins centred at -3.5 .. 3.5
  const std::vector<double> f{1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_DOUBLE_EQ(slab_mean(f, d, 3.0, 4.0), (1.0 + 8.0) / 2);
  EXPECT_DOUBLE_EQ(slab_mean(f, d, 0.0, 1.0), (4.0 + 5.0) / 2);
}

}  // namespace
