// The analytic bead-spring melt of the IBI loop (meso/tables/ibi_melt.hpp): chains
// of bond length r0 within one chain, the refusals. The closed loop itself
// is the validation case ibi-melt.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/tables/ibi_melt.hpp"

namespace {

using namespace meso;

TEST(IbiMelt, BuildsChainsOfBondLengthR0) {
  BeadSpringMeltParams p;
  p.chains = 7;
  p.chain_length = 5;
  p.bond_r0 = 0.8;
  const System s = make_bead_spring_melt(p);
  ASSERT_EQ(s.particles.n_local, 35u);
  EXPECT_NEAR(s.box.volume(), 35.0 / p.rho, 1e-9);
  EXPECT_EQ(s.topology.bonds.size(), 7u * 4u);
  EXPECT_EQ(s.topology.angles.size(), 7u * 3u);
  for (const Bond& b : s.topology.bonds) {
    const Vec3d d = s.box.min_image(s.particles.position[b.b] - s.particles.position[b.a]);
    EXPECT_NEAR(std::sqrt(dot(d, d)), 0.8, 1e-12) << b.a << "-" << b.b;
    EXPECT_EQ(b.a / 5, b.b / 5);  // within one chain
  }
  const std::vector<uint32_t> chain = chain_of_tag(7, 5);
  EXPECT_EQ(chain[4], 0u);
  EXPECT_EQ(chain[5], 1u);
  EXPECT_EQ(chain[34], 6u);
  p.chain_length = 2;
  EXPECT_THROW(make_bead_spring_melt(p), InputError);
  p.chain_length = 5;
  p.angle_theta0 = 190.0;
  EXPECT_THROW(make_bead_spring_melt(p), InputError);
}

}  // namespace
