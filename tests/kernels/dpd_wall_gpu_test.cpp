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

// The largest difference of position and velocity components by tag.
double max_difference(const ParticleData<double>& a, const ParticleData<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    const Vec3d dr = a.position[i] - b.position[i], dv = a.velocity[i] - b.velocity[i];
    d = std::max({d, std::fabs(dr.x), std::fabs(dr.y), std::fabs(dr.z), std::fabs(dv.x), std::fabs(dv.y),
                  std::fabs(dv.z)});
  }
  return d;
}

TEST(DpdWallGpu, StepsMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = slit_fluid(seed);
  struct Case {
    const char* variant;
    Integrator integrator;
    uint64_t steps;
    double tolerance;
  };
  for (const Case& c : {Case{"precision=double", Integrator::velocity_verlet, 20, 1e-9},
                        Case{"precision=double,reorder=morton2,sort=5", Integrator::velocity_verlet, 20, 1e-9},
                        Case{"precision=double,nlist=half", Integrator::velocity_verlet, 20, 1e-9},
                        Case{"precision=double", Integrator::groot_warren, 20, 1e-9},
                        Case{"precision=mixed,nlist=half,noise=fp32", Integrator::velocity_verlet, 1, 2e-4}}) {
    SCOPED_TRACE(std::string(c.variant) + " " + to_string(c.integrator));
    RunParams rp;
    rp.dt = 0.01;
    rp.integrator = c.integrator;
    rp.seed = uint32_t(seed);
    Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
    Simulation gpu(reg.create("cuda", Variant::parse(c.variant)), sys, rp);
    cpu.run(c.steps);
    gpu.run(c.steps);
    const ParticleData<double> a = cpu.particles(), b = gpu.particles();
    ASSERT_EQ(a.n_local, b.n_local);
    EXPECT_LT(max_difference(a, b), c.tolerance);
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
