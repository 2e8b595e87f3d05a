// GPU (label gpu): the DPD fluid between slit walls on the CUDA backend
// (the wall force kernel, dpd_wall_force.cu, and the reflecting drift of
// integrate_verlet.cu; one physics header, meso/physics/dpd_wall.hpp)
// against the CPU reference: a = 25 fluid with walls moving at -+0.3 and a
// body force along x, over list kinds, reordering and Groot-Warren (fuse=on
// is refused), in double (a few steps: trajectories agree to round-off)
// and mixed (one step: fp32 storage). Skips (not passes) without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "gpu_test_support.hpp"
#include "meso/core/dpd_slit.hpp"
#include "meso/core/error.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;
using namespace test;

System slit_fluid(uint64_t seed) {
  DpdSlitParams p;
  p.fluid = DpdFluidParams{};  // rho = 3, a = 25, gamma = 4.5, kT = 1, s = 1
  p.fluid.lx = 8.0;
  p.fluid.ly = 6.0;
  p.fluid.seed = seed;
  p.height = 7.0;
  p.wall_speed = 0.3;
  System s = make_dpd_slit(p);
  s.body_force.g = {0.1, 0.0, 0.0};
  return s;
}

TEST(DpdWallGpu, StepsMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = slit_fluid(seed);
  for (const ReferenceCase& c :
       {ReferenceCase{"precision=double", Integrator::velocity_verlet, 20, 1e-9},
        ReferenceCase{"precision=double,reorder=morton2,sort=5", Integrator::velocity_verlet, 20, 1e-9},
        ReferenceCase{"precision=double,nlist=half", Integrator::velocity_verlet, 20, 1e-9},
        ReferenceCase{"precision=double", Integrator::groot_warren, 20, 1e-9},
        ReferenceCase{"precision=mixed,nlist=half,noise=fp32", Integrator::velocity_verlet, 1, 2e-4}}) {
    SCOPED_TRACE(std::string(c.variant) + " " + to_string(c.integrator));
    const ParticleData<double> b = run_against_reference(reg, sys, c, seed).second;
    for (std::size_t i = 0; i < b.n_local; ++i) ASSERT_LE(std::fabs(b.position[i].z), sys.wall.h * (1 + 1e-6));
  }
}

// fuse=on would finish the step in the pair kernel, before the walls' force.
TEST(DpdWallGpu, FusedStepIsRefused) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  try {
    Simulation gpu(reg.create("cuda", Variant::parse("precision=double,fuse=on")), slit_fluid(1), RunParams{});
    FAIL() << "fuse=on with walls was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fuse=on is not provided with slit walls"), std::string::npos) << e.what();
  }
}

}  // namespace
