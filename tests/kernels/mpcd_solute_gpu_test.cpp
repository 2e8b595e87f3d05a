// GPU (label gpu): MPCD solute coupling on the CUDA backend against the CPU
// reference: MD particles of the embedded types join the collision, in every
// rule, double and mixed, and five coupled collision periods with MD steps
// between them. Skips (not passes) without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "gpu_test_support.hpp"
#include "meso/run/simulation.hpp"
#include "mpcd_gpu_test_support.hpp"
#include "support/mpcd_solvent.hpp"

namespace {

using namespace meso;

using namespace test;  // gpu_test_support.hpp and mpcd_gpu_test_support.hpp

// MD solute rounded as an fp32 backend stores it (positions inside the box
// stay inside: the solute is generated away from the faces by at most
// rounding, which the MD loader folds as the reference sees it here).
System solute_rounded_to_fp32(System s) {
  for (std::size_t i = 0; i < s.particles.n_local; ++i) {
    Vec3d& r = s.particles.position[i];
    Vec3d& v = s.particles.velocity[i];
    r = {double(float(r.x)), double(float(r.y)), double(float(r.z))};
    Image img{0, 0, 0};
    s.box.wrap(r, img);
    v = {double(float(v.x)), double(float(v.y)), double(float(v.z))};
  }
  return s;
}

double rel_l2_md_velocity(const ParticleData<double>& a, const ParticleData<double>& b) {
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    EXPECT_EQ(a.tag[i], b.tag[i]);
    const Vec3d d = a.velocity[i] - b.velocity[i];
    num += dot(d, d);
    den += dot(b.velocity[i], b.velocity[i]);
  }
  return std::sqrt(num / den);
}

RunParams solute_run_params() {
  RunParams rp;
  rp.dt = 0.025;  // 4 MD steps a collision period of 0.1
  rp.integrator = Integrator::nve;
  rp.skin = 0.3;
  return rp;
}

// Solute coupling: MD particles of type 0 (M = 5) join the collision, type 1
// does not. One collision on a fresh random solvent and solute, GPU against
// the reference, every rule, double and mixed; then (double) five coupled
// collision periods with MD steps between them.
TEST(MpcdGpu, SoluteCollisionMatchesReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const Rule& rule : kRules)
    for (const char* prec : {"double", "mixed"}) {
      SCOPED_TRACE(std::string(rule.name) + " " + prec);
      MpcdParams prm = params_of(rule);
      prm.embed_types = 1u;
      const bool fp32 = std::string(prec) == "mixed";
      const MpcdSystem base = solvent(seed, 8, 10, prm);
      const MpcdSystem sys = fp32 ? rounded_to_fp32(base) : base;
      const System md0 = meso::testing::random_solute(seed, sys, 400, 5.0, 2.0);
      const System md = fp32 ? solute_rounded_to_fp32(md0) : md0;
      const double tol = fp32 ? kMixedTol : 1e-12;
      auto sim = [&](const char* backend, const std::string& v) {
        return Simulation(reg.create(backend, Variant::parse(v)), md, solute_run_params(), sys);
      };
      Simulation gpu = sim("cuda", std::string("precision=") + prec);
      Simulation cpu = sim("cpu", "");
      const ParticleData<double> before = gpu.particles();
      gpu.solvent()->collide_op().collide(1);
      cpu.solvent()->collide_op().collide(1);
      const double es = rel_l2_velocity(gpu.solvent_particles(), cpu.solvent_particles());
      const ParticleData<double> gm = gpu.particles(), cm = cpu.particles();
      const double em = rel_l2_md_velocity(gm, cm);
      std::size_t untouched = 0;
      for (std::size_t i = 0; i < gm.n_local; ++i)
        if (gm.type[i] == 1)
          untouched += gm.velocity[i].x == before.velocity[i].x &&
                       gm.velocity[i].y == before.velocity[i].y &&
                       gm.velocity[i].z == before.velocity[i].z;
      std::printf("MPCD solute %s %s: solvent v rel L2 %.3e, solute v rel L2 %.3e\n", rule.name,
                  prec, es, em);
      EXPECT_LT(es, tol);
      EXPECT_LT(em, tol);
      EXPECT_EQ(untouched, 100u);  // every fourth of 400 is type 1, not embedded
      if (!fp32) {
        gpu.run(5 * gpu.steps_per_collision());
        cpu.run(5 * cpu.steps_per_collision());
        const double es5 = rel_l2_velocity(gpu.solvent_particles(), cpu.solvent_particles());
        const double em5 = rel_l2_md_velocity(gpu.particles(), cpu.particles());
        std::printf("  after 5 coupled periods (20 MD steps): solvent %.3e, solute %.3e\n", es5, em5);
        EXPECT_LT(es5, 1e-10);
        EXPECT_LT(em5, 1e-10);
      }
    }
}

}  // namespace
