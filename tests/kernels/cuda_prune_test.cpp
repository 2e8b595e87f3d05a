// GPU (label gpu): dynamic pruning (RunParams::inner_skin). The list the
// forces read is pruned on the GPU from an outer list built at r_c + skin;
// no pair inside r_c is ever missed (checked against brute force after every
// step of a run, through the step graphs and the host-driven loop), the
// pruned rows are really pruned, half rows give bitwise the trajectory of an
// unpruned list, full rows follow the CPU reference, and an overflow of the
// pruned rows recovers to the same trajectory. Skips (not passes) without a
// device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cuda_backend_test_support.hpp"
#include "gpu_test_support.hpp"
#include "meso/cuda/testing.hpp"
#include "meso/core/error.hpp"
#include "meso/run/simulation.hpp"
#include "meso/testing/neighbor_list_probe.hpp"
#include "support/rel_l2.hpp"

namespace {

using namespace meso;

using test::fresh_seed;
using test::make_registry;
using test::probe;
using test::rel_l2;
using test::same_state;
using test::two_type_fluid;

// Skins of these tests: an outer list at r_c + 0.6, pruned to r_c + 0.1. At
// dt = 0.01 in the rho = 3 fluid the fastest particle moves about 0.03 a
// step: a prune every few steps and a rebuild every few prunes.
RunParams pruned_params(uint64_t seed) {
  RunParams rp;
  rp.seed = uint32_t(seed);
  rp.dt = 0.01;
  rp.skin = 0.6;
  rp.inner_skin = 0.1;
  return rp;
}

// The unordered pairs (by tag) that the rows name.
std::set<std::pair<uint32_t, uint32_t>> pairs_of(const std::vector<std::vector<uint32_t>>& rows) {
  std::set<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t a = 0; a < rows.size(); ++a)
    for (uint32_t b : rows[a]) out.insert({std::min(a, b), std::max(a, b)});
  return out;
}

double distance(const Box& box, const Vec3d& a, const Vec3d& b) {
  const Vec3d d = box.min_image(a - b);
  return std::sqrt(dot(d, d));
}

// After every step: every pair nearer than r_c (brute force over all pairs,
// from the positions the step's forces used) is in the pruned rows, and
// every entry is nearer than r_c + 2 inner_skin (pruned at r_c + inner_skin,
// neither particle moved more than inner_skin / 2 since): the forces read a
// pruned list, not the outer one (whose entries reach r_c + 2 skin).
// Pruning and outer rebuilds both happened. Full rows (ballot, tiled),
// half rows, row-major rows (tpp = 4), fp64 and fp32, graphs and not.
TEST(CudaPrunedList, HoldsEveryPairInsideCutoffAtEveryStep) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = two_type_fluid(seed, 1500, 0.5);
  const RunParams rp = pruned_params(seed);
  // 1e-6: the fp32 prune's widening (2^-20 relative) and rounding.
  const double rc = sys.max_rcut(), far = rc + 2.0 * rp.inner_skin + 1e-6;
  for (const char* v : {"nlist=ballot", "nlist=half,precision=mixed,reorder=morton2,sort=20",
                        "nlist=atomic,gather=record,tpp=4,precision=mixed", "nlist=tiled"}) {
    for (bool graphs : {true, false}) {
      SCOPED_TRACE(std::string(v) + (graphs ? " graphs" : " host loop"));
      Variant variant = Variant::parse(v);
      variant.graphs = graphs;
      Simulation s(reg.create("cuda", variant), sys, rp);
      std::size_t missed = 0, stray = 0, inside = 0;
      for (int step = 0; step < 150; ++step) {
        s.run(1);
        const ParticleData<double> p = s.particles();
        std::vector<Vec3d> x(p.n_local);
        for (std::size_t i = 0; i < p.n_local; ++i) x[p.tag[i]] = p.position[i];
        const auto rows = probe(s).neighbors_by_tag();
        const auto listed = pairs_of(rows);
        for (uint32_t a = 0; a < x.size(); ++a)
          for (uint32_t b = a + 1; b < x.size(); ++b)
            if (distance(sys.box, x[a], x[b]) < rc) {
              ++inside;
              missed += !listed.count({a, b});
            }
        for (const auto& [a, b] : listed) stray += distance(sys.box, x[a], x[b]) >= far;
      }
      EXPECT_EQ(missed, 0u) << "of " << inside << " pair-steps inside r_c";
      EXPECT_EQ(stray, 0u);
      const NeighborStats st = s.neighbor_stats();
      EXPECT_GE(st.builds, 3u);
      EXPECT_GT(st.prunes, 2 * st.builds);  // one prune after each build, and more between
      EXPECT_LT(st.capacity, st.outer_capacity);
    }
  }
}

// Half rows sum in fixed point, in any order: a pruned list holds the same
// pairs inside r_c as an unpruned one, so 300 steps are bitwise the same,
// whatever the skins (the outer list rebuilt at other steps, so reordered at
// other steps too), in fp64 and in dpd-fluid's mixed default.
TEST(CudaPrunedList, HalfRowsAreBitwiseTheUnprunedRun) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = two_type_fluid(seed, 8000, 0.5);
  const RunParams pruned = pruned_params(seed);
  RunParams plain = pruned;
  plain.skin = 0.3;
  plain.inner_skin = 0.0;
  for (const char* v : {"nlist=half", "nlist=half,precision=mixed,reorder=morton2,sort=100,pow=fast,fuse=on,noise=fp32"}) {
    SCOPED_TRACE(v);
    Simulation a(reg.create("cuda", Variant::parse(v)), sys, plain);
    Simulation b(reg.create("cuda", Variant::parse(v)), sys, pruned);
    a.run(300);
    b.run(300);
    EXPECT_TRUE(same_state(a.particles(), b.particles()));
    EXPECT_GT(b.neighbor_stats().prunes, b.neighbor_stats().builds);
  }
}

// Full rows sum in list order, which pruning keeps: fp64 forces and
// velocities after 20 steps within the round-off of the CPU reference (the
// reference keeps one list at r_c + skin and ignores inner_skin).
TEST(CudaPrunedList, FullRowsMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = two_type_fluid(seed, 3000);
  const RunParams rp = pruned_params(seed);
  Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
  cpu.run(20);
  const ParticleData<double> want = cpu.particles();
  for (const char* v : {"nlist=ballot", "nlist=atomic,gather=record,tpp=2,fuse=on"}) {
    SCOPED_TRACE(v);
    Simulation gpu(reg.create("cuda", Variant::parse(v)), sys, rp);
    gpu.run(20);
    EXPECT_GT(gpu.neighbor_stats().prunes, gpu.neighbor_stats().builds);
    const ParticleData<double> got = gpu.particles();  // both in tag order
    // The every-variant comparison's fp64 bound (cuda_backend_test.cpp).
    EXPECT_LT(rel_l2(got.force, want.force), 1e-12);
    EXPECT_LT(rel_l2(got.velocity, want.velocity), 1e-12);
  }
}

// Pruned rows too short for the rows: the refresh overflows inside the
// graph, the rows grow and are pruned again from the same outer list, and
// the run goes on as one that never overflowed (bitwise: half rows).
TEST(CudaPrunedList, OverflowRecoversToTheSameTrajectory) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = two_type_fluid(seed, 4000, 0.5);
  const RunParams rp = pruned_params(seed);
  for (const char* v : {"nlist=half", "nlist=ballot"}) {
    SCOPED_TRACE(v);
    Simulation a(reg.create("cuda", Variant::parse(v)), sys, rp);
    Simulation b(reg.create("cuda", Variant::parse(v)), sys, rp);
    const bool half = std::string(v) == "nlist=half";
    a.run(20);
    b.run(20);
    const uint64_t builds_a = a.neighbor_stats().builds, builds_b = b.neighbor_stats().builds;
    cuda::testing::shrink_pruned_capacity_for_test(b.plan().nlist(), 2);
    b.run(1);
    a.run(1);
    EXPECT_GT(b.neighbor_stats().capacity, 2u);
    // b's refresh was forced, a's came when due. Full rows sum in the order
    // of the outer row, which a prune keeps: the same unless one of them
    // rebuilt the outer list at this step.
    const bool rebuilt = a.neighbor_stats().builds != builds_a || b.neighbor_stats().builds != builds_b;
    if (half || !rebuilt) {
      EXPECT_TRUE(same_state(a.particles(), b.particles()));
    }
    a.run(100);
    b.run(100);
    if (half) {
      EXPECT_TRUE(same_state(a.particles(), b.particles()));
    }
  }
}

// Bad values name themselves.
TEST(CudaPrunedList, RefusesBadSkins) {
  RunParams rp;
  rp.skin = 0.3;
  rp.inner_skin = 0.3;
  EXPECT_THROW(rp.validate(), InputError);
  rp.inner_skin = -0.1;
  EXPECT_THROW(rp.validate(), InputError);
  rp.inner_skin = 0.1;
  rp.rebuild_every = 10;
  try {
    rp.validate();
    ADD_FAILURE() << "rebuild_every with pruning accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("inner_skin"), std::string::npos) << e.what();
  }
}

}  // namespace
