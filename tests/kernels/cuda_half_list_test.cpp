// GPU (label gpu): DPD on half rows (nlist=half). The rows hold each pair of
// the reference's full list exactly once, split evenly by index parity; the
// fixed-point forces do not depend on the order of the particles, so
// trajectories are bitwise the same with any reordering; energy and virial
// equal the full list's. The comparison with
// the CPU reference over every precision, rng, noise, fuse and integrator is
// a layout of CudaDpdBackend.GatherAndNoiseAxesMatchReference. Skips (not
// passes) without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cuda_backend_test_support.hpp"
#include "gpu_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/run/simulation.hpp"
#include "meso/testing/neighbor_list_probe.hpp"

namespace {

using namespace meso;

using test::fresh_seed;
using test::make_registry;
using test::probe;
using test::same_state;
using test::two_type_fluid;

using PairSet = std::set<std::pair<uint32_t, uint32_t>>;

// The unordered pairs of rows by tag (a < b), counting how many rows name
// each: `twice` gets those named more than once.
PairSet pairs_of(const std::vector<std::vector<uint32_t>>& rows, std::size_t& twice) {
  PairSet out;
  twice = 0;
  for (uint32_t a = 0; a < rows.size(); ++a)
    for (uint32_t b : rows[a]) twice += !out.insert({std::min(a, b), std::max(a, b)}).second;
  return out;
}

// Each pair of the reference's full list is in exactly one half row, on a
// grid of 7 cells an axis (image shifts by stencil cell) and of 2 (minimum
// image per pair), with and without reordering and with both cell lists.
// The parity split keeps rows even: the longest half row is well below the
// longest full one (at N = 1M: 24 against 38).
TEST(CudaDpdHalfList, RowsHoldEachPairOnce) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (uint64_t n : {20000ull, 150ull}) {
    const System sys = two_type_fluid(seed, n);
    Simulation cpu(reg.create("cpu", Variant{}), sys, RunParams{});
    std::size_t twice = 0;
    const auto full = probe(cpu).neighbors_by_tag();
    const PairSet want = pairs_of(full, twice);
    ASSERT_EQ(twice, want.size());  // a full list names every pair from both sides
    std::size_t longest_full = 0;
    for (const auto& r : full) longest_full = std::max(longest_full, r.size());
    for (const char* v : {"nlist=half", "nlist=half,cells=sorted,reorder=morton2",
                          "nlist=half,precision=mixed,reorder=hilbert"}) {
      SCOPED_TRACE(std::string(v) + " N=" + std::to_string(n));
      Simulation gpu(reg.create("cuda", Variant::parse(v)), sys, RunParams{});
      const auto half = probe(gpu).neighbors_by_tag();
      const PairSet got = pairs_of(half, twice);
      EXPECT_EQ(twice, 0u);
      if (std::string(v).find("mixed") == std::string::npos) {
        EXPECT_TRUE(got == want) << got.size() << " pairs against " << want.size();
      } else {
        // fp32 builds widen r_list by 2^-20: they may add pairs, never drop one.
        EXPECT_TRUE(std::includes(got.begin(), got.end(), want.begin(), want.end()));
        EXPECT_LT(got.size(), want.size() + want.size() / 1000 + 1);
      }
      std::size_t longest = 0;
      for (const auto& r : half) longest = std::max(longest, r.size());
      std::printf("N=%llu %s: longest half row %zu, full %zu\n", (unsigned long long)n, v, longest, longest_full);
      if (n > 1000) {
        EXPECT_LT(longest, longest_full * 3 / 4);
      }
    }
  }
}

// Integer sums do not see the order of their terms, and a pair's force is
// bitwise antisymmetric: 300 steps with no reordering, Morton and Hilbert
// orders, sorted cells and the host-driven path agree bit for bit, by tag,
// in double and in mixed (fp32 noise, fused half-step), on half rows and
// from the cells (nlist=cells, sorted every step: also with 4 and 32 lanes
// a particle), and a second run repeats the first. The full lists cannot do
// this (their sums follow the list order).
TEST(CudaDpdHalfList, TrajectoryIsBitwiseAnyOrder) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = two_type_fluid(seed, 8000, 0.5);
  RunParams rp;
  rp.seed = uint32_t(seed);
  auto run = [&](const std::string& v) {
    Simulation s(reg.create("cuda", Variant::parse(v)), sys, rp);
    s.run(300);
    return s.particles();
  };
  for (const std::string list : {"nlist=half", "nlist=cells"})
    for (const char* prec : {",precision=double", ",precision=mixed,pow=fast,fuse=on,noise=fp32"}) {
      const std::string base = list + prec;
      SCOPED_TRACE(base);
      const ParticleData<double> first = run(base);
      EXPECT_TRUE(same_state(first, run(base)));
      std::vector<std::string> others = {",reorder=morton2,sort=20", ",reorder=hilbert,sort=7,cells=sorted",
                                         ",reorder=cell,sort=1", ",graphs=off"};
      if (list == "nlist=cells") others.insert(others.end(), {",tpp=4", ",tpp=32,cells=sorted"});
      for (const std::string& other : others) EXPECT_TRUE(same_state(first, run(base + other))) << other;
    }
}

// Energy and virial count each pair once, in full: the same as the full
// list's within fp64 summation-order round-off (double), at the start and
// after 50 steps.
TEST(CudaDpdHalfList, EnergyAndPressureMatchFullList) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  System sys = two_type_fluid(seed, 6000, 0.5);
  sys.body_force.g = {0.0, 0.0, 0.05};
  sys.body_force.reverse_axis = 0;
  RunParams rp;
  rp.seed = uint32_t(seed);
  Simulation full(reg.create("cuda", Variant::parse("nlist=tiled")), sys, rp);
  Simulation half(reg.create("cuda", Variant::parse("nlist=half")), sys, rp);
  for (int k = 0; k < 2; ++k) {
    const ThermoSample a = half.thermo(), b = full.thermo();
    EXPECT_NEAR(a.potential_energy, b.potential_energy, 1e-12 * std::fabs(b.potential_energy));
    EXPECT_NEAR(a.pressure, b.pressure, 1e-11 * std::fabs(b.pressure));
    EXPECT_NEAR(a.temperature, b.temperature, 1e-10 * b.temperature);
    full.run(50);
    half.run(50);
  }
}

// A box of 3 (two cells an axis: the minimum image per pair in the tiled
// builder) over 2000 steps, half rows and the tiled builder's full rows, in
// double and mixed: no stray list entry (the tiled builder's padding once
// folded to a distance of 0 here and put index 0xffffffff into rows), and
// DPD's pair forces conserve momentum: in double the total stays within
// round-off of its start (per particle, 1e-12).
TEST(CudaDpdHalfList, SmallBoxConservesMomentum) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = two_type_fluid(seed, 81, 0.5);
  ASSERT_NEAR(sys.box.lengths().x, 3.0, 1e-12);
  RunParams rp;
  rp.seed = uint32_t(seed);
  auto momentum = [&](const ParticleData<double>& p) {
    Vec3d m{0.0, 0.0, 0.0};
    for (std::size_t i = 0; i < p.n_local; ++i) m += sys.type_mass[p.type[i]] * p.velocity[i];
    return m;
  };
  for (const char* v : {"nlist=half", "nlist=tiled", "nlist=half,precision=mixed,reorder=morton2,sort=20,fuse=on",
                        "nlist=tiled,precision=mixed"}) {
    SCOPED_TRACE(v);
    Simulation s(reg.create("cuda", Variant::parse(v)), sys, rp);
    const Vec3d p0 = momentum(s.particles());
    s.run(2000);
    const Vec3d dp = momentum(s.particles()) - p0;
    if (std::string(v).find("mixed") == std::string::npos) {
      EXPECT_LT(std::sqrt(dot(dp, dp)) / double(sys.particles.n_local), 1e-12);
    }
  }
}

// Refusals name the value: other pair styles, other traversals, tpp.
TEST(CudaDpdHalfList, RefusesWhatItDoesNotProvide) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const System sys = two_type_fluid(1, 3000);
  auto refused = [&](const char* text, const char* needle) {
    try {
      Simulation s(reg.create("cuda", Variant::parse(text)), sys, RunParams{});
      s.run(1);
      ADD_FAILURE() << text << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("nlist=half,precision=mixed,gather=masked", "gather=masked");
  refused("nlist=half,precision=mixed,gather=record,tpp=4", "nlist=half");
}

}  // namespace
