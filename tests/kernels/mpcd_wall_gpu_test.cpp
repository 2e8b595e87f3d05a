// GPU (label gpu): the CUDA MPCD solvent between slit walls (bounce-back
// streaming, virtual particles in the cut cells, no thermostat there; one
// physics header, meso/physics/srd_slit.hpp) against the CPU reference, in
// double and mixed precision, with a body force along x and moving walls.
// Skips (not passes) without a device. mpcd_gpu_test.cpp's header says why
// the mixed comparison starts the reference from the fp32-rounded state and
// restarts it from the GPU's streamed one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "gpu_test_support.hpp"
#include "meso/cuda/cuda_backend.hpp"
#include "meso/run/simulation.hpp"
#include "mpcd_gpu_test_support.hpp"

namespace {

using namespace meso;
using namespace test;

// A slit of 6 x 5 cells across and 6 cells high (box 8 cells along z), the
// thermostatted solvent driven along x between walls moving at -+0.3, tags
// shuffled.
MpcdSystem slit_solvent(uint64_t seed, bool virtual_particles) {
  MpcdParams prm = params_of(kRules[1]);  // srd with the cell thermostat, m = 1.5
  prm.seed = uint32_t(seed ^ (seed >> 32));
  prm.body_force.g = {0.05, 0.0, 0.0};
  prm.wall.speed = 0.3;
  prm.wall.density = 8.0;
  prm.wall.virtual_particles = virtual_particles;
  SrdSlitParams f;
  f.lx = 6.0;
  f.ly = 5.0;
  f.height = 6.0;
  f.rho = 8.0;
  f.seed = seed;
  MpcdSystem s = make_srd_slit(f, prm);
  std::mt19937_64 g(seed + 7);
  std::shuffle(s.particles.tag.begin(), s.particles.tag.end(), g);
  return s;
}

// A collision, a stream (which reflects particles at the walls) and a second
// collision, against the reference.
TEST(MpcdWallGpu, SlitCollisionAndStreamMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const bool virt : {true, false})
    for (const char* prec : {"double", "mixed"}) {
      SCOPED_TRACE(std::string(prec) + (virt ? " virtual particles" : " no virtual particles"));
      const bool fp32 = std::string(prec) == "mixed";
      const MpcdSystem base = slit_solvent(seed, virt);
      const MpcdSystem sys = fp32 ? rounded_to_fp32(base) : base;
      const double tol = fp32 ? kMixedTol : 1e-12;
      Simulation gpu(reg.create("cuda", Variant::parse(std::string("precision=") + prec)), sys);
      Simulation cpu(reg.create("cpu", Variant{}), sys);
      gpu.solvent()->collide_op().collide(1);
      cpu.solvent()->collide_op().collide(1);
      const double e1 = rel_l2_velocity(gpu.solvent_particles(), cpu.solvent_particles());
      EXPECT_LT(e1, tol);

      gpu.solvent()->stream_op().stream(2);
      cpu.solvent()->stream_op().stream(2);
      const MpcdParticles g2 = gpu.solvent_particles(), c2 = cpu.solvent_particles();
      const double dr = max_position_diff(sys.box, g2, c2);
      EXPECT_LT(dr, fp32 ? kMixedTol * 0.5 * sys.box.lengths().x : 1e-12);
      for (const Vec3d& r : g2.position) ASSERT_LE(std::fabs(r.z), sys.params.wall.h);
      MpcdSystem restart = sys;
      restart.particles = g2;
      Simulation cpu2(reg.create("cpu", Variant{}), restart);
      Simulation& ref = fp32 ? cpu2 : cpu;
      gpu.solvent()->collide_op().collide(2);
      ref.solvent()->collide_op().collide(2);
      const double e2 = rel_l2_velocity(gpu.solvent_particles(), ref.solvent_particles());
      EXPECT_LT(e2, tol);
      std::printf("MPCD slit %s %s: v rel L2 after 1 collision %.3e, after stream + collision %.3e; max |dr| "
                  "after stream %.3e\n",
                  prec, virt ? "virtual" : "no virtual", e1, e2, dr);
    }
}

// Twenty collision periods in double, sorted every third collision: the
// bounces and the virtual draws stay the reference's.
TEST(MpcdWallGpu, DrivenSlitRunMatchesReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const MpcdSystem sys = slit_solvent(seed, true);
  Simulation gpu(reg.create("cuda", Variant::parse("precision=double,reorder=cell,sort=3")), sys);
  Simulation cpu(reg.create("cpu", Variant{}), sys);
  gpu.run(20);
  cpu.run(20);
  const MpcdParticles g = gpu.solvent_particles(), c = cpu.solvent_particles();
  const double ev = rel_l2_velocity(g, c), dr = max_position_diff(sys.box, g, c);
  std::printf("MPCD slit driven, sorted, 20 collisions: v rel L2 %.3e, max |dr| %.3e\n", ev, dr);
  EXPECT_LT(ev, 1e-11);
  EXPECT_LT(dr, 1e-11 * sys.box.min_length());
}

}  // namespace
