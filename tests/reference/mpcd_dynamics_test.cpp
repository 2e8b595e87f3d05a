// Runs of the MPCD reference over many collisions, through the engine's
// Simulation of a solvent and the CpuBackend where it matters: conservation, the
// relaxation of a hot solvent to kT by the AT rule and by the cell
// thermostat, sorting that leaves the trajectory bitwise unchanged, the same
// seed giving the same run, and the backend's solvent plumbing.
#include <gtest/gtest.h>

#include <cmath>

#include "meso/reference/cpu_backend.hpp"
#include "meso/reference/mpcd_collide.hpp"
#include "meso/reference/mpcd_sort.hpp"
#include "meso/reference/mpcd_stream.hpp"
#include "meso/run/simulation.hpp"
#include "support/mpcd_solvent.hpp"

namespace {

using namespace meso;
namespace mt = meso::testing;  // ::testing is GoogleTest's
using mt::fresh_seed;

std::unique_ptr<Backend> cpu(const std::string& variant = "") {
  const Variant v = Variant::parse(variant);
  if (v.precision == Precision::single) return std::make_unique<reference::CpuBackend<float>>(v);
  return std::make_unique<reference::CpuBackend<double>>(v);
}

TEST(MpcdRun, SrdConservesTotalMomentumAndEnergy) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.seed = static_cast<uint32_t>(seed);
  prm.mass = 1.3;
  const MpcdSystem sys = mt::random_solvent(seed, prm, 6, 6, 5, 10.0);
  Simulation sim(cpu(), sys);
  const MpcdThermo t0 = sim.solvent_thermo();
  sim.run(100);
  const MpcdThermo t1 = sim.solvent_thermo();
  EXPECT_EQ(t1.step, 100u);
  // Round-off only: each collision rotates relative velocities in fp64.
  // Scale: |P| ~ N m |drift| ~ 700, K ~ 3000, 100 collisions of 1800 particles.
  EXPECT_NEAR(t1.momentum.x, t0.momentum.x, 1e-9);
  EXPECT_NEAR(t1.momentum.y, t0.momentum.y, 1e-9);
  EXPECT_NEAR(t1.momentum.z, t0.momentum.z, 1e-9);
  EXPECT_NEAR(t1.kinetic_energy, t0.kinetic_energy, 1e-12 * t0.kinetic_energy);
  // ... while the particles did move and collide.
  const MpcdParticles p = sim.solvent_particles();
  EXPECT_NE(p.velocity[0].x, sys.particles.velocity[0].x);
}

// A solvent started at 3 kT relaxes to kT: mean kinetic temperature over
// collisions 101..300 of 2560 particles (8^3 cells, rho = 5). One sample
// scatters by sqrt(2 / (3N)) = 0.016; the 200-collision mean scattered by
// 0.0012 (standard deviation over 30 fresh seeds of both tests), so the
// tolerance 0.01 is 8 of those, while a thermostat drawing the energy of
// 3n instead of 3(n - 1) degrees of freedom would be off by ~20%.
double relaxed_temperature(MpcdRule rule, bool thermostat, uint64_t seed, Vec3d* momentum) {
  MpcdParams prm;
  prm.kT = 3.0;
  prm.dt = 0.5;  // a few cells' worth of mixing per collision: faster relaxation
  prm.seed = static_cast<uint32_t>(seed);
  SrdFluidParams f;
  f.L = 8.0;
  f.rho = 5.0;
  f.seed = seed;
  MpcdSystem sys = make_srd_fluid(f, prm);
  sys.params.kT = 1.0;
  sys.params.rule = rule;
  sys.params.thermostat = thermostat;
  Simulation sim(cpu(), sys);
  sim.run(100);
  double sum = 0.0;
  int n = 0;
  sim.run(200, 1, [&](const ThermoSample& t) { sum += t.temperature, ++n; });
  *momentum = sim.solvent_thermo().momentum;
  return sum / n;
}

TEST(MpcdRun, AtRuleRelaxesAHotSolventToKT) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  Vec3d P{};
  EXPECT_NEAR(relaxed_temperature(MpcdRule::at, false, seed, &P), 1.0, 0.01);
  EXPECT_NEAR(P.x, 0.0, 1e-10);  // the initial state has zero momentum; AT keeps it
  EXPECT_NEAR(P.y, 0.0, 1e-10);
  EXPECT_NEAR(P.z, 0.0, 1e-10);
}

TEST(MpcdRun, CellThermostatRelaxesAHotSolventToKT) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  Vec3d P{};
  EXPECT_NEAR(relaxed_temperature(MpcdRule::srd, true, seed, &P), 1.0, 0.01);
  EXPECT_NEAR(P.x, 0.0, 1e-10);
}

// Sorting permutes the storage, and the reference sums each cell in tag
// order, so a sorted run is the unsorted run bit for bit (not merely to
// round-off), in both storage precisions and for every rule.
template <class Real>
void check_sort_invariance() {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.seed = static_cast<uint32_t>(seed);
  prm.dt = 0.3;
  prm.body_force.g = {0.05, 0.0, 0.0};
  prm.body_force.reverse_axis = 2;
  const MpcdSystem sys = mt::random_solvent(seed, prm, 5, 4, 6, 7.0);
  for (int mode = 0; mode < 3; ++mode) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    const MpcdRule rule = mode == 2 ? MpcdRule::at : MpcdRule::srd;
    auto plain = mt::load<Real>(sys), sorted = mt::load<Real>(sys);
    plain.params.thermostat = sorted.params.thermostat = mode == 1;
    for (uint64_t step = 1; step <= 30; ++step) {
      reference::mpcd_stream(plain);
      reference::mpcd_stream(sorted);
      if (step % 3 == 0) reference::mpcd_sort(sorted);
      reference::mpcd_collide(plain, rule, step);
      reference::mpcd_collide(sorted, rule, step);
      ASSERT_TRUE(mt::bitwise_equal(mt::by_tag(plain), mt::by_tag(sorted)))
          << "after collision " << step;
    }
    EXPECT_NE(plain.tag, sorted.tag);  // the storage orders did differ
  }
}

TEST(MpcdRun, SortedAndUnsortedRunsAreBitwiseEqual) { check_sort_invariance<double>(); }
TEST(MpcdRun, SortedAndUnsortedRunsAreBitwiseEqualInFloat) { check_sort_invariance<float>(); }

TEST(MpcdRun, SortVariantThroughTheSimulationIsBitwiseEqual) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.seed = static_cast<uint32_t>(seed);
  const MpcdSystem sys = mt::random_solvent(seed, prm, 5, 5, 5, 6.0);
  Simulation a(cpu(), sys), b(cpu("reorder=cell,sort=2"), sys);
  ASSERT_EQ(a.solvent()->sort_op(), nullptr);
  ASSERT_NE(b.solvent()->sort_op(), nullptr);
  a.run(20);
  b.run(20);
  EXPECT_TRUE(mt::bitwise_equal(a.solvent_particles(), b.solvent_particles()));
}

// sort=0 sorts at every collision (the cell list is rebuilt at every one),
// as it reorders at every list rebuild for MD: one meaning of the axis
// (meso/run/step_rules.hpp). It once meant "never" for the solvent.
TEST(MpcdRun, SortZeroSortsEveryCollision) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.seed = static_cast<uint32_t>(seed);
  const MpcdSystem sys = mt::random_solvent(seed, prm, 5, 5, 5, 6.0);
  Simulation a(cpu(), sys), every(cpu("reorder=cell,sort=0"), sys), each(cpu("reorder=cell,sort=1"), sys);
  ASSERT_NE(every.solvent()->sort_op(), nullptr);
  a.run(12);
  every.run(12);
  each.run(12);
  EXPECT_TRUE(mt::bitwise_equal(a.solvent_particles(), every.solvent_particles()));
  EXPECT_TRUE(mt::bitwise_equal(every.solvent_particles(), each.solvent_particles()));
}

// A step of a solvent alone is one collision period of its stage of the plan
// (HOOMD-blue's mpcd::Integrator): stream dt_c, then the collision numbered
// by the step, as composed by hand from the operations.
TEST(MpcdRun, SolventStepIsStreamThenCollide) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm;
  prm.seed = static_cast<uint32_t>(seed);
  const MpcdSystem sys = mt::random_solvent(seed, prm, 5, 4, 6, 6.0);
  Simulation planned(cpu(), sys), by_hand(cpu(), sys);
  planned.run(7);
  EXPECT_EQ(planned.steps_per_collision(), 1u);
  for (uint64_t c = 1; c <= 7; ++c) {
    by_hand.solvent()->stream_op().stream(c);
    by_hand.solvent()->collide_op().collide(c);
  }
  EXPECT_TRUE(mt::bitwise_equal(planned.solvent_particles(), by_hand.solvent_particles()));
  EXPECT_EQ(planned.thermo().step, 7u);
  EXPECT_EQ(planned.thermo().kinetic_energy, planned.solvent_thermo().kinetic_energy);
}

TEST(MpcdRun, SameSeedSameRunBitwise) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (MpcdRule rule : {MpcdRule::srd, MpcdRule::at}) {
    SCOPED_TRACE(to_string(rule));
    MpcdParams prm;
    prm.seed = static_cast<uint32_t>(seed);
    prm.rule = rule;
    prm.thermostat = rule == MpcdRule::srd;
    SrdFluidParams f;
    f.L = 5.0;
    f.seed = seed;
    const MpcdSystem sys = make_srd_fluid(f, prm);
    Simulation a(cpu(), sys), b(cpu(), sys);
    a.run(15);
    b.run(15);
    EXPECT_TRUE(mt::bitwise_equal(a.solvent_particles(), b.solvent_particles()));
    MpcdSystem other = sys;
    other.params.seed = prm.seed + 1;  // another collision seed, same initial state
    Simulation c(cpu(), other);
    c.run(15);
    EXPECT_FALSE(mt::bitwise_equal(a.solvent_particles(), c.solvent_particles()));
  }
}

TEST(CpuBackendMpcd, SolventInAndOutInTagOrder) {
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const MpcdSystem sys = mt::random_solvent(seed, MpcdParams{}, 3, 4, 5, 4.0);
  for (const char* v : {"", "precision=single"}) {
    SCOPED_TRACE(v);
    auto be = cpu(v);
    // Operations may exist before the solvent; running one without is refused.
    auto stream = be->create_as<MpcdStreamOp>("mpcd/stream");
    EXPECT_THROW(stream->stream(1), InputError);
    MpcdParticles out;
    EXPECT_THROW(be->get_mpcd(out), InputError);
    be->set_mpcd(sys);
    be->get_mpcd(out);
    ASSERT_EQ(out.size(), sys.particles.size());
    for (std::size_t k = 1; k < out.size(); ++k) ASSERT_LT(out.tag[k - 1], out.tag[k]);
    for (std::size_t i = 0; i < sys.particles.size(); ++i) {
      const uint32_t k = sys.particles.tag[i] - 1000u;  // tags are 1000 + a permutation
      ASSERT_EQ(out.tag[k], sys.particles.tag[i]);
      // Float storage rounds to 2^-24 relative; double is exact.
      EXPECT_NEAR(out.position[k].x, sys.particles.position[i].x, 3e-7);
      EXPECT_NEAR(out.velocity[k].z, sys.particles.velocity[i].z, 3e-7);
    }
    for (const char* name : {"mpcd/stream", "mpcd/sort", "mpcd/collide/srd", "mpcd/collide/at"})
      EXPECT_NO_THROW(be->create(name)) << name;
    EXPECT_NO_THROW(stream->stream(1));
    // A new MD system leaves the solvent in place.
    DpdFluidParams d;
    d.n = 200;
    be->set_system(make_dpd_fluid(d), RunParams{});
    MpcdParticles again;
    be->get_mpcd(again);
    EXPECT_EQ(again.size(), out.size());
  }
  MpcdSystem bad = sys;
  bad.box = Box(3.0, 4.0, 5.5);  // 5.5 is not a whole number of cells
  EXPECT_THROW(cpu()->set_mpcd(bad), InputError);
}

}  // namespace
