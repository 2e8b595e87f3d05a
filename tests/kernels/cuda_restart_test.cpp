// Exact restarts on the CUDA backend in double precision, with each
// workload's default variant on the GPU (benchmarks/mesobench/
// variant_defaults.cpp: Morton reordering every 100 steps, fused second
// half for DPD, the atomic list with 4 lanes for LJ): run(a + b) ==
// run(a) + checkpoint + new Simulation + run(b), bit for bit. The
// checkpoint falls between sorts and list builds, so the restart must keep
// the storage order, the list's build positions and the counters.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gpu_test_support.hpp"
#include "support/expect_bitwise.hpp"

namespace meso {
namespace {

// The GPU defaults in double (variant_defaults.cpp), written out so that a
// change of default does not silently change what this test covers.
constexpr const char* kDpdDouble = "precision=double,reorder=morton2,sort=100,pow=fast,fuse=on";
constexpr const char* kLjDouble = "precision=double,nlist=atomic,reorder=morton2,sort=100,tpp=4";

using test::expect_same_vec3;

void expect_exact_restart(const System& sys, const RunParams& rp, const char* variant, uint64_t a, uint64_t b) {
  SCOPED_TRACE(variant);
  const BackendRegistry reg = test::make_registry();
  auto make = [&] { return reg.create("cuda", Variant::parse(variant)); };
  Simulation whole(make(), sys, rp);
  whole.run(a + b);
  {
    // Control: two uninterrupted runs agree, so a difference below is the
    // restart's and not a nondeterministic variant's.
    Simulation again(make(), sys, rp);
    again.run(a + b);
    const ParticleData<double> x = whole.particles(), y = again.particles();
    SCOPED_TRACE("two uninterrupted runs");
    expect_same_vec3(x.velocity, y.velocity, "velocity");
  }
  Simulation first(make(), sys, rp);
  first.run(a);
  // The checkpoint must fall between list builds (steps_since_build > 0),
  // or it would not test that the restart keeps the build positions. Early
  // in a run from a random start the lists are rebuilt every few steps, so
  // step a itself may be a build: then step on, one step at a time.
  uint64_t extra = 0;
  while (first.checkpoint().lists.steps_since_build == 0 && extra < 64 && extra < b) {
    first.run(1);
    ++extra;
  }
  const Checkpoint cp = first.checkpoint();
  ASSERT_TRUE(cp.exact());
  ASSERT_GT(cp.lists.steps_since_build, 0u) << "no step between builds within " << extra << " steps";
  Simulation second(make(), sys, rp, cp);
  second.run(b - extra);
  const ParticleData<double> x = whole.particles(), y = second.particles();
  expect_same_vec3(x.position, y.position, "position");
  expect_same_vec3(x.velocity, y.velocity, "velocity");
  expect_same_vec3(x.force, y.force, "force");
  expect_same_vec3(x.image, y.image, "image");
  EXPECT_EQ(whole.integrator_state().xi, second.integrator_state().xi);
  EXPECT_EQ(whole.integrator_state().eta, second.integrator_state().eta);
  const Checkpoint ex = whole.checkpoint(), ey = second.checkpoint();
  EXPECT_EQ(ex.lists.order, ey.lists.order);  // sorted on the same steps
  EXPECT_EQ(ex.lists.steps_since_sort, ey.lists.steps_since_sort);
}

TEST(CudaRestart, DpdFluidDoubleDefaultIsBitwise) {
  REQUIRE_GPU();
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  DpdFluidParams f;
  f.rho = 3.0;
  f.s = 0.5;
  f.lx = f.ly = f.lz = 20.0;  // 24000 particles
  f.seed = seed;
  expect_exact_restart(make_dpd_fluid(f), RunParams{}, kDpdDouble, 337, 263);
  RunParams gw;
  gw.integrator = Integrator::groot_warren;
  expect_exact_restart(make_dpd_fluid(f), gw, "precision=double,nlist=ballot,reorder=hilbert,sort=50", 137, 163);
}

TEST(CudaRestart, LjLiquidDoubleDefaultIsBitwise) {
  REQUIRE_GPU();
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  LjLiquidParams l;
  l.n = 8000;
  l.packing_fraction = 0.2;
  l.kT = 1.2;
  l.rcut = 3.0;
  l.seed = seed;
  RunParams rp;  // the lj-liquid workload: Nose-Hoover at kT = 1.2
  rp.integrator = Integrator::nvt;
  rp.kT = 1.2;
  rp.seed = static_cast<uint32_t>(seed);
  expect_exact_restart(make_lj_liquid(l), rp, kLjDouble, 337, 263);
  rp.integrator = Integrator::langevin;
  expect_exact_restart(make_lj_liquid(l), rp, "precision=double,nlist=tiled,reorder=morton2,sort=100,tpp=4", 151,
                       149);
}

TEST(CudaRestart, SrdFluidDoubleIsBitwise) {
  REQUIRE_GPU();
  const uint64_t seed = test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const BackendRegistry reg = test::make_registry();
  SrdFluidParams f;
  f.L = 16;
  f.rho = 10;
  f.seed = seed;
  MpcdParams m;
  m.seed = static_cast<uint32_t>(seed);
  const MpcdSystem sys = make_srd_fluid(f, m);
  for (const char* variant : {"precision=double", "precision=double,reorder=cell,sort=25"}) {
    SCOPED_TRACE(variant);
    auto make = [&] { return reg.create("cuda", Variant::parse(variant)); };
    Simulation whole(make(), sys);
    whole.run(90);
    Simulation first(make(), sys);
    first.run(37);
    const Checkpoint cp = first.checkpoint();
    Simulation second(make(), SimulationSetup{std::nullopt, {}, sys}, {}, &cp);
    EXPECT_EQ(second.step(), 37u);
    second.run(53);
    const MpcdParticles x = whole.solvent_particles(), y = second.solvent_particles();
    expect_same_vec3(x.position, y.position, "position");
    expect_same_vec3(x.velocity, y.velocity, "velocity");
    expect_same_vec3(x.image, y.image, "image");
  }
}

}  // namespace
}  // namespace meso
