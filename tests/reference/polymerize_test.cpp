// Chain-growth polymerization on the reference backend ("polymerize",
// reference/src/md/polymerize.cpp) through the step plan: the capture
// radius by hand, a contested monomer going to the smallest claim, the
// growing end moving to the monomer, the new bond's force from the next
// step on, the same bonds whatever the storage order and thread count, the
// refusals of bad parameters and of a checkpoint.
#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/systems/living_polymerization.hpp"
#include "meso/physics/polymerization.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant::parse("")); }

// Particles at rest at the given positions, tags 0 .. n-1 in order, no pair
// force, types I (0), M (1) and P (2); the initiators are the given tags,
// every other particle a monomer; a harmonic growth bond (k, r0).
System chain_start(double l, const std::vector<Vec3d>& pos, const std::vector<uint32_t>& initiators,
                   double capture_radius, double probability) {
  System sys;
  sys.box = Box(l);
  sys.type_names = {"I", "M", "P"};
  sys.type_mass = {1.0, 1.0, 1.0};
  sys.pair = {};
  BondType growth;
  growth.name = "growth";
  growth.harmonic = {20.0, 0.5};
  sys.topology.bond_types = {growth};
  auto& p = sys.particles;
  p.resize(pos.size());
  for (std::size_t i = 0; i < pos.size(); ++i) {
    p.position[i] = pos[i];
    p.velocity[i] = {0.0, 0.0, 0.0};
    p.image[i] = {0, 0, 0};
    p.tag[i] = static_cast<uint32_t>(i);
    p.type[i] = std::find(initiators.begin(), initiators.end(), i) != initiators.end() ? 0u : 1u;
  }
  sys.polymerization.period = 1;
  sys.polymerization.capture_radius = capture_radius;
  sys.polymerization.probability = probability;
  sys.polymerization.monomer_type = 1;
  sys.polymerization.reacted_type = 2;
  sys.polymerization.initiators = initiators;
  return sys;
}

RunParams nve(double dt = 1e-6) {
  RunParams rp;
  rp.dt = dt;  // short enough that nothing moves measurably over a few steps
  rp.integrator = Integrator::nve;
  rp.skin = 0.0;
  return rp;
}

TEST(Polymerize, CaptureRadiusDecides) {
  // End 0 at the origin; monomer 1 just inside r_c = 1, monomer 2 just
  // outside it (across the periodic boundary), P = 1.
  const double l = 10.0;
  Simulation sim(cpu(), chain_start(l, {{0, 0, 0}, {0.999, 0, 0}, {0, 0, -1.001}}, {0}, 1.0, 1.0), nve());
  sim.run(1);
  const PolymerizeOp& op = *sim.plan().polymerize();
  ASSERT_EQ(op.formed().size(), 1u);
  EXPECT_EQ(op.formed()[0].a, 0u);
  EXPECT_EQ(op.formed()[0].b, 1u);
  // The chain's end is now monomer 1, whose only free neighbour (tag 2,
  // 2.0 away from it) is out of range: no second bond.
  sim.run(3);
  EXPECT_EQ(op.formed().size(), 1u);
  const PolymerizationStats s = op.stats();
  EXPECT_EQ(s.attempts, 4u);
  EXPECT_EQ(s.reactions, 1u);
  EXPECT_EQ(s.initial_monomers, 2u);
  EXPECT_EQ(s.free_monomers, 1u);
  ASSERT_EQ(s.growth.size(), 1u);
  EXPECT_EQ(s.growth[0], 1u);
  const ParticleData<double> p = sim.particles();
  EXPECT_EQ(p.type[1], 2u);  // reacted
  EXPECT_EQ(p.type[2], 1u);  // still a monomer
}

TEST(Polymerize, GrowthMovesToTheMonomer) {
  // A row 0.8 apart: initiator 0, monomers 1, 2, 3 (r_c = 1). Each attempt
  // the end's only monomer in range is the next one, so P = 1 grows the
  // chain one link an attempt, in order.
  Simulation sim(cpu(), chain_start(12.0, {{0, 0, 0}, {0.8, 0, 0}, {1.6, 0, 0}, {2.4, 0, 0}}, {0}, 1.0, 1.0),
                 nve());
  sim.run(3);
  const std::vector<Bond>& b = sim.plan().polymerize()->formed();
  ASSERT_EQ(b.size(), 3u);
  for (uint32_t k = 0; k < 3; ++k) {
    EXPECT_EQ(b[k].a, k);
    EXPECT_EQ(b[k].b, k + 1);
  }
  EXPECT_EQ(sim.plan().polymerize()->stats().growth[0], 3u);
}

TEST(Polymerize, ContestedMonomerGoesToTheSmallestClaim) {
  // Ends 0 and 2 on either side of monomer 1, both in range, P = 1: one
  // wins by the smaller claim, the other waits; with no monomer left it
  // never reacts.
  Simulation sim(cpu(), chain_start(10.0, {{-0.6, 0, 0}, {0, 0, 0}, {0.6, 0, 0}}, {0, 2}, 1.0, 1.0), nve());
  sim.run(1);
  const uint32_t seed = RunParams{}.seed;
  const uint64_t c0 = physics::polymerization_claim(physics::polymerization_candidate(seed, 1, 0, 1), 0);
  const uint64_t c2 = physics::polymerization_claim(physics::polymerization_candidate(seed, 1, 2, 1), 2);
  const PolymerizeOp& op = *sim.plan().polymerize();
  ASSERT_EQ(op.formed().size(), 1u);
  EXPECT_EQ(op.formed()[0].a, c0 < c2 ? 0u : 2u);
  EXPECT_EQ(op.stats().contested, 1u);
  const PolymerizationStats s = op.stats();
  EXPECT_EQ(s.growth[0] + s.growth[1], 1u);
}

TEST(Polymerize, ProbabilityZeroNeverReacts) {
  Simulation sim(cpu(), chain_start(10.0, {{0, 0, 0}, {0.5, 0, 0}}, {0}, 1.0, 0.0), nve());
  sim.run(50);
  EXPECT_TRUE(sim.plan().polymerize()->formed().empty());
  EXPECT_EQ(sim.plan().polymerize()->stats().attempts, 50u);
}

TEST(Polymerize, EachChainReactsAtItsOwnProbability) {
  // Two rows 0.8 apart, far from each other (r_c = 1): initiator 0 with
  // monomers 1-3, initiator 4 with monomers 5-7. P = 1 for every end, but
  // the chains' own probabilities, 0 and 1, take its place: only the second
  // chain grows, one link an attempt.
  System sys = chain_start(12.0,
                           {{0, 0, 0}, {0.8, 0, 0}, {1.6, 0, 0}, {2.4, 0, 0},
                            {0, 5, 0}, {0.8, 5, 0}, {1.6, 5, 0}, {2.4, 5, 0}},
                           {0, 4}, 1.0, 1.0);
  sys.polymerization.chain_probability = {0.0, 1.0};
  Simulation sim(cpu(), sys, nve());
  sim.run(3);
  const PolymerizationStats s = sim.plan().polymerize()->stats();
  EXPECT_EQ(s.growth, (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(s.attempting, 3u);  // only the second end ever drew u <= its P
}

TEST(Polymerize, NewBondActsFromTheNextStep) {
  // End 0 and monomer 1 at 0.9 (r0 = 0.5, k = 20), P = 1, one attempt
  // every 2 steps: after step 2 they are bonded, and step 3's forces carry
  // the bond's energy k/2 (r - r0)^2 and its pull.
  System sys = chain_start(10.0, {{0, 0, 0}, {0.9, 0, 0}}, {0}, 1.0, 1.0);
  sys.polymerization.period = 2;
  Simulation sim(cpu(), sys, nve());
  sim.run(2);
  EXPECT_DOUBLE_EQ(sim.thermo().potential_energy, 0.0);
  sim.run(1);
  const ParticleData<double> p = sim.particles();
  const double r = std::fabs(p.position[1].x - p.position[0].x);
  EXPECT_NEAR(sim.thermo().potential_energy, 10.0 * (r - 0.5) * (r - 0.5), 1e-12);
  EXPECT_NEAR(p.force[0].x, 20.0 * (r - 0.5), 1e-9);
  EXPECT_NEAR(p.force[1].x, -20.0 * (r - 0.5), 1e-9);
}

// The bonds of a small living polymerization after `steps`.
std::vector<Bond> bonds_after(System sys, uint64_t steps) {
  RunParams rp;
  rp.dt = 0.01;
  rp.integrator = Integrator::langevin;
  rp.skin = 0.0;
  Simulation sim(cpu(), sys, rp);
  sim.run(steps);
  return sim.plan().polymerize()->formed();
}

LivingPolymerizationParams small_living() {
  LivingPolymerizationParams lp;
  lp.initiators = 40;
  lp.monomers = 800;
  lp.probability = 0.3;
  lp.period = 5;
  return lp;
}

TEST(Polymerize, SameBondsInAnyStorageOrderAndThreadCount) {
  const System sys = make_living_polymerization(small_living());
  const std::vector<Bond> ref = bonds_after(sys, 400);
  ASSERT_GT(ref.size(), 100u);  // the test exercises many reactions and contests
  // The same particles stored in a random order (tags kept).
  System shuffled = sys;
  std::vector<std::size_t> perm(sys.particles.n_local);
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), std::mt19937(7));
  auto& q = shuffled.particles;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    q.position[i] = sys.particles.position[perm[i]];
    q.velocity[i] = sys.particles.velocity[perm[i]];
    q.type[i] = sys.particles.type[perm[i]];
    q.tag[i] = sys.particles.tag[perm[i]];
  }
  const std::vector<Bond> again = bonds_after(shuffled, 400);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::vector<Bond> one_thread = bonds_after(sys, 400);
  omp_set_num_threads(threads);
  auto same = [](const std::vector<Bond>& a, const std::vector<Bond>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
      if (a[k].a != b[k].a || a[k].b != b[k].b || a[k].type != b[k].type) return false;
    return true;
  };
  EXPECT_TRUE(same(ref, again));
  EXPECT_TRUE(same(ref, one_thread));
}

TEST(Polymerize, EveryMonomerJoinsAtMostOneChain) {
  const System sys = make_living_polymerization(small_living());
  const std::vector<Bond> b = bonds_after(sys, 400);
  std::vector<int> joined(sys.particles.n_local, 0);
  for (const Bond& x : b) {
    EXPECT_GE(x.b, 40u);  // a monomer, never an initiator
    ++joined[x.b];
  }
  EXPECT_EQ(*std::max_element(joined.begin(), joined.end()), 1);
}

TEST(Polymerize, RefusesBadParametersAndCheckpoints) {
  const System good = chain_start(10.0, {{0, 0, 0}, {0.5, 0, 0}}, {0}, 1.0, 0.5);
  auto refused = [](System s, const char* what) {
    try {
      Simulation sim(cpu(), s, nve());
      ADD_FAILURE() << "accepted: " << what;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  System s = good;
  s.polymerization.capture_radius = 5.0;
  refused(s, "capture radius 5 is invalid");
  s = good;
  s.polymerization.probability = 1.5;
  refused(s, "probability 1.5 is invalid");
  s = good;
  s.polymerization.chain_probability = {0.5, 0.5};
  refused(s, "chain probabilities: 2 given for 1 initiators");
  s = good;
  s.polymerization.chain_probability = {1.5};
  refused(s, "probability 1.5 of chain 0 is invalid");
  s = good;
  s.polymerization.initiators = {0, 0};
  refused(s, "initiator tag 0 is given twice");
  s = good;
  s.polymerization.initiators = {7};
  refused(s, "initiator tag 7 is no particle's");
  s = good;
  s.polymerization.bond_type = 1;
  refused(s, "bond type 1 is out of range");
  s = good;
  s.polymerization.reacted_type = 3;
  refused(s, "reacted type 3 is out of range");
  Simulation sim(cpu(), good, nve());
  sim.run(1);
  EXPECT_THROW(sim.checkpoint(), InputError);
}

}  // namespace
