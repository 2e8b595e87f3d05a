// GPU (label gpu): chain-growth polymerization on the CUDA backend
// ("polymerize", kernels/md/polymerize.cu) against the CPU reference
// (reference/src/md/polymerize.cpp) on fresh random living polymerizations:
// the same bonds in the same order, the same statistics and the same types
// in every precision, in a frozen monomer field and along a Langevin run,
// and the bonded force acting on the bonds the device formed. Skips (not
// passes) without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/living_polymerization.hpp"
#include "meso/ops/polymerize.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

using test::fresh_seed;
using test::make_registry;

// The largest coordinate difference of two states (tag order), minimum image.
double largest_difference(const ParticleData<double>& a, const ParticleData<double>& b, const Box& box) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    const Vec3d d = box.min_image(a.position[i] - b.position[i]);
    worst = std::max({worst, std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)});
  }
  return worst;
}

// Langevin at gamma = 1 (the gate's dynamics), no pair force: no skin.
RunParams langevin(uint32_t seed, double dt) {
  RunParams rp;
  rp.seed = seed;
  rp.integrator = Integrator::langevin;
  rp.gamma = 1.0;
  rp.dt = dt;
  rp.skin = 0.0;
  return rp;
}

void expect_same(const PolymerizeOp& want, const PolymerizeOp& got) {
  ASSERT_EQ(want.formed().size(), got.formed().size());
  for (std::size_t k = 0; k < want.formed().size(); ++k) {
    const Bond &a = want.formed()[k], &b = got.formed()[k];
    ASSERT_TRUE(a.a == b.a && a.b == b.b && a.type == b.type)
        << "bond " << k << ": cpu " << a.a << "-" << a.b << ", cuda " << b.a << "-" << b.b;
  }
  const PolymerizationStats s = want.stats(), t = got.stats();
  EXPECT_EQ(s.attempts, t.attempts);
  EXPECT_EQ(s.reactions, t.reactions);
  EXPECT_EQ(s.contested, t.contested);
  EXPECT_EQ(s.free_monomers, t.free_monomers);
  EXPECT_EQ(s.initial_monomers, t.initial_monomers);
  EXPECT_EQ(s.attempting, t.attempting);
  EXPECT_EQ(s.candidates, t.candidates);
  EXPECT_EQ(s.box_monomers, t.box_monomers);
  EXPECT_EQ(s.growth, t.growth);
}

// A frozen field: the monomers and ends at rest, no pair force, growth
// bonds of k = 1e-30 (their forces, ~1e-30, move no coordinate by an ulp),
// NVE. Nothing moves, so every attempt sees the same
// positions on both backends and every choice, contest and count must agree
// exactly: the chains grow through the field by P = 0.5 every 2 steps,
// dense enough (0.8 per volume, r_c = 1.2: ~5.8 candidates an end) that
// many ends contest a monomer. For fp32 storage the reference runs on the
// positions rounded to fp32, the values the device stores, and both sides
// compute distances in fp64 from them. Reorder (morton2, every 5 steps)
// permutes the device's storage between attempts. Then again with each
// chain's end at its own probability (0.3 and 0.7 in turn: the rate-spread
// control's path).
TEST(CudaPolymerize, FrozenFieldSameBondsAsReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  LivingPolymerizationParams lp;
  lp.initiators = 300;
  lp.monomers = 6000;
  lp.monomer_density = 0.8;
  lp.capture_radius = 1.2;
  lp.probability = 0.5;
  lp.period = 2;
  lp.bond_k = 1e-30;
  lp.seed = seed;
  System sys = make_living_polymerization(lp);
  for (auto& v : sys.particles.velocity) v = {0.0, 0.0, 0.0};
  RunParams rp;
  rp.seed = uint32_t(seed >> 7);
  rp.integrator = Integrator::nve;
  rp.dt = 0.01;
  rp.skin = 0.3;
  for (const char* prec : {"double", "mixed", "single", "double+chains"}) {
    const std::string p = std::string(prec).substr(0, std::string(prec).find('+'));
    SCOPED_TRACE(std::string("precision=") + prec);
    System in = sys;
    if (p != prec)
      for (std::size_t k = 0; k < lp.initiators; ++k) in.polymerization.chain_probability.push_back(k % 2 ? 0.7 : 0.3);
    if (p != "double")
      for (auto& r : in.particles.position) r = vec_cast<double>(vec_cast<float>(r));
    Simulation cpu(reg.create("cpu", Variant{}), in, rp);
    Simulation gpu(reg.create("cuda", Variant::parse("reorder=morton2,sort=5,precision=" + p)), in, rp);
    cpu.run(120);
    gpu.run(120);
    const PolymerizeOp &want = *cpu.plan().polymerize(), &got = *gpu.plan().polymerize();
    expect_same(want, got);
    // The run must test something: most ends grew, and some claims were contested.
    EXPECT_GT(want.stats().reactions, 3 * lp.initiators);
    EXPECT_GT(want.stats().contested, 0u);
    const ParticleData<double> a = cpu.particles(), b = gpu.particles();
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(largest_difference(a, b, in.box), 0.0);  // at rest: nothing moved on either
  }
}

// A Langevin run in double (the gate's dynamics, P = 0.2 every 5 steps):
// the bonds the device formed pull on the chains from the next step on, on
// both backends. Positions agree to the round-off growth of double runs
// (1e-9, as cuda_bonded_test.cpp's 200-step runs); a different bond would
// need a pair within that distance of the capture radius, which a fresh
// configuration meets with probability about 1e-6, so the bonds must agree
// exactly.
TEST(CudaPolymerize, LangevinRunSameBondsAndTrajectory) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  LivingPolymerizationParams lp;
  lp.initiators = 200;
  lp.monomers = 4000;
  lp.probability = 0.2;
  lp.period = 5;
  lp.seed = seed;
  const System sys = make_living_polymerization(lp);
  const RunParams rp = langevin(uint32_t(seed >> 9), 0.01);
  Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
  Simulation gpu(reg.create("cuda", Variant::parse("precision=double")), sys, rp);
  cpu.run(300);
  gpu.run(300);
  expect_same(*cpu.plan().polymerize(), *gpu.plan().polymerize());
  EXPECT_GT(cpu.plan().polymerize()->stats().reactions, lp.initiators / 2);
  const ParticleData<double> a = cpu.particles(), b = gpu.particles();
  EXPECT_EQ(a.type, b.type);
  EXPECT_LT(largest_difference(a, b, sys.box), 1e-9);
  // The new bonds act: their energy is the reference's.
  double e_cpu = 0.0, e_gpu = 0.0;
  for (const auto& f : cpu.plan().forces())
    if (f->name() == "bonded") e_cpu = f->sums().energy;
  for (const auto& f : gpu.plan().forces())
    if (f->name() == "bonded") e_gpu = f->sums().energy;
  EXPECT_GT(e_cpu, 0.0);
  EXPECT_NEAR(e_gpu, e_cpu, 1e-9 * e_cpu);
}

// The living-polymerization gate's settings (400 initiators, P = 0.01 every
// 10 steps, Langevin at dt = 0.05) in double, in chunks of 50 steps: while
// the two backends' positions agree to 1e-9, the bonds formed so far must be
// the reference's. The chains' springs (rest length 0.5) make the dynamics
// chaotic, so the round-off of the two backends (1e-16) grows by a constant
// factor a chunk and reaches 1e-9 after some 1000 steps (measured on an
// H100: 800-1100 steps); the runs must track each other at least 500 steps,
// which a wrong force, draw or bond would break at once.
TEST(CudaPolymerize, GateSettingsTrackTheReferenceUntilRoundOffGrows) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  LivingPolymerizationParams lp;
  lp.initiators = 400;
  lp.monomers = 8000;
  lp.seed = seed;
  const System sys = make_living_polymerization(lp);
  const RunParams rp = langevin(uint32_t(seed >> 11), 0.05);
  Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
  Simulation gpu(reg.create("cuda", Variant::parse("precision=double")), sys, rp);
  uint64_t steps = 0;
  std::size_t compared = 0;
  std::string growth;  // the largest difference after each chunk
  for (double worst = 0.0; steps < 4000;) {
    cpu.run(50);
    gpu.run(50);
    worst = largest_difference(cpu.particles(), gpu.particles(), sys.box);
    char one[32];
    std::snprintf(one, sizeof one, " %.0e", worst);
    growth += one;
    if (worst >= 1e-9) break;
    steps += 50;
    const std::vector<Bond>&fa = cpu.plan().polymerize()->formed(), &fb = gpu.plan().polymerize()->formed();
    ASSERT_EQ(fa.size(), fb.size()) << "after step " << steps;
    for (std::size_t k = 0; k < fa.size(); ++k)
      ASSERT_TRUE(fa[k].a == fb[k].a && fa[k].b == fb[k].b) << "bond " << k << " after step " << steps;
    compared = fa.size();
  }
  RecordProperty("largest_difference_by_chunk", growth);
  EXPECT_GE(steps, 500u) << "positions differ by 1e-9 after " << steps + 50 << " steps:" << growth;
  EXPECT_GT(compared, 100u);
}

// A FENE growth bond formed beyond its R0 (capture radius 1, R0 = 0.8, the
// monomer 0.9 from the end): the step after the reaction stops on both
// backends with the reference's error, naming the bond formed on the device
// by its tags.
TEST(CudaPolymerize, OverstretchedGrownFeneBondIsNamed) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  System sys;
  sys.box = Box(10.0);
  sys.type_names = {"I", "M", "P"};
  sys.type_mass = {1.0, 1.0, 1.0};
  sys.pair = {};
  sys.topology.bond_types = {{"growth", BondKind::fene, {}, {30.0, 0.8, 0.0, 1.0}}};
  auto& p = sys.particles;
  p.resize(2);
  p.position = {{0.0, 0.0, 0.0}, {0.9, 0.0, 0.0}};
  p.velocity = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  p.image = {{0, 0, 0}, {0, 0, 0}};
  p.tag = {0, 1};
  p.type = {0, 1};
  sys.polymerization.period = 1;
  sys.polymerization.capture_radius = 1.0;
  sys.polymerization.probability = 1.0;
  sys.polymerization.monomer_type = 1;
  sys.polymerization.reacted_type = 2;
  sys.polymerization.initiators = {0};
  RunParams rp;
  rp.integrator = Integrator::nve;
  rp.dt = 1e-4;
  rp.skin = 0.0;
  for (const char* backend : {"cpu", "cuda"}) {
    SCOPED_TRACE(backend);
    Simulation sim(reg.create(backend, Variant{}), sys, rp);
    try {
      sim.run(3);
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("bond.fene: bond out of bounds: bond 0 (type growth) between tags 0 and 1"), std::string::npos)
          << m;
      EXPECT_NE(m.find("at step 2"), std::string::npos) << m;
    }
  }
}

}  // namespace
