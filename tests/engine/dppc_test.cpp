// The DPPC bilayer builder (meso/systems/dppc.hpp): the docs/reference.md system's
// counts, types and topology, bonds near their rest lengths in the start,
// the unit mapping by hand, the MD-SCF parameters, and bad input named.
#include "meso/systems/dppc.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "meso/core/error.hpp"

namespace {

using namespace meso;

TEST(Dppc, UnitsByHand) {
  // tau = sqrt(72e-3 kg/mol * (1e-9 m)^2 / 1e3 J/mol) = sqrt(7.2e-23) s = 8.48528 ps
  EXPECT_NEAR(DppcUnits::time_ps(), 8.485281374, 1e-8);
  EXPECT_NEAR(DppcUnits::kT(323.0), 2.685571420, 1e-8);  // 0.0083144626 * 323
  EXPECT_NEAR(DppcUnits::from_ps(0.03), 0.03 / 8.485281374, 1e-12);
}

TEST(Dppc, ReferenceSystem) {
  const System sys = make_dppc_bilayer(DppcBilayerParams{});
  EXPECT_EQ(sys.particles.n_local, 20336u);  // 528 x 12 + 14000
  EXPECT_STREQ(sys.pair_style(), "none");
  EXPECT_EQ(sys.topology.bonds.size(), 528u * 11);
  EXPECT_EQ(sys.topology.angles.size(), 528u * 8);
  std::vector<int> count(5, 0);
  for (std::size_t i = 0; i < sys.particles.n_local; ++i) ++count[sys.particles.type[i]];
  EXPECT_EQ(count, (std::vector<int>{528, 528, 1056, 528 * 8, 14000}));
  EXPECT_NEAR(sys.kT, 2.685571420, 1e-8);
  // Grid: the spacing nearest 0.65 nm.
  EXPECT_EQ(sys.mdscf.nx, 20u);
  EXPECT_EQ(sys.mdscf.ny, 20u);
  EXPECT_EQ(sys.mdscf.nz, 22u);
  EXPECT_DOUBLE_EQ(sys.mdscf.inv_kappa, 20.0);
  EXPECT_DOUBLE_EQ(sys.mdscf.chi[kDppcC * 5 + kDppcW], 42.24);
  EXPECT_DOUBLE_EQ(sys.mdscf.chi[kDppcW * 5 + kDppcC], 42.24);
  EXPECT_DOUBLE_EQ(sys.mdscf.chi[kDppcC * 5 + kDppcC], 0.0);
  EXPECT_NO_THROW(sys.validate(0.0));
  // Every bond within 0.1 nm of its rest length, every angle within 35 deg.
  const auto& p = sys.particles;
  for (const Bond& b : sys.topology.bonds) {
    const Vec3d d = sys.box.min_image(p.position[b.a] - p.position[b.b]);
    EXPECT_NEAR(std::sqrt(dot(d, d)), sys.topology.bond_types[b.type].harmonic.r0, 0.1) << b.a << "-" << b.b;
  }
  for (const Angle& a : sys.topology.angles) {
    const Vec3d u = sys.box.min_image(p.position[a.a] - p.position[a.b]);
    const Vec3d v = sys.box.min_image(p.position[a.c] - p.position[a.b]);
    const double th = std::acos(dot(u, v) / std::sqrt(dot(u, u) * dot(v, v)));
    EXPECT_NEAR(th, sys.topology.angle_types[a.type].harmonic.theta0, 35.0 * M_PI / 180.0);
  }
  // Water outside the lipid slab, heads above the tails.
  for (std::size_t i = 0; i < p.n_local; ++i)
    if (p.type[i] == kDppcW) EXPECT_GT(std::fabs(p.position[i].z), 2.0);
  EXPECT_GT(std::fabs(p.position[0].z), std::fabs(p.position[7].z));
}

TEST(Dppc, BadInputIsNamed) {
  DppcBilayerParams p;
  p.lipids = 527;
  EXPECT_THROW(make_dppc_bilayer(p), InputError);
  p = {};
  p.kappa = 0.0;
  EXPECT_THROW(make_dppc_bilayer(p), InputError);
  p = {};
  p.lipids = 4000;  // 0.08 nm^2 per lipid
  try {
    make_dppc_bilayer(p);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("area per lipid"), std::string::npos) << e.what();
  }
}

}  // namespace
