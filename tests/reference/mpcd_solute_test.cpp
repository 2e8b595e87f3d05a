// Solute coupling (HOOMD-blue's embedded MD particles): MD particles of the
// embed_types join every MPCD collision with their own masses. A two-body
// cell by hand for both rules, conservation of the total (solvent + solute)
// momentum through the coupled run loop, equipartition of a heavy solute
// with the solvent, and the input errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/reference/mpcd_collide.hpp"
#include "meso/systems/polymer_solution.hpp"
#include "meso/core/presets.hpp"
#include "meso/run/simulation.hpp"
#include "support/expect_bitwise.hpp"
#include "support/mpcd_solvent.hpp"

namespace {

using namespace meso;
namespace mt = meso::testing;  // ::testing is GoogleTest's
using mt::expect_vec_near;
using mt::fresh_seed;
constexpr double kPi = 3.14159265358979323846;


// One solvent particle (m = 1) and two MD particles in cell 0 of a 4^3 grid
// without shift: MD 0 (type 0, M = 5) is embedded, MD 1 (type 1) is not.
TEST(MpcdSolute, TwoBodyCellByHand) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdSystem sys;
  sys.box = Box(4.0, 4.0, 4.0);
  sys.params.seed = static_cast<uint32_t>(seed);
  sys.params.kT = 1.3;
  sys.particles.resize(1);
  sys.particles.position[0] = {-1.5, -1.5, -1.5};
  sys.particles.velocity[0] = {1.0, 2.0, 3.0};
  sys.particles.type[0] = 0;
  sys.particles.tag[0] = 7;
  sys.particles.image[0] = {0, 0, 0};
  std::vector<Vec3d> pos = {{-1.2, -1.7, -1.1}, {-1.4, -1.3, -1.6}};
  const std::vector<Vec3d> v0 = {{-0.5, 0.25, 0.125}, {0.3, -0.2, 0.1}};
  const std::vector<uint32_t> type = {0, 1}, tag = {7, 8};  // tag 7 as the solvent's: separate streams
  const double type_mass[] = {5.0, 2.0};
  const Vec3d u = (1.0 / 6.0) * (sys.particles.velocity[0] + 5.0 * v0[0]);
  const uint64_t step = seed >> 40;
  for (const MpcdRule rule : {MpcdRule::srd, MpcdRule::at}) {
    SCOPED_TRACE(to_string(rule));
    auto s = mt::load<double>(sys);
    std::vector<Vec3d> vel = v0;
    reference::MpcdEmbedded<double> md;
    md.pos = pos.data();
    md.vel = vel.data();
    md.type = type.data();
    md.tag = tag.data();
    md.n = 2;
    md.type_mass = type_mass;
    md.types = 1u;
    reference::mpcd_collide(s, rule, step, {0.0, 0.0, 0.0}, &md);
    const reference::MpcdCellProps& p = s.props[0];
    EXPECT_EQ(p.n, 2u);
    EXPECT_EQ(p.mass, 6.0);
    expect_vec_near(p.momentum, 6.0 * u, 1e-14);
    Vec3d want0, want1;
    if (rule == MpcdRule::srd) {
      const Vec3d axis = physics::srd_rotation_axis(0, step, s.params.seed);
      const double a = 130.0 * kPi / 180.0;
      want0 = u + physics::srd_rotate(sys.particles.velocity[0] - u, axis, std::cos(a), std::sin(a));
      want1 = u + physics::srd_rotate(v0[0] - u, axis, std::cos(a), std::sin(a));
    } else {
      const double kT = 1.3;
      const Vec3d xs = physics::mpcd_at_gaussian3(7, step, s.params.seed);
      const Vec3d xm = physics::mpcd_at_gaussian3(7, step, s.params.seed, true);
      EXPECT_NE(xs.x, xm.x);  // the embedded stream differs from the solvent's
      const Vec3d ws = std::sqrt(kT / 1.0) * xs, wm = std::sqrt(kT / 5.0) * xm;
      const Vec3d mean = (1.0 / 6.0) * (1.0 * ws + 5.0 * wm);
      want0 = u + ws - mean;
      want1 = u + wm - mean;
    }
    expect_vec_near(s.vel[0], want0, 1e-14);
    expect_vec_near(vel[0], want1, 1e-14);
    // Momentum of the cell kept; the non-embedded particle untouched.
    expect_vec_near(s.vel[0] + 5.0 * vel[0], 6.0 * u, 1e-13);
    EXPECT_EQ(vel[1].x, v0[1].x);
    EXPECT_EQ(vel[1].y, v0[1].y);
    EXPECT_EQ(vel[1].z, v0[1].z);
  }
}

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant{}); }

Vec3d total_momentum(const Simulation& sim) {
  const MpcdParticles s = sim.solvent_particles();
  Vec3d p{0.0, 0.0, 0.0};
  for (const Vec3d& v : s.velocity) p += sim.solvent_system()->params.mass * v;
  const ParticleData<double> md = sim.particles();
  for (std::size_t i = 0; i < md.n_local; ++i) p += sim.system().type_mass[md.type[i]] * md.velocity[i];
  return p;
}

RunParams md_params(double dt) {
  RunParams rp;
  rp.dt = dt;
  rp.integrator = Integrator::nve;
  rp.skin = 0.3;
  return rp;
}

// Collisions and conservative MD forces both keep the total momentum: over
// 30 collision periods of 4 MD steps, to round-off of sums of ~2500 terms.
TEST(MpcdSolute, CoupledRunConservesTotalMomentum) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const MpcdRule rule : {MpcdRule::srd, MpcdRule::at}) {
    SCOPED_TRACE(to_string(rule));
    MpcdParams prm;
    prm.seed = static_cast<uint32_t>(seed);
    prm.rule = rule;
    prm.embed_types = 1u;
    const MpcdSystem solvent = mt::random_solvent(seed, prm, 6, 6, 6, 10.0);
    const System solute = mt::random_solute(seed, solvent, 200, 5.0, 2.0);
    Simulation sim(cpu(), solute, md_params(0.025), solvent);
    EXPECT_EQ(sim.steps_per_collision(), 4u);
    const Vec3d p0 = total_momentum(sim);
    const ParticleData<double> md0 = sim.particles();
    sim.run(30 * 4);
    EXPECT_EQ(sim.step(), 120u);
    const Vec3d p1 = total_momentum(sim);
    expect_vec_near(p1, p0, 1e-10);
    // The solute moved (forces and collisions).
    const ParticleData<double> md1 = sim.particles();
    EXPECT_NE(md1.velocity[0].x, md0.velocity[0].x);
  }
}

// A heavy solute (M = 5) started at rest reaches the solvent's temperature
// through the collisions alone (the MD has no thermostat): the mean kinetic
// temperature M <v^2> / 3 of the 150 embedded particles over collisions
// 101..400 is kT = 1 within 0.06. One sample scatters by sqrt(2 / (3 * 150))
// = 0.067 and the velocity of a particle of M = 5 in SRD decorrelates within
// a few collisions, so the 300-collision mean scatters by ~0.01: the bound is
// ~6 of those. Were the collision to treat the solute as solvent mass 1
// (ignoring M), it would settle near M kT = 5, not 1.
TEST(MpcdSolute, HeavySoluteReachesTheSolventTemperature) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.seed = static_cast<uint32_t>(seed);
  prm.thermostat = true;  // takes out the heat of the solute's start
  prm.embed_types = 1u;
  const MpcdSystem solvent = mt::random_solvent(seed, prm, 6, 6, 6, 10.0, {0.0, 0.0, 0.0});
  const System solute = mt::random_solute(seed, solvent, 200, 5.0, 2.0, 5.0, /*v_scale=*/0.0);
  Simulation sim(cpu(), solute, md_params(0.02), solvent);
  const uint64_t period = sim.steps_per_collision();  // 5 MD steps a collision
  sim.run(100 * period);
  double sum = 0.0;
  int samples = 0;
  for (int k = 0; k < 300; ++k) {
    sim.run(period);
    const ParticleData<double> md = sim.particles();
    double mv2 = 0.0;
    int n = 0;
    for (std::size_t i = 0; i < md.n_local; ++i)
      if (md.type[i] == 0) {
        mv2 += 5.0 * dot(md.velocity[i], md.velocity[i]);
        ++n;
      }
    sum += mv2 / (3.0 * n);
    ++samples;
  }
  const double T = sum / samples;
  std::printf("embedded solute M = 5: <T> = %.4f over collisions 101..400\n", T);
  EXPECT_NEAR(T, 1.0, 0.06);
}

TEST(MpcdSolute, InputErrorsNameTheValue) {
  MpcdParams prm;
  prm.embed_types = 1u;
  const MpcdSystem solvent = mt::random_solvent(1, prm, 4, 4, 4, 5.0);
  const System solute = mt::random_solute(1, solvent, 20, 5.0, 2.0);
  // embed_types without MD particles.
  EXPECT_THROW(Simulation(cpu(), solvent), InputError);
  // dt_c = 0.1 is not a whole number of MD steps of 0.03.
  EXPECT_THROW(Simulation(cpu(), solute, md_params(0.03), solvent), InputError);
  // A type the MD system does not have.
  MpcdSystem bad = solvent;
  bad.params.embed_types = 0b100u;
  EXPECT_THROW(Simulation(cpu(), solute, md_params(0.02), bad), InputError);
  // Boxes that differ.
  System other = solute;
  other.box = Box(4.0, 4.0, 5.0);
  EXPECT_THROW(Simulation(cpu(), other, md_params(0.02), solvent), InputError);
  // Neither MD particles nor a solvent.
  EXPECT_THROW(Simulation(cpu(), SimulationSetup{}), InputError);
  // Uncoupled co-simulation (embed_types = 0) is allowed.
  MpcdSystem plain = solvent;
  plain.params.embed_types = 0;
  EXPECT_NO_THROW(Simulation(cpu(), solute, md_params(0.02), plain));
}

// The solvent is a stage of the one plan: a coupled run stopped anywhere,
// mid-period included (the solvent streamed, its collision still to come),
// continues bitwise as the run in one piece.
TEST(MpcdSolute, CoupledRunInPiecesIsBitwiseTheWholeRun) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.seed = static_cast<uint32_t>(seed);
  prm.embed_types = 1u;
  const MpcdSystem solvent = mt::random_solvent(seed, prm, 5, 5, 5, 8.0);
  const System solute = mt::random_solute(seed, solvent, 120, 5.0, 2.0);
  Simulation whole(cpu(), solute, md_params(0.025), solvent), pieces(cpu(), solute, md_params(0.025), solvent);
  whole.run(10 * 4);
  for (uint64_t k : {3u, 1u, 6u, 4u, 13u, 2u, 11u}) pieces.run(k);  // 40 steps, stops off the periods
  EXPECT_EQ(pieces.step(), 40u);
  EXPECT_TRUE(mt::bitwise_equal(whole.solvent_particles(), pieces.solvent_particles()));
  const ParticleData<double> a = whole.particles(), b = pieces.particles();
  test::expect_same_vec3(a.position, b.position, "solute position");
  test::expect_same_vec3(a.velocity, b.velocity, "solute velocity");
}


// polymer-srd's system on the reference: Kremer-Grest chains embedded in the
// SRD solvent, velocity Verlet at 10 MD steps per collision. Over 40
// collisions the total momentum of chains and solvent is kept to round-off,
// no FENE bond reaches R0 (the run would have thrown), and the chains move.
TEST(MpcdSolute, PolymerChainsInTheSolventKeepTotalMomentum) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  PolymerSolutionParams p;
  p.chains = 6;
  p.chain_length = 10;
  p.L = 8.0;
  p.seed = seed;
  RunParams rp = md_params(0.01);
  const MpcdSystem solvent = make_polymer_solvent(p, presets::howard_srd_solvent(static_cast<uint32_t>(seed)));
  Simulation sim(cpu(), make_polymer_chains(p), rp, solvent);
  EXPECT_EQ(sim.steps_per_collision(), 10u);
  const Vec3d p0 = total_momentum(sim);
  const ParticleData<double> md0 = sim.particles();
  sim.run(400);
  expect_vec_near(total_momentum(sim), p0, 1e-10);
  const ParticleData<double> md1 = sim.particles();
  double longest = 0.0;
  for (const Bond& b : sim.system().topology.bonds) {
    const Vec3d d = sim.system().box.min_image(md1.position[b.a] - md1.position[b.b]);
    longest = std::max(longest, std::sqrt(dot(d, d)));
  }
  EXPECT_LT(longest, 1.5);
  EXPECT_GT(longest, 0.9);
  EXPECT_NE(md1.position[0].x, md0.position[0].x);
}

// Solutes between the solvent's slit walls (docs/walls.md) reflect there:
// the MD system carries physics::reflecting_wall of the solvent's slit, and
// over 400 MD steps (100 collisions) of heavy solutes started at v_z = +-1.5
// not one leaves the slit (checked every collision), while more than 10 of
// the 80 come within 0.1 of a wall. Without the MD walls, or with others, the run is refused by name.
TEST(MpcdSolute, SolutesReflectAtTheSlitWalls) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.seed = static_cast<uint32_t>(seed);
  prm.embed_types = 1u;
  prm.wall.density = 5.0;
  prm.wall.speed = 0.1;
  SrdSlitParams f;
  f.lx = f.ly = 6.0;
  f.height = 6.0;
  f.rho = 5.0;
  f.seed = seed;
  const MpcdSystem solvent = make_srd_slit(f, prm);
  const double h = solvent.params.wall.h;
  System solute = mt::random_solute(seed, solvent, 80, 5.0, 2.0);
  std::mt19937_64 gen(seed ^ 0x51177u);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = 0; i < solute.particles.n_local; ++i) {
    solute.particles.position[i].z = 0.95 * h * u(gen);  // inside the slit
    solute.particles.velocity[i].z = i % 2 ? 1.5 : -1.5;
  }
  // Refused: no walls for the solutes, then walls elsewhere.
  for (const double md_h : {0.0, h + 0.5}) {
    System bad = solute;
    bad.wall = physics::reflecting_wall(solvent.params.wall);
    bad.wall.h = md_h;
    try {
      Simulation sim(cpu(), bad, md_params(0.025), solvent);
      ADD_FAILURE() << "accepted MD walls at h = " << md_h;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(md_h == 0.0 ? "need the MD system's walls" : "differ from the MPCD"),
                std::string::npos)
          << e.what();
    }
  }
  solute.wall = physics::reflecting_wall(solvent.params.wall);
  Simulation sim(cpu(), solute, md_params(0.025), solvent);
  std::vector<bool> reached(solute.particles.n_local, false);
  for (int k = 0; k < 100; ++k) {
    sim.run(4);
    const ParticleData<double> md = sim.particles();
    for (std::size_t i = 0; i < md.n_local; ++i) {
      ASSERT_LE(std::fabs(md.position[i].z), h) << "solute " << i << " at step " << 4 * (k + 1);
      if (std::fabs(md.position[i].z) > h - 0.1) reached[i] = true;
    }
  }
  // The walls were met: many solutes came within 0.1 of one.
  EXPECT_GT(std::count(reached.begin(), reached.end(), true), 10);
}

}  // namespace
