// The reference Verlet list equals an O(N^2) search over all pairs, on random
// configurations drawn fresh per run (the seed is printed on failure).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "meso/core/error.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "support/neighbors_by_tag.hpp"

namespace {

using namespace meso;
using meso::testing::neighbors_by_tag;

std::vector<std::vector<uint32_t>> brute_force(const System& sys, double r_list) {
  const auto& p = sys.particles;
  std::vector<std::vector<uint32_t>> out(p.n_local);
  for (std::size_t i = 0; i < p.n_local; ++i)
    for (std::size_t j = 0; j < p.n_local; ++j) {
      if (i == j) continue;
      const Vec3d d = sys.box.min_image(p.position[i] - p.position[j]);
      if (dot(d, d) < r_list * r_list) out[p.tag[i]].push_back(p.tag[j]);
    }
  return out;  // ascending j: already sorted
}

System random_system(Box box, std::size_t n, uint64_t seed, double cluster_fraction) {
  DpdFluidParams fp;
  fp.n = n;
  fp.seed = seed;
  System sys = make_dpd_fluid(fp);
  sys.box = box;
  std::mt19937_64 gen(seed);
  const Vec3d L = box.lengths();
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  for (std::size_t i = 0; i < n; ++i) {
    // A fraction of the particles crowd into a small ball near a corner, so
    // some cells hold many times the mean occupancy (and lists overflow).
    const double f = (static_cast<double>(i) < cluster_fraction * n) ? 0.08 : 1.0;
    Vec3d r{0.49 * L.x + f * u(gen) * L.x, 0.49 * L.y + f * u(gen) * L.y, f * u(gen) * L.z};
    Image img{0, 0, 0};
    box.wrap(r, img);
    sys.particles.position[i] = r;
  }
  return sys;
}

void expect_matches_brute_force(const System& sys, double skin, const std::string& what,
                                const char* variant = "") {
  RunParams rp;
  rp.skin = skin;
  Simulation b(std::make_unique<reference::CpuBackend<double>>(Variant::parse(variant)), sys, rp);
  const auto expected = brute_force(sys, sys.max_rcut() + skin);
  const auto got = neighbors_by_tag(b);
  ASSERT_EQ(got.size(), expected.size());
  std::size_t pairs = 0;
  for (std::size_t t = 0; t < got.size(); ++t) {
    ASSERT_EQ(got[t], expected[t]) << what << ": particle tag " << t;
    pairs += got[t].size();
  }
  EXPECT_GT(pairs, 0u) << what << ": a test without pairs tests nothing";
}

class NeighborListVsBruteForce : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = std::random_device{}();
    RecordProperty("seed", std::to_string(seed_));
  }
  uint64_t seed_ = 0;
};

TEST_F(NeighborListVsBruteForce, Dense) {
  SCOPED_TRACE("seed " + std::to_string(seed_));
  expect_matches_brute_force(random_system(Box(6.0), 1296, seed_, 0.0), 0.3, "rho=6");
  expect_matches_brute_force(random_system(Box(6.0), 1296, seed_, 0.0), 0.3, "rho=6 cell-sorted",
                             "reorder=cell");
}

TEST_F(NeighborListVsBruteForce, Dilute) {
  SCOPED_TRACE("seed " + std::to_string(seed_));
  expect_matches_brute_force(random_system(Box(12.0, 9.0, 7.0), 300, seed_, 0.0), 0.3, "rho=0.4");
}

TEST_F(NeighborListVsBruteForce, SmallestLegalBox) {
  SCOPED_TRACE("seed " + std::to_string(seed_));
  // L = 2 (r_c + skin) exactly: two cells per axis, every stencil wraps onto itself.
  expect_matches_brute_force(random_system(Box(2.6), 53, seed_, 0.0), 0.3, "L=2.6");
  expect_matches_brute_force(random_system(Box(2.6, 5.3, 3.9), 160, seed_ + 1, 0.0), 0.3,
                             "mixed 2/3/4 cells");
}

TEST_F(NeighborListVsBruteForce, ClusteredOverflowsAndGrows) {
  SCOPED_TRACE("seed " + std::to_string(seed_));
  // 40% of 2000 particles in a ball of ~1 unit: hundreds of neighbors each,
  // far beyond the initial 64 slots.
  const System sys = random_system(Box(12.0), 2000, seed_, 0.4);
  expect_matches_brute_force(sys, 0.3, "clustered");
  Simulation b(std::make_unique<reference::CpuBackend<double>>(Variant{}), sys, RunParams{});
  EXPECT_GT(b.neighbor_stats().capacity, 64u);
  EXPECT_GE(b.neighbor_stats().capacity, b.neighbor_stats().max_neighbors);
}

TEST_F(NeighborListVsBruteForce, FloatStorage) {
  SCOPED_TRACE("seed " + std::to_string(seed_));
  // Float storage: compare against a brute force on the float-rounded state.
  System sys = random_system(Box(7.0), 1000, seed_, 0.0);
  for (auto& r : sys.particles.position) r = vec_cast<double>(vec_cast<float>(r));
  RunParams rp;
  Simulation b(std::make_unique<reference::CpuBackend<float>>(Variant::parse("precision=single")), sys, rp);
  const auto expected = brute_force(sys, sys.max_rcut() + rp.skin);
  EXPECT_EQ(neighbors_by_tag(b), expected);
}

// nlist=cells is a CUDA traversal with no list (every step a sort into
// cells): the reference keeps its Verlet list, so it refuses the value by
// name rather than run something else under its label.
TEST(ReferenceNeighborList, RefusesCells) {
  DpdFluidParams fp;
  fp.n = 500;
  const System sys = make_dpd_fluid(fp);
  try {
    Simulation s(std::make_unique<reference::CpuBackend<double>>(Variant::parse("nlist=cells")), sys, RunParams{});
    ADD_FAILURE() << "nlist=cells accepted by the cpu backend";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nlist=cells"), std::string::npos) << e.what();
  }
}

}  // namespace
