// GPU (label gpu): DPD under Lees-Edwards shear on the CUDA backend
// (docs/walls.md): the ballot list's sheared stencil, the sheared minimum
// image and the image's velocity jump in the DPD evaluator, the wrap through
// the z faces in the velocity-Verlet drift, against the CPU reference on a
// fresh random fluid whose particles cross the z faces, in double (20
// steps: trajectories agree to round-off) and mixed (one step: fp32
// storage); and the variants that cannot take shear, refused by name.
// Skips (not passes) without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "gpu_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;
using namespace test;

// An 8 x 5 x 7 box (N = 840) at gdot = 1.5: its ballot grid has 6 cells
// along x, so a cell next to a z face has a stencil of 36 cells (two
// chunks of the builder); the particles placed afresh by `seed`, uniformly
// (overlapping pairs included), their velocities on the flow plus kT = 1.
System sheared_fluid(uint64_t seed) {
  DpdFluidParams f;
  f.lx = 8.0;
  f.ly = 5.0;
  f.lz = 7.0;
  f.seed = seed;
  f.shear_rate = 1.5;
  System sys = make_dpd_fluid(f);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  for (std::size_t i = 0; i < sys.particles.n_local; ++i)
    sys.particles.position[i] = {f.lx * u(rng), f.ly * u(rng), f.lz * u(rng)};
  return sys;
}

TEST(LeesEdwardsGpu, StepsMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = sheared_fluid(seed);
  for (const ReferenceCase& c :
       {ReferenceCase{"precision=double", Integrator::velocity_verlet, 20, 1e-9},
        ReferenceCase{"precision=double", Integrator::groot_warren, 20, 1e-9},
        ReferenceCase{"precision=double,fuse=on", Integrator::velocity_verlet, 20, 1e-9},
        ReferenceCase{"precision=double,gather=masked,reorder=morton2,sort=5", Integrator::velocity_verlet, 20, 1e-9},
        ReferenceCase{"precision=mixed", Integrator::velocity_verlet, 1, 2e-4}}) {
    SCOPED_TRACE(std::string(c.variant) + " " + to_string(c.integrator));
    const auto [a, b] = run_against_reference(reg, sys, c, seed);
    ASSERT_EQ(a.n_local, b.n_local);
    // The z faces were crossed (about 2% of the particles in 20 steps), by
    // the same particles the same way.
    std::size_t crossed = 0;
    for (std::size_t i = 0; i < a.n_local; ++i) {
      ASSERT_EQ(a.image[i].z, b.image[i].z) << "tag " << i;
      if (b.image[i].z != 0) ++crossed;
    }
    if (c.steps == 20) {
      EXPECT_GE(crossed, 3u);
    }
  }
}

TEST(LeesEdwardsGpu, VariantsWithoutTheShearedImagesAreRefusedByName) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const System sys = sheared_fluid(1);
  struct Case {
    const char* variant;
    double inner_skin;
    const char* message;
  };
  for (const Case& c :
       {Case{"nlist=atomic", 0.0, "takes nlist=ballot, not nlist=atomic"},
        Case{"nlist=tiled", 0.0, "takes nlist=ballot, not nlist=tiled"},
        Case{"precision=mixed,nlist=half", 0.0, "takes nlist=ballot, not nlist=half"},
        Case{"nlist=cluster", 0.0, "takes nlist=ballot, not nlist=cluster"},
        Case{"nlist=cells", 0.0, "takes nlist=ballot, not nlist=cells"},
        Case{"gather=record", 0.0, "takes gather=split or masked, not gather=record"},
        Case{"precision=double", 0.1, "takes no dynamic pruning (inner_skin = 0.1)"}}) {
    SCOPED_TRACE(c.variant);
    RunParams rp;
    rp.inner_skin = c.inner_skin;
    try {
      Simulation gpu(reg.create("cuda", Variant::parse(c.variant)), sys, rp);
      ADD_FAILURE() << "shear on the cuda backend was accepted";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("shear_rate = 1.5: Lees-Edwards shear on the cuda backend"), std::string::npos) << m;
      EXPECT_NE(m.find(c.message), std::string::npos) << m;
    }
  }
  // Fewer than three cell layers along z: L_z = 3.5 < 3 (r_c + skin) = 3.9.
  DpdFluidParams f;
  f.lx = f.ly = 6.0;
  f.lz = 3.5;
  f.shear_rate = 0.5;
  try {
    Simulation gpu(reg.create("cuda", Variant{}), make_dpd_fluid(f), RunParams{});
    ADD_FAILURE() << "a sheared box of two cell layers was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs L_z >= 3 (r_c + skin) = 3.9 (L_z = 3.5)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
