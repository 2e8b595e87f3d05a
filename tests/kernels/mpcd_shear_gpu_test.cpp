// GPU (label gpu): the CUDA MPCD solvent under Lees-Edwards shear (streaming
// across the sheared z faces, the cells across them gathering the other
// side's images, the collision in the images' frame with the cell
// thermostat; one physics header, meso/physics/srd_lees_edwards.hpp) against
// the CPU reference, in double and mixed precision. Skips (not passes)
// without a device. mpcd_gpu_test.cpp's header says why the mixed comparison
// starts the reference from the fp32-rounded state and restarts it from the
// GPU's streamed one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "gpu_test_support.hpp"
#include "meso/cuda/cuda_backend.hpp"
#include "meso/cuda/testing.hpp"
#include "meso/run/simulation.hpp"
#include "mpcd_gpu_test_support.hpp"

namespace {

using namespace meso;
using namespace test;

// 6^3 cells at rho = 8, thermostatted, m = 1.5, sheared at 0.3 (the images
// move at 1.8 along x) and started on the profile; tags shuffled.
MpcdSystem sheared_solvent(uint64_t seed) {
  MpcdParams prm = params_of(kRules[1]);
  prm.shear.rate = 0.3;
  MpcdSystem s = solvent(seed, 6.0, 8.0, prm);
  for (std::size_t i = 0; i < s.particles.size(); ++i)
    s.particles.velocity[i].x += prm.shear.rate * s.particles.position[i].z;
  return s;
}

// The CUDA cell list of collision `step` against the cells the particles'
// sheared images fall in (physics::srd_le_cell_of), as sets of tags.
void expect_sheared_cells_match(MpcdCollideOp& op, const MpcdSystem& sys, const MpcdParticles& p, uint64_t step) {
  const cuda::testing::MpcdCellsForTest got = cuda::testing::mpcd_cells_for_test(op);
  const physics::MpcdGrid grid = sys.grid();
  const MpcdParams& prm = sys.params;
  const Vec3d shift = physics::srd_grid_shift(step, prm.seed, prm.cell_size);
  const physics::LeesEdwards le = prm.shear.at(sys.box.lengths(), double(step) * prm.dt);
  std::vector<std::vector<uint32_t>> want(grid.ncells());
  std::vector<std::pair<uint32_t, uint32_t>> cell_by_tag;
  std::size_t images = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const int n = physics::srd_le_image(grid, p.position[i], shift);
    const uint32_t c = physics::srd_le_cell_of(grid, p.position[i], shift, n, le);
    images += n != 0;
    want[c].push_back(p.tag[i]);
    cell_by_tag.emplace_back(p.tag[i], c);
  }
  EXPECT_GT(images, 0u);
  ASSERT_EQ(got.members.size(), want.size());
  std::size_t differ = 0;
  for (std::size_t c = 0; c < want.size(); ++c) {
    std::vector<uint32_t> row = got.members[c];
    std::sort(row.begin(), row.end());
    differ += row != want[c];
  }
  EXPECT_EQ(differ, 0u);
  EXPECT_TRUE(got.cell_by_tag == cell_by_tag);
}

// A collision, a stream across the sheared faces and a second collision,
// against the reference.
TEST(MpcdShearGpu, CollisionCellsAndStreamMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const char* prec : {"double", "mixed"}) {
    SCOPED_TRACE(prec);
    const bool fp32 = std::string(prec) == "mixed";
    const MpcdSystem base = sheared_solvent(seed);
    const MpcdSystem sys = fp32 ? rounded_to_fp32(base) : base;
    const double tol = fp32 ? kMixedTol : 1e-12;
    Simulation gpu(reg.create("cuda", Variant::parse(std::string("precision=") + prec + ",graphs=off")), sys);
    Simulation cpu(reg.create("cpu", Variant{}), sys);
    gpu.solvent()->collide_op().collide(1);
    cpu.solvent()->collide_op().collide(1);
    const MpcdParticles g1 = gpu.solvent_particles();
    const double e1 = rel_l2_velocity(g1, cpu.solvent_particles());
    EXPECT_LT(e1, tol);
    expect_sheared_cells_match(gpu.solvent()->collide_op(), sys, g1, 1);

    gpu.solvent()->stream_op().stream(2);
    cpu.solvent()->stream_op().stream(2);
    const MpcdParticles g2 = gpu.solvent_particles(), c2 = cpu.solvent_particles();
    const double dr = max_position_diff(sys.box, g2, c2);
    EXPECT_LT(dr, fp32 ? kMixedTol * 0.5 * sys.box.lengths().x : 1e-12);
    int crossed = 0;
    for (std::size_t i = 0; i < g2.size(); ++i) {
      EXPECT_EQ(g2.image[i].z, c2.image[i].z);
      crossed += g2.image[i].z != 0;
    }
    EXPECT_GT(crossed, 0);  // the jumps were exercised
    EXPECT_LT(rel_l2_velocity(g2, c2), tol);
    MpcdSystem restart = sys;
    restart.particles = g2;
    Simulation cpu2(reg.create("cpu", Variant{}), restart);
    Simulation& ref = fp32 ? cpu2 : cpu;
    gpu.solvent()->collide_op().collide(2);
    ref.solvent()->collide_op().collide(2);
    const double e2 = rel_l2_velocity(gpu.solvent_particles(), ref.solvent_particles());
    EXPECT_LT(e2, tol);
    std::printf("MPCD shear %s: v rel L2 after 1 collision %.3e, after stream + collision %.3e; max |dr| after "
                "stream %.3e, %d particles crossed a sheared face\n",
                prec, e1, e2, dr, crossed);
  }
}

// Twenty collision periods in double, sorted every third collision and with
// the collision graph: the crossings, the image cells and the thermostat
// stay the reference's.
TEST(MpcdShearGpu, ShearedRunMatchesReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const MpcdSystem sys = sheared_solvent(seed);
  Simulation gpu(reg.create("cuda", Variant::parse("precision=double,reorder=cell,sort=3")), sys);
  Simulation cpu(reg.create("cpu", Variant{}), sys);
  gpu.run(20);
  cpu.run(20);
  const MpcdParticles g = gpu.solvent_particles(), c = cpu.solvent_particles();
  const double ev = rel_l2_velocity(g, c), dr = max_position_diff(sys.box, g, c);
  std::printf("MPCD shear, sorted, 20 collisions: v rel L2 %.3e, max |dr| %.3e\n", ev, dr);
  EXPECT_LT(ev, 1e-11);
  EXPECT_LT(dr, 1e-11 * sys.box.min_length());
}

}  // namespace
