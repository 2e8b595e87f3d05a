// MD particles embedded in the MPCD solvent on ranks (polymer-srd: bonded
// chains that join the SRD collisions), on CPU ranks (decomposition_test)
// and CUDA ranks (decomposition_gpu_test, which refuses them by name); main()
// and the MPI environment are decomposition_test.cpp's.
//
// The chains migrate with the solvent's decomposition: at the step of every
// collision the MD particles migrate (StepRules::migrate_every), so that each
// rank's solutes fall in its domain's cells, and a cell on a rank face sums
// the solvent and the solutes of both ranks (the solutes' masses travel with
// the maxima and the momentum; fixed-point sums, exact over ranks).
//   - Ideal chains (FENE bonds, the WCA pair's epsilon 0: every force is the
//     bonds', summed per particle in one order on any rank count): the
//     monomers and the solvent are bitwise the one-rank run, collision after
//     collision (SRD, its cell thermostat, the AT rule).
//   - Kremer-Grest chains (WCA): the pair forces are summed in another order
//     on ranks, so the run is the one-rank run within the bounds of
//     compare_with_one_rank (decomposition_test.cpp): 20 times the
//     difference between two one-rank runs that store the monomers in
//     another order, plus 1e-12 relative, and positions within 1e-6 after
//     100 steps.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "decomposition_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/core/presets.hpp"
#include "meso/scaling/mpi_communicator.hpp"
#include "meso/run/simulation.hpp"
#include "meso/systems/polymer_solution.hpp"

namespace meso::scaling {
namespace {

using test::cpu;
using test::kBackend;
using test::world_rank;
using test::world_size;

// Chains in the SRD solvent at polymer-srd's coupling (monomer mass rho m,
// a collision every 10 MD steps): 16 chains of 20 in a box of 12 cells,
// domains of 6 cells on 8 ranks.
SimulationSetup solutes_case(bool ideal, const MpcdParams& srd) {
  PolymerSolutionParams p;
  p.chains = 16;
  p.chain_length = 20;
  p.L = 12.0;
  p.seed = 3;
  SimulationSetup s{make_polymer_chains(p), {}, make_polymer_solvent(p, srd)};
  if (ideal) {
    // The WCA pair switched off: the pair list stays (ranks need its
    // ghosts), its forces are zero whatever their order.
    physics::LjPairParams none = s.md->pair_table<physics::LjPairParams>()(0, 0);
    none.epsilon = 0.0;
    s.md->set_pair_style<physics::LjPairParams>(1, none);
  }
  s.run.dt = 0.01;
  s.run.skin = 0.3;
  s.run.integrator = Integrator::velocity_verlet;
  return s;
}

#ifndef MESO_DECOMPOSITION_CUDA  // the comparisons with one rank: CPU ranks only
// The same setup with the monomers stored in reverse order (the round-off
// yardstick of the WCA case).
SimulationSetup reversed(SimulationSetup s) {
  s.md = test::reversed(std::move(*s.md));
  return s;
}

bool same(const Vec3d& a, const Vec3d& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// Monomers and solvent particles of `many` that differ from `one`'s (both
// gathered in tag order), with every tag once.
struct Differences {
  std::size_t monomers = 0, solvent = 0;
  double worst_position = 0.0;  // minimum image, either kind
};
Differences differences(const Box& box, const ParticleData<double>& a, const ParticleData<double>& b,
                        const MpcdParticles& sa, const MpcdParticles& sb) {
  Differences d;
  auto far = [&](const Vec3d& x, const Vec3d& y) {
    const Vec3d r = box.min_image(x - y);
    d.worst_position = std::max(d.worst_position, std::sqrt(dot(r, r)));
  };
  for (std::size_t k = 0; k < b.n_local; ++k) {
    d.monomers += !same(a.position[k], b.position[k]) || !same(a.velocity[k], b.velocity[k]);
    far(a.position[k], b.position[k]);
  }
  for (std::size_t k = 0; k < sb.size(); ++k) {
    d.solvent += !same(sa.position[k], sb.position[k]) || !same(sa.velocity[k], sb.velocity[k]);
    far(sa.position[k], sb.position[k]);
  }
  return d;
}

void expect_tags(const ParticleData<double>& p, std::size_t n, const MpcdParticles& s, std::size_t ns, uint64_t step) {
  ASSERT_EQ(p.n_local, n) << "monomers after step " << step;
  for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(p.tag[k], k) << "after step " << step << ": monomer tag " << k;
  ASSERT_EQ(s.size(), ns) << "solvent particles after step " << step;
  for (std::size_t k = 0; k < ns; ++k) ASSERT_EQ(s.tag[k], k) << "after step " << step << ": solvent tag " << k;
}

// `collisions` collision periods of the ideal chains on one rank and on all:
// after each, every monomer and solvent particle bitwise equal.
void expect_bitwise(const char* name, const MpcdParams& srd, uint64_t collisions) {
  SCOPED_TRACE(name);
  const SimulationSetup c = solutes_case(true, srd);
  Simulation one(cpu(), c);
  Simulation many(cpu(), c, MpiCommunicator::factory(MPI_COMM_WORLD));
  const uint64_t period = many.steps_per_collision();
  ASSERT_EQ(period, 10u);
  for (uint64_t k = 1; k <= collisions; ++k) {
    one.run(period);
    many.run(period);
    const ParticleData<double> got = many.particles();  // collective
    const MpcdParticles sgot = many.solvent_particles();
    int failed = 0;
    if (world_rank() == 0) {
      expect_tags(got, c.md->particles.n_local, sgot, c.solvent->particles.size(), many.step());
      if (!::testing::Test::HasFatalFailure()) {
        const Differences d = differences(c.md->box, got, one.particles(), sgot, one.solvent_particles());
        EXPECT_EQ(d.monomers, 0u) << "monomers unlike one rank's after collision " << k << " on " << world_size()
                                  << " ranks (largest distance " << d.worst_position << ")";
        EXPECT_EQ(d.solvent, 0u) << "solvent particles unlike one rank's after collision " << k;
      }
      failed = ::testing::Test::HasFailure() ? 1 : 0;
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (failed) return;
  }
}

#endif

TEST(Decomposition, PolymerSrdIdealChainsAreBitwiseOneRank) {
#ifdef MESO_DECOMPOSITION_CUDA
  GTEST_SKIP() << "embedded solutes on CUDA ranks are refused (PolymerSrdOnCudaRanksIsRefused)";
#else
  expect_bitwise("srd", presets::howard_srd_solvent(5), 6);
  MpcdParams thermo = presets::howard_srd_solvent(7);
  thermo.thermostat = true;
  expect_bitwise("srd, cell thermostat", thermo, 3);
  MpcdParams at = presets::howard_srd_solvent(9);
  at.rule = MpcdRule::at;
  expect_bitwise("at", at, 3);
#endif
}

// Kremer-Grest chains: within the round-off bounds of the MD tests, 10
// collisions (100 MD steps).
TEST(Decomposition, PolymerSrdAgreesWithOneRank) {
#ifdef MESO_DECOMPOSITION_CUDA
  GTEST_SKIP() << "embedded solutes on CUDA ranks are refused (PolymerSrdOnCudaRanksIsRefused)";
#else
  const SimulationSetup c = solutes_case(false, presets::howard_srd_solvent(5));
  Simulation one(cpu(), c);
  Simulation other_order(cpu(), reversed(c));
  Simulation many(cpu(), c, MpiCommunicator::factory(MPI_COMM_WORLD));
  for (int k = 0; k < 10; ++k) {
    one.run(10);
    other_order.run(10);
    many.run(10);
    const ParticleData<double> got = many.particles();
    const MpcdParticles sgot = many.solvent_particles();
    int failed = 0;
    if (world_rank() == 0) {
      expect_tags(got, c.md->particles.n_local, sgot, c.solvent->particles.size(), many.step());
      failed = ::testing::Test::HasFatalFailure() ? 1 : 0;
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (failed) return;
  }
  const ThermoSample a = one.thermo(), b = other_order.thermo(), m = many.thermo();  // collective
  const MpcdThermo sa = one.solvent_thermo(), sb = other_order.solvent_thermo(), sm = many.solvent_thermo();
  const ParticleData<double> got = many.particles();
  const MpcdParticles sgot = many.solvent_particles();
  if (world_rank() != 0) return;
  auto bound = [](double ref, double yardstick) { return 20.0 * std::fabs(yardstick - ref) + 1e-12 * std::fabs(ref); };
  EXPECT_NEAR(m.kinetic_energy, a.kinetic_energy, bound(a.kinetic_energy, b.kinetic_energy));
  EXPECT_NEAR(m.potential_energy, a.potential_energy, bound(a.potential_energy, b.potential_energy));
  EXPECT_NEAR(m.pressure, a.pressure, bound(a.pressure, b.pressure));
  EXPECT_NEAR(sm.kinetic_energy, sa.kinetic_energy, bound(sa.kinetic_energy, sb.kinetic_energy));
  // The yardstick is round-off, not physics.
  EXPECT_LT(std::fabs(b.kinetic_energy - a.kinetic_energy), 1e-6 * a.kinetic_energy);
  const Differences d = differences(c.md->box, got, one.particles(), sgot, one.solvent_particles());
  EXPECT_LT(d.worst_position, 1e-6) << "largest position difference after 100 steps (monomers and solvent)";
#endif
}

// A solvent splits into domains of two cells at least, whatever the MD
// ghost layer (here r_c + skin = 1.42) lets the grid make: 2 ranks along
// an axis of 3 cells make domains of 1.5.
TEST(Decomposition, PolymerSrdRefusesDomainsUnderTwoCells) {
  if (world_size() != 2) GTEST_SKIP() << "2 ranks (more make domains thinner than the MD ghost layer)";
  PolymerSolutionParams p;
  p.chains = 6;  // 12 monomers: both halves of the box hold some
  p.chain_length = 2;
  p.L = 3.0;
  SimulationSetup s{make_polymer_chains(p), {}, make_polymer_solvent(p, presets::howard_srd_solvent(1))};
  s.run.dt = 0.01;
  s.run.skin = 0.3;
  const RankGrid grid{2, 1, 1};
  std::string what;
  try {
    Simulation many(cpu(), s, MpiCommunicator::factory(MPI_COMM_WORLD, grid));
  } catch (const InputError& e) {
    what = e.what();
  }
#ifdef MESO_DECOMPOSITION_CUDA
  // The chains' bonds are refused on CUDA ranks first.
  EXPECT_NE(what.find("bonded forces on the cuda backend are not decomposed"), std::string::npos) << what;
#else
  EXPECT_NE(what.find("domains 1.5 wide along x (2 ranks) are thinner than the two cells of an MPCD solvent"),
            std::string::npos)
      << what;
#endif
}

// On CUDA ranks: the chains' bonds are refused when the plan is built, and
// MD particles without bonds beside the solvent when it is added, naming
// embed_types (the CUDA collision on ranks sums the solvent only).
TEST(Decomposition, PolymerSrdOnCudaRanksIsRefused) {
#ifndef MESO_DECOMPOSITION_CUDA
  GTEST_SKIP() << "CPU ranks run it (PolymerSrdAgreesWithOneRank)";
#else
  if (world_size() == 1) GTEST_SKIP() << "one rank runs it";
  auto refusal = [](const SimulationSetup& s) {
    try {
      Simulation many(cpu(), s, MpiCommunicator::factory(MPI_COMM_WORLD));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  SimulationSetup chains = solutes_case(false, presets::howard_srd_solvent(5));
  std::string what = refusal(chains);
  EXPECT_NE(what.find("bonded forces on the cuda backend are not decomposed"), std::string::npos) << what;
  SimulationSetup beads = chains;
  beads.md->topology = Topology{};
  what = refusal(beads);
  EXPECT_NE(what.find("MD particles with an MPCD solvent (embed_types = 1) are not decomposed over cuda ranks yet"),
            std::string::npos)
      << what;
#endif
}

}  // namespace
}  // namespace meso::scaling
