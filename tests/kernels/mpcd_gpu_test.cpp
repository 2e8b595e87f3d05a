// GPU (label gpu): the CUDA MPCD solvent (stream, cell list, SRD and MPC-AT
// collisions, cell-order sort) against the CPU reference on fresh random
// solvents, in double and mixed precision; the cell list's membership, also
// for a crowded cell; conservation, reproducibility and the sort's neutrality;
// the fp32 cell-count limit, the memory budget and the per-piece profile.
// (Solute coupling: mpcd_solute_gpu_test.cpp.) Skips (not passes) without a
// device.
//
// Mixed precision stores positions and velocities in fp32, so the reference
// starts from the fp32-rounded state (as the DPD tests do with sys_sp): the
// cell binning then sees the same positions on both sides and the only
// difference left is the fp32 rounding of the stored result, at most 2^-24
// relative per component; the bound is 2^-23. After streaming, fp32
// positions can sit on the other side of a cell face than the reference's
// fp64 ones, so the mixed comparison after streaming restarts the reference
// from the GPU's streamed state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "meso/cuda/cuda_backend.hpp"
#include "meso/cuda/testing.hpp"
#include "meso/core/error.hpp"
#include "meso/run/simulation.hpp"
#include "mpcd_gpu_test_support.hpp"

namespace {

using namespace meso;

using namespace test;  // gpu_test_support.hpp and mpcd_gpu_test_support.hpp

// An orthorhombic solvent (nx x ny x nz cells) drifting with `drift`, so that
// the cell velocities are far from zero.
MpcdSystem drifting_solvent(uint64_t seed, int nx, int ny, int nz, double rho, MpcdParams prm,
                            Vec3d drift) {
  prm.seed = uint32_t(seed);
  MpcdSystem s;
  const double a = prm.cell_size;
  s.box = Box(nx * a, ny * a, nz * a);
  s.params = prm;
  const auto n = std::size_t(rho * nx * ny * nz);
  s.particles.resize(n);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> gauss(0.0, std::sqrt(prm.kT / prm.mass));
  const Vec3d lo = s.box.lo(), Lb = s.box.lengths();
  for (std::size_t i = 0; i < n; ++i) {
    Vec3d r{lo.x + Lb.x * u(g), lo.y + Lb.y * u(g), lo.z + Lb.z * u(g)};
    Image img{0, 0, 0};
    s.box.wrap(r, img);
    s.particles.position[i] = r;
    s.particles.velocity[i] = Vec3d{gauss(g), gauss(g), gauss(g)} + drift;
    s.particles.type[i] = 0;
    s.particles.tag[i] = uint32_t(n - 1 - i);
    s.particles.image[i] = {0, 0, 0};
  }
  return s;
}

MpcdSystem with_particles(MpcdSystem s, const MpcdParticles& p) {
  s.particles = p;
  return s;
}

bool bitwise_equal(const MpcdParticles& a, const MpcdParticles& b) {
  auto same = [](const auto& x, const auto& y) {
    return x.size() == y.size() &&
           std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
  };
  return same(a.position, b.position) && same(a.velocity, b.velocity) && same(a.tag, b.tag) &&
         same(a.image, b.image);
}

// The GPU cell list of collision `step` holds every particle exactly once,
// in the cell MpcdGrid::cell_of gives its position (the reference's rule;
// rows compared as sets: the atomics fill them in no fixed order), and each
// particle's vel.w caches that cell.
void expect_cells_match(MpcdCollideOp& op, const MpcdSystem& sys, const MpcdParticles& p,
                        uint64_t step) {
  const cuda::testing::MpcdCellsForTest got = cuda::testing::mpcd_cells_for_test(op);
  const physics::MpcdGrid grid = sys.grid();
  const MpcdParams& prm = sys.params;
  const Vec3d shift = prm.grid_shift ? physics::srd_grid_shift(step, prm.seed, prm.cell_size)
                                     : Vec3d{0.0, 0.0, 0.0};
  std::vector<std::vector<uint32_t>> want(grid.ncells());
  std::vector<std::pair<uint32_t, uint32_t>> cell_by_tag;
  for (std::size_t i = 0; i < p.size(); ++i) {  // p in tag order: rows come out ascending
    const uint32_t c = grid.cell_of(p.position[i], shift);
    want[c].push_back(p.tag[i]);
    cell_by_tag.emplace_back(p.tag[i], c);
  }
  ASSERT_EQ(got.members.size(), want.size());
  std::size_t total = 0, differ = 0;
  for (std::size_t c = 0; c < want.size(); ++c) {
    std::vector<uint32_t> row = got.members[c];
    std::sort(row.begin(), row.end());
    total += row.size();
    differ += row != want[c];
  }
  EXPECT_EQ(total, p.size());
  EXPECT_EQ(differ, 0u);
  EXPECT_TRUE(got.cell_by_tag == cell_by_tag);
}

// One collision (same seed: the same grid shift, axes, thermostat factors and
// AT draws), then a stream and a second collision, against the reference.
TEST(MpcdGpu, CollisionAndStreamMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const Rule& rule : kRules)
    for (const char* prec : {"double", "mixed"})
      for (int shape = 0; shape < 2; ++shape) {
        SCOPED_TRACE(std::string(rule.name) + " " + prec + (shape ? " orthorhombic" : " cubic"));
        const MpcdSystem base = shape == 0 ? solvent(seed, 10, 10, params_of(rule))
                                           : drifting_solvent(seed, 8, 10, 12, 8, params_of(rule),
                                                              {1.5, -0.7, 0.4});
        const bool fp32 = std::string(prec) == "mixed";
        const MpcdSystem sys = fp32 ? rounded_to_fp32(base) : base;
        const double tol = fp32 ? kMixedTol : 1e-12;
        Simulation gpu(reg.create("cuda", Variant::parse(std::string("precision=") + prec)), sys);
        Simulation cpu(reg.create("cpu", Variant{}), sys);
        gpu.solvent()->collide_op().collide(1);
        cpu.solvent()->collide_op().collide(1);
        const MpcdParticles g1 = gpu.solvent_particles(), c1 = cpu.solvent_particles();
        const double e1 = rel_l2_velocity(g1, c1);
        EXPECT_LT(e1, tol);
        EXPECT_EQ(max_position_diff(sys.box, g1, c1), 0.0);
        expect_cells_match(gpu.solvent()->collide_op(), sys, g1, 1);

        gpu.solvent()->stream_op().stream(2);
        cpu.solvent()->stream_op().stream(2);
        const MpcdParticles g2 = gpu.solvent_particles(), c2 = cpu.solvent_particles();
        const double dr = max_position_diff(sys.box, g2, c2);
        // fp32: the rounding of a coordinate of size up to L/2, 2^-24 L/2 at most.
        const Vec3d L = sys.box.lengths();
        EXPECT_LT(dr, fp32 ? kMixedTol * 0.5 * std::max({L.x, L.y, L.z}) : 1e-12);
        Simulation cpu2(reg.create("cpu", Variant{}), with_particles(sys, g2));
        Simulation& ref = fp32 ? cpu2 : cpu;
        gpu.solvent()->collide_op().collide(2);
        ref.solvent()->collide_op().collide(2);
        const MpcdParticles g3 = gpu.solvent_particles();
        const double e2 = rel_l2_velocity(g3, ref.solvent_particles());
        EXPECT_LT(e2, tol);
        expect_cells_match(gpu.solvent()->collide_op(), sys, g3, 2);
        std::printf("MPCD %s %s %s: v rel L2 after 1 collision %.3e, after stream + collision "
                    "%.3e; max |dr| after stream %.3e\n",
                    rule.name, prec, shape ? "8x10x12 drift" : "10^3", e1, e2, dr);
      }
}

// Ten collision periods with a uniform body force and cell-order sorting
// every third collision, against the reference (double).
TEST(MpcdGpu, DrivenSortedRunMatchesReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  MpcdParams prm = params_of(kRules[1]);
  prm.body_force.g = {0.05, -0.02, 0.01};
  const MpcdSystem sys = solvent(seed, 12, 10, prm);
  Simulation gpu(reg.create("cuda", Variant::parse("precision=double,reorder=cell,sort=3")), sys);
  ASSERT_NE(gpu.solvent()->sort_op(), nullptr);
  Simulation cpu(reg.create("cpu", Variant{}), sys);
  gpu.run(10);
  cpu.run(10);
  const MpcdParticles g = gpu.solvent_particles(), c = cpu.solvent_particles();
  const double ev = rel_l2_velocity(g, c), dr = max_position_diff(sys.box, g, c);
  std::printf("MPCD driven, sorted, 10 collisions: v rel L2 %.3e, max |dr| %.3e\n", ev, dr);
  EXPECT_LT(ev, 1e-11);
  EXPECT_LT(dr, 1e-11 * sys.box.min_length());
}

// Hundreds of particles in one cell (what overflowed HOOMD-blue's fixed-
// capacity cell matrix, and this code's before the CSR list): every particle
// is listed once and the collision is the reference's.
TEST(MpcdGpu, CrowdedCellMatchesReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const Rule& rule : kRules) {
    MpcdSystem sys = solvent(seed, 8, 5, params_of(rule));
    std::mt19937_64 g(seed + 3);
    // 400 particles within 0.1 of a point: split over at most 8 shifted
    // cells, so one cell holds at least 50, ten times the mean.
    std::uniform_real_distribution<double> u(-0.05, 0.05);
    for (std::size_t i = 0; i < 400; ++i) sys.particles.position[i] = {1.5 + u(g), -0.5 + u(g), 2.5 + u(g)};
    Simulation gpu(reg.create("cuda", Variant::parse("precision=double")), sys);
    Simulation cpu(reg.create("cpu", Variant{}), sys);
    // Collision 3 first: the device's step word is set, not advanced from 0.
    gpu.solvent()->collide_op().collide(3);
    cpu.solvent()->collide_op().collide(3);
    const MpcdParticles gp = gpu.solvent_particles();
    const cuda::testing::MpcdCellsForTest cells = cuda::testing::mpcd_cells_for_test(gpu.solvent()->collide_op());
    std::size_t largest = 0;
    for (const auto& row : cells.members) largest = std::max(largest, row.size());
    std::printf("MPCD crowded cell %s: largest cell %zu\n", rule.name, largest);
    EXPECT_GE(largest, 50u);
    EXPECT_LT(rel_l2_velocity(gp, cpu.solvent_particles()), 1e-12) << rule.name;
    expect_cells_match(gpu.solvent()->collide_op(), sys, gp, 3);
  }
}

// Momentum is conserved by every rule (and SRD without thermostat keeps the
// kinetic energy) to round-off: fp64 sums, fp32 storage rounding in mixed.
TEST(MpcdGpu, ConservesMomentum) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const Rule& rule : kRules)
    for (const char* prec : {"double", "mixed"}) {
      SCOPED_TRACE(std::string(rule.name) + " " + prec);
      const MpcdSystem sys = solvent(seed, 10, 10, params_of(rule));
      Simulation gpu(reg.create("cuda", Variant::parse(std::string("precision=") + prec)), sys);
      const MpcdThermo t0 = gpu.solvent_thermo();
      double scale = 0.0;  // sum m |v|: the size of the momentum's round-off
      for (const Vec3d& v : gpu.solvent_particles().velocity) scale += sys.params.mass * std::sqrt(dot(v, v));
      gpu.run(20);
      const MpcdThermo t1 = gpu.solvent_thermo();
      const Vec3d dp = t1.momentum - t0.momentum;
      const double drift = std::sqrt(dot(dp, dp)) / scale;
      const double tol = std::string(prec) == "double" ? 1e-13 : 1e-7;
      std::printf("MPCD %s %s, 20 collisions: |dP| / sum m|v| = %.3e, KE %.6e -> %.6e\n",
                  rule.name, prec, drift, t0.kinetic_energy, t1.kinetic_energy);
      EXPECT_LT(drift, tol);
      if (rule.rule == MpcdRule::srd && !rule.thermostat) {
        EXPECT_NEAR(t1.kinetic_energy, t0.kinetic_energy, tol * t0.kinetic_energy);
      }
    }
}

// Two runs with the same seed are bitwise the same (AT draws, thermostat
// factors, fixed-point cell sums that do not depend on the order the atomics
// filled the cells in), and sorting into cell order changes nothing in tag
// order, bitwise, for the same reason.
TEST(MpcdGpu, ReproducibleAndSortNeutral) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const Rule& rule : kRules)
    for (const char* prec : {"double", "mixed"}) {
      SCOPED_TRACE(std::string(rule.name) + " " + prec);
      const MpcdSystem sys = solvent(seed, 10, 10, params_of(rule));
      const std::string p = std::string("precision=") + prec;
      auto run = [&](const std::string& v) {
        Simulation s(reg.create("cuda", Variant::parse(v)), sys);
        s.run(12);
        return s.solvent_particles();
      };
      const MpcdParticles a = run(p), b = run(p), sorted = run(p + ",reorder=cell,sort=3");
      EXPECT_TRUE(bitwise_equal(a, b));
      EXPECT_TRUE(bitwise_equal(a, sorted));
      EXPECT_LT(rel_l2_velocity(sorted, a), 1e-12);
    }
}

// Cell indices live in a compact uint32 array, not in the fp32 velocity's w
// (a float holds integers exactly only below 2^24, which capped the grid
// while they lived there): a grid beyond 2^24 cells runs in mixed too.
TEST(MpcdGpu, GridsBeyondTwoToThe24CellsInMixed) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const MpcdSystem big = solvent(seed, 257, 0.05, MpcdParams{});  // 257^3 > 2^24 cells, ~850k particles
  Simulation gpu(reg.create("cuda", Variant::parse("precision=mixed")), big);
  gpu.solvent()->collide_op().collide(1);
  expect_cells_match(gpu.solvent()->collide_op(), big, gpu.solvent_particles(), 1);
}

// Memory per solvent particle in mixed at rho = 10 within the 80-byte
// budget, with and without sorting, and the per-piece profile.
TEST(MpcdGpu, DeviceBytesAndProfile) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const MpcdSystem sys = solvent(fresh_seed(), 30, 10, MpcdParams{});
  for (const char* v : {"precision=mixed", "precision=mixed,reorder=cell,sort=5"}) {
    Simulation s(reg.create("cuda", Variant::parse(v)), sys);
    s.run(10);
    auto& info = dynamic_cast<cuda::CudaBackendInfo&>(s.backend());
    const double per = double(info.device_bytes()) / double(sys.particles.size());
    std::printf("MPCD %s: %.1f device bytes per solvent particle\n", v, per);
    EXPECT_LE(per, 80.0);
    const auto prof = info.profile_mpcd(5);
    for (const char* k : {"mpcd_stream", "mpcd_cells", "mpcd_collide"}) {
      ASSERT_TRUE(prof.count(k)) << k;
      EXPECT_GT(prof.at(k).median_us, 0.0);
      EXPECT_GT(prof.at(k).bytes, 0.0);
    }
    EXPECT_EQ(prof.count("mpcd_sort"), std::string(v).find("sort") != std::string::npos ? 1u : 0u);
    for (const auto& [k, p] : prof)
      std::printf("  %-22s %8.1f us  %6.2f GB/s\n", k.c_str(), p.median_us, p.bytes / p.median_us * 1e-3);
  }
}

}  // namespace
