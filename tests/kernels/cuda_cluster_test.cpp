// GPU (label gpu): cluster-pair lists (nlist=cluster). The tiles of an
// i-cluster's row cover every pair of the reference's list at r_c + skin;
// DPD forces, energy and virial through the tiles follow the reference and
// the full rows; an overflowing row recovers to the same trajectory; what
// the variant cannot run is refused by name. LJ's tiles are in
// CudaLj.ForcesEnergyVirialMatchReference. Skips (not passes) without a
// device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

// Every pair of the reference's list (r_c + skin, by tag) is a candidate of
// the tiles (each particle's i-cluster row expanded to its j-clusters'
// members), on a grid of 7 cells an axis and of 2 (N = 150: the search
// wraps to every cell), for two spatial orders and both cell lists. The
// tiles hold several times the pairs of the list: printed, as what the
// force kernel pays for them.
TEST(CudaClusterList, TilesCoverEveryPairOfTheList) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (uint64_t n : {20000ull, 150ull}) {
    const System sys = two_type_fluid(seed, n);
    Simulation cpu(reg.create("cpu", Variant{}), sys, RunParams{});
    const auto want = probe(cpu).neighbors_by_tag();
    std::size_t listed = 0;
    for (const auto& r : want) listed += r.size();
    for (const char* v : {"nlist=cluster,reorder=hilbert,sort=0", "nlist=cluster,reorder=morton2,cells=sorted",
                          "nlist=cluster,precision=mixed,reorder=cell"}) {
      SCOPED_TRACE(std::string(v) + " N=" + std::to_string(n));
      Simulation gpu(reg.create("cuda", Variant::parse(v)), sys, RunParams{});
      const auto got = probe(gpu).neighbors_by_tag();
      ASSERT_EQ(got.size(), want.size());
      std::size_t missing = 0, candidates = 0;
      for (std::size_t i = 0; i < want.size(); ++i) {
        candidates += got[i].size();
        for (uint32_t j : want[i]) missing += !std::binary_search(got[i].begin(), got[i].end(), j);
      }
      EXPECT_EQ(missing, 0u) << "of " << listed;
      std::printf("N=%llu %s: %zu tile pairs for %zu list pairs (%.2f)\n", (unsigned long long)n, v,
                  candidates, listed, double(candidates) / double(listed));
    }
  }
}

// fp64 forces and velocities after 20 steps within the every-variant bound
// (1e-12) of the CPU reference, fused and not, TEA and Philox; energy and
// pressure with the reference's.
TEST(CudaClusterList, DpdMatchesReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = two_type_fluid(seed, 6000);
  RunParams rp;
  rp.seed = uint32_t(seed);
  // The reference with the same noise (rng); it has no cluster rows or
  // Hilbert order to take.
  const std::pair<const char*, const char*> cases[] = {{"nlist=cluster,reorder=hilbert,sort=0", ""},
                                                       {"nlist=cluster,reorder=morton2,fuse=on,rng=tea", "rng=tea"}};
  for (const auto& [v, ref] : cases) {
    SCOPED_TRACE(v);
    Simulation cpu(reg.create("cpu", Variant::parse(ref)), sys, rp);
    Simulation gpu(reg.create("cuda", Variant::parse(v)), sys, rp);
    const ThermoSample t0 = cpu.thermo(), g0 = gpu.thermo();
    EXPECT_NEAR(g0.potential_energy, t0.potential_energy, 1e-12 * std::fabs(t0.potential_energy));
    EXPECT_NEAR(g0.pressure, t0.pressure, 1e-11 * std::fabs(t0.pressure));
    cpu.run(20);
    gpu.run(20);
    const ParticleData<double> a = gpu.particles(), b = cpu.particles();
    EXPECT_LT(rel_l2(a.force, b.force), 1e-12);
    EXPECT_LT(rel_l2(a.velocity, b.velocity), 1e-12);
  }
}

// A row overflows at an in-graph rebuild (capacity shrunk to 2): the rows
// grow, the step is rebuilt, and the trajectory is bitwise the one that
// never overflowed (rows are in a fixed order: cells' members are sorted).
TEST(CudaClusterList, OverflowRecoversToTheSameTrajectory) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = two_type_fluid(seed, 4000, 0.5);
  RunParams rp;
  rp.seed = uint32_t(seed);
  const Variant v = Variant::parse("nlist=cluster,reorder=hilbert,sort=0,precision=mixed");
  Simulation a(reg.create("cuda", v), sys, rp), b(reg.create("cuda", v), sys, rp);
  a.run(30);
  b.run(30);
  cuda::testing::shrink_neighbor_capacity_for_test(a.plan().nlist(), 2);
  cuda::testing::shrink_neighbor_capacity_for_test(b.plan().nlist(), 0);  // the same forced rebuild
  a.run(50);
  b.run(50);
  EXPECT_GT(a.neighbor_stats().capacity, 2u);
  EXPECT_TRUE(same_state(a.particles(), b.particles()));
}

// Refusals name the value.
TEST(CudaClusterList, RefusesWhatItDoesNotProvide) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const System sys = two_type_fluid(1, 3000);
  auto refused = [&](const char* text, const char* needle, double inner_skin = 0.0) {
    RunParams rp;
    rp.inner_skin = inner_skin;
    try {
      Simulation s(reg.create("cuda", Variant::parse(text)), sys, rp);
      s.run(1);
      ADD_FAILURE() << text << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("nlist=cluster", "reorder");  // the default reorder=none: no spatial order
  refused("nlist=cluster,reorder=hilbert,sort=100", "sort=100");  // clusters spread between sorts
  refused("nlist=cluster,reorder=hilbert,gather=masked", "gather=masked");
  refused("nlist=cluster,reorder=hilbert,gather=record,tpp=2", "tpp=2");
  refused("nlist=cluster,reorder=hilbert", "inner_skin", 0.1);
}

}  // namespace
