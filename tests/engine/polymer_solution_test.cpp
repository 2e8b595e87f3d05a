// The polymer solution of polymer-srd (meso/systems/polymer_solution.hpp): the
// chains' start (bonds, spacing, determinism, momentum), the conformation
// observables by hand, the Zimm and Dünweg-Kremer formulas by hand, and the
// refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "meso/core/error.hpp"
#include "meso/systems/polymer_solution.hpp"
#include "meso/core/presets.hpp"

namespace {

using namespace meso;

PolymerSolutionParams small(uint64_t seed) {
  PolymerSolutionParams p;
  p.chains = 30;
  p.chain_length = 20;
  p.L = 12.0;
  p.seed = seed;
  return p;
}

// Each chain is a walk of bonds 0.97 sigma with no two beads (of any chains)
// closer than 0.9 sigma, FENE bonds along it, and the system has no net
// momentum; the WCA table is cut at 2^(1/6) sigma.
TEST(PolymerSolution, ChainsAreSelfAvoidingWalksOfKremerGrestBonds) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const PolymerSolutionParams p = small(seed);
  const System s = make_polymer_chains(p);
  ASSERT_EQ(s.particles.n_local, 600u);
  ASSERT_EQ(s.topology.bonds.size(), 30u * 19u);
  EXPECT_EQ(s.topology.bond_types[0].kind, BondKind::fene);
  EXPECT_EQ(s.topology.bond_types[0].fene.k, 30.0);
  EXPECT_EQ(s.topology.bond_types[0].fene.r_max, 1.5);
  EXPECT_EQ(s.topology.bond_types[0].fene.epsilon, 0.0);  // the core is the pair table's
  EXPECT_STREQ(s.pair_style(), "lj");
  EXPECT_NEAR(s.pair_table<physics::LjPairParams>()(0, 0).rcut, std::pow(2.0, 1.0 / 6.0), 1e-15);
  EXPECT_EQ(s.type_mass[0], 10.0);
  const ParticleData<double>& q = s.particles;
  for (const Bond& b : s.topology.bonds) {
    EXPECT_EQ(b.b, b.a + 1);
    EXPECT_EQ(b.a / 20, b.b / 20);  // within one chain
    const Vec3d d = s.box.unwrap(q.position[b.b], q.image[b.b]) - s.box.unwrap(q.position[b.a], q.image[b.a]);
    EXPECT_NEAR(std::sqrt(dot(d, d)), 0.97, 1e-12);
  }
  double closest = 1e9;
  for (std::size_t i = 0; i < q.n_local; ++i)
    for (std::size_t j = i + 1; j < q.n_local; ++j) {
      const Vec3d d = s.box.min_image(q.position[i] - q.position[j]);
      closest = std::min(closest, std::sqrt(dot(d, d)));
    }
  EXPECT_GE(closest, 0.9);
  Vec3d mom{0.0, 0.0, 0.0};
  for (std::size_t i = 0; i < q.n_local; ++i) mom += 10.0 * q.velocity[i];
  EXPECT_LT(std::sqrt(dot(mom, mom)), 1e-10);
  EXPECT_NO_THROW(s.validate(0.3));
}

TEST(PolymerSolution, TheSeedAloneFixesTheStart) {
  const System a = make_polymer_chains(small(7)), b = make_polymer_chains(small(7)), c = make_polymer_chains(small(8));
  for (std::size_t i = 0; i < a.particles.n_local; ++i) {
    EXPECT_EQ(a.particles.position[i].x, b.particles.position[i].x);
    EXPECT_EQ(a.particles.velocity[i].z, b.particles.velocity[i].z);
  }
  EXPECT_NE(a.particles.position[0].x, c.particles.position[0].x);
}

// The solvent is the benchmark SRD fluid with the monomers embedded.
TEST(PolymerSolution, SolventEmbedsTheMonomers) {
  const PolymerSolutionParams p = small(3);
  const MpcdSystem m = make_polymer_solvent(p, presets::howard_srd_solvent(3));
  EXPECT_EQ(m.params.embed_types, 1u);
  EXPECT_EQ(m.particles.size(), static_cast<std::size_t>(10.0 * 12 * 12 * 12));
  EXPECT_EQ(m.box.lengths().x, 12.0);
  EXPECT_EQ(m.params.angle_deg, 130.0);
}

// A bent three-bead chain straddling the box edge (images +1 on the last
// two): COM and R_g^2 of the unwrapped positions by hand.
TEST(PolymerSolution, ConformationsByHand) {
  const Box box(10.0, 10.0, 10.0);
  ParticleData<double> p;
  p.resize(3);
  p.position = {{4.5, 0.0, 0.0}, {-4.5, 0.0, 0.0}, {-4.5, 1.0, 0.0}};  // unwrapped 4.5, 5.5, (5.5, 1)
  p.image = {{0, 0, 0}, {1, 0, 0}, {1, 0, 0}};
  p.tag = {0, 1, 2};
  const ChainConformations c = chain_conformations(box, p, 1, 3);
  EXPECT_NEAR(c.com[0].x, (4.5 + 5.5 + 5.5) / 3.0, 1e-12);
  EXPECT_NEAR(c.com[0].y, 1.0 / 3.0, 1e-12);
  // Deviations: x (-2/3, 1/3, 1/3), y (-1/3, -1/3, 2/3): sum of squares 2/3 + 2/3.
  EXPECT_NEAR(c.rg2[0], (4.0 / 3.0) / 3.0, 1e-12);
  p.tag = {0, 2, 1};
  EXPECT_THROW(chain_conformations(box, p, 1, 3), InputError);
  EXPECT_THROW(chain_conformations(box, p, 2, 3), InputError);
}

TEST(PolymerSolution, ZimmAndBoxCorrectionByHand) {
  const double pi = std::numbers::pi;
  // 8 / (3 sqrt(6 pi^3)) / sqrt(6) = 0.0798...
  EXPECT_NEAR(zimm_diffusion(1.0, 1.0, 1.0), 8.0 / (3.0 * std::sqrt(6.0 * pi * pi * pi) * std::sqrt(6.0)), 1e-15);
  EXPECT_NEAR(zimm_diffusion(1.0, 1.0, 1.0), 0.07982, 1e-5);
  EXPECT_NEAR(zimm_diffusion(2.0, 4.0, 3.0), 0.07982 * 2.0 / 12.0, 1e-6);
  EXPECT_NEAR(periodic_box_correction(1.0, 8.7, 32.0), 2.837 / (6.0 * pi * 8.7 * 32.0), 1e-15);
  EXPECT_NEAR(rouse_matched_gamma(1.0, 50, 0.002), 10.0, 1e-12);
}

TEST(PolymerSolution, RefusesWhatCannotBeBuilt) {
  PolymerSolutionParams p = small(1);
  p.chains = 0;
  EXPECT_THROW(make_polymer_chains(p), InputError);
  p = small(1);
  p.chain_length = 1;
  EXPECT_THROW(make_polymer_chains(p), InputError);
  p = small(1);
  p.fene_r0 = 0.9;  // the start's bonds of 0.97 would be broken
  EXPECT_THROW(make_polymer_chains(p), InputError);
  p = small(1);
  p.chains = 2000;  // 40000 monomers in 1728 cells: a melt
  EXPECT_THROW(make_polymer_chains(p), InputError);
  p = small(1);
  p.L = -1.0;
  EXPECT_THROW(make_polymer_solvent(p, presets::howard_srd_solvent(1)), InputError);
}

}  // namespace
