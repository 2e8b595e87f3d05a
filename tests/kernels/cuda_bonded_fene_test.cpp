// GPU (label gpu): the CUDA bonded force refuses an overstretched FENE bond,
// and a tabulated bond outside its table, with the reference's message, at
// the start and in the middle of a batch of graph steps (and on the
// host-driven path). Skips (not passes) without a
// device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "cuda_bonded_test_support.hpp"
#include "gpu_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/run/simulation.hpp"
#include "meso/core/topology.hpp"

namespace {

using namespace meso;

using test::add_types;
using test::fresh_seed;
using test::index_of_tags;
using test::make_registry;
using test::polymer_solution;

// The parts of the reference's message: before " has r = ", r, and the step.
struct FeneMessage {
  std::string head;
  double r = 0.0;
  uint64_t step = 0;
};
FeneMessage parse(const std::string& msg) {
  FeneMessage m;
  const std::size_t h = msg.find(" has r = "), s = msg.find(" at step ");
  EXPECT_NE(h, std::string::npos) << msg;
  EXPECT_NE(s, std::string::npos) << msg;
  if (h == std::string::npos || s == std::string::npos) return m;
  m.head = msg.substr(0, h);
  m.r = std::strtod(msg.c_str() + h + 9, nullptr);
  m.step = std::strtoull(msg.c_str() + s + 9, nullptr, 10);
  return m;
}

// Three beads at rest on the x axis at 0, x1 and x2 (no pair force), the
// types of add_types and the given bonds.
System three_beads(double x1, double x2, std::vector<Bond> bonds) {
  System sys;
  sys.box = Box(10.0);
  sys.pair_table<physics::DpdPairParams>().set(0, 0, {0.0, 0.0, 0.0, 1.0, 1.0});
  auto& p = sys.particles;
  p.resize(3);
  const double x[] = {0.0, x1, x2};
  for (uint32_t i = 0; i < 3; ++i) {
    p.position[i] = {x[i], 0.0, 0.0};
    p.velocity[i] = {0.0, 0.0, 0.0};
    p.image[i] = {0, 0, 0};
    p.tag[i] = i;
    p.type[i] = 0;
  }
  add_types(sys.topology);
  sys.topology.bonds = std::move(bonds);
  return sys;
}

TEST(CudaBonded, OverstretchedFeneBondAtTheStartIsRefusedNamingIt) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  // The reference's case (bonded_dynamics_test.cpp): bond 1 at r = 1.6.
  const System sys = three_beads(1.6, 3.0, {{1, 2, 2}, {0, 1, 0}});  // s, then kg
  for (const char* prec : {"double", "mixed", "single"}) {
    SCOPED_TRACE(prec);
    try {
      Simulation sim(reg.create("cuda", Variant::parse(std::string("precision=") + prec)), sys, RunParams{});
      ADD_FAILURE() << "an overstretched FENE bond was accepted";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("bond.fene: bond out of bounds: bond 1 (type kg) between tags 0 and 1 has r = 1.6 >= "
                         "R0 = 1.5 at step 0"),
                std::string::npos)
          << msg;
    }
  }
}

// A tabulated bond outside its table (with_tables: r in [0.3, 2.0]) at the
// start: the same refusal on both backends, naming the bond and the table.
TEST(CudaBonded, TableBondOutsideItsTableIsRefusedNamingIt) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  // s at r = 1, np at r = 2.5 (outside)
  const System sys = test::with_tables(three_beads(1.0, 3.5, {{0, 1, 2}, {1, 2, 3}}));
  std::string want;
  try {
    Simulation sim(reg.create("cpu", Variant{}), sys, RunParams{});
    ADD_FAILURE() << "the reference accepted a bond outside its table";
  } catch (const InputError& e) {
    want = e.what();
  }
  EXPECT_NE(want.find("bond.table: bond 1 (type np) between tags 1 and 2 has r = 2.5 outside its table bond"),
            std::string::npos)
      << want;
  for (const char* prec : {"double", "mixed", "single"}) {
    SCOPED_TRACE(prec);
    try {
      Simulation sim(reg.create("cuda", Variant::parse(std::string("precision=") + prec)), sys, RunParams{});
      ADD_FAILURE() << "a bond outside its table was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), want);
    }
  }
}

// Two FENE bonds (topology indices m and m + 1) whose beads fly apart at a
// relative speed of 40 in a polymer solution: r goes 1.0, 1.20, 1.39, then
// about 1.57 >= R0 = 1.5 at step 3, well clear of R0 at every step, so the
// reference and the GPU fail at the same step on the same bond (the first
// in topology order: m), inside a batch of 20 graph steps (the state frozen
// there) and on the host-driven path. r as printed (6 significant digits):
// double to 1e-5 relative (the print's rounding; the trajectories differ by
// round-off only), mixed to 1e-4 (fp32 positions over 3 steps).
TEST(CudaBonded, FeneBondStretchedDuringARunIsRefusedNamingIt) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  System sys = polymer_solution(seed, 3000, 25.0, false);
  // Four solvent beads (no bonded rows) become the two flying pairs.
  std::vector<bool> bonded(sys.particles.n_local, false);
  for (const Bond& b : sys.topology.bonds) bonded[b.a] = bonded[b.b] = true;
  std::vector<uint32_t> free;
  for (uint32_t t = 0; t < bonded.size() && free.size() < 4; ++t)
    if (!bonded[t]) free.push_back(t);
  ASSERT_EQ(free.size(), 4u);
  const std::vector<uint32_t> idx = index_of_tags(sys.particles);
  const uint32_t m = uint32_t(sys.topology.bonds.size());
  for (int pair = 0; pair < 2; ++pair) {
    const Vec3d centre{pair ? 2.0 : -2.0, 0.5, -1.0};
    for (int end = 0; end < 2; ++end) {
      const uint32_t i = idx[free[2 * pair + end]];
      const double sgn = end ? 1.0 : -1.0;
      sys.particles.position[i] = centre + Vec3d{0.5 * sgn, 0.0, 0.0};
      sys.particles.velocity[i] = {20.0 * sgn, 0.0, 0.0};
      sys.particles.image[i] = {0, 0, 0};
    }
    sys.topology.bonds.push_back({free[2 * pair], free[2 * pair + 1], 0});  // kg
  }
  RunParams rp;
  rp.seed = uint32_t(seed);
  auto message = [&](std::unique_ptr<Backend> b) {
    try {
      Simulation sim(std::move(b), sys, rp);
      sim.run(20);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const FeneMessage want = parse(message(reg.create("cpu", Variant{})));
  EXPECT_EQ(want.head, "bond.fene: bond out of bounds: bond " + std::to_string(m) + " (type kg) between tags " +
                           std::to_string(free[0]) + " and " + std::to_string(free[1]));
  EXPECT_EQ(want.step, 3u);
  EXPECT_GT(want.r, 1.52);
  for (const char* prec : {"double", "mixed"})
    for (bool graphs : {true, false}) {
      SCOPED_TRACE(std::string(prec) + (graphs ? " graphs" : " host path"));
      Variant v = Variant::parse(std::string("reorder=morton2,sort=2,precision=") + prec);
      v.graphs = graphs;
      auto b = reg.create("cuda", v);
      const std::string msg = message(std::move(b));
      const FeneMessage got = parse(msg);
      EXPECT_EQ(got.head, want.head) << msg;
      EXPECT_EQ(got.step, want.step) << msg;
      EXPECT_NEAR(got.r, want.r, (std::string(prec) == "double" ? 1e-5 : 1e-4) * want.r) << msg;
    }
}

}  // namespace
