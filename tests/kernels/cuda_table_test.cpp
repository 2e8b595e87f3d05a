// GPU (label gpu): the tabulated pair force of the CUDA backend
// (pair_force/table) against the CPU reference on fresh melted LJ liquids
// tabulated on an r^2 grid: forces, energy and virial in every precision,
// list builder and at several threads per particle, 100 NVE steps with
// rebuilds, and a pair below the table's range refused by name; skips (not
// passes) without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/tables/pair_potential_table.hpp"
#include "support/roundoff_growth.hpp"

namespace {

using namespace meso;

using test::fresh_seed;
using test::make_registry;

// An LJ liquid (rho = 0.4, kT = 1.5, r_cut = 2.5) melted by 300 Langevin
// steps on the reference, with the table of its shifted LJ (2000 samples
// on [0.75, 2.5]) in place of the analytic potential.
System tabulated_liquid(uint64_t seed, uint64_t n) {
  LjLiquidParams lp;
  lp.n = n;
  lp.rho = 0.4;
  lp.kT = 1.5;
  lp.rcut = 2.5;
  lp.seed = seed;
  System s = make_lj_liquid(lp);
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.kT = 1.5;
  rp.seed = uint32_t(seed);
  Simulation melt(make_registry().create("cpu", Variant{}), s, rp);
  melt.run(300);
  s.particles = melt.particles();
  remove_net_momentum(s, s.particles);
  std::vector<double> r, v, f;
  const double shift = 4.0 * (std::pow(2.5, -12) - std::pow(2.5, -6));
  for (uint32_t k = 0; k < 2000; ++k) {
    const double x = 0.75 + 1.75 * k / 1999.0;
    r.push_back(x);
    v.push_back(4.0 * (std::pow(x, -12) - std::pow(x, -6)) - shift);
    f.push_back(24.0 * (2.0 * std::pow(x, -13) - std::pow(x, -7)));
  }
  s.emplace_pair_style<TabulatedPairs>(std::vector{table_from_samples("LJ", r, v, f, 2000)}, PairTable<int32_t>(1, 0));
  return s;
}

// double: the same spline arithmetic, summed in another order: round-off,
// 1e-12 as for LJ and DPD. mixed and single evaluate the spline in fp32 on
// fp32 positions and coefficients: ~1e-7 of z and of each term, amplified by
// the r^-13 core as for the fp32 LJ pairs (~1e-5), and their bound, 1e-4.
double tolerance(const std::string& precision) { return precision == "double" ? 1e-12 : 1e-4; }

TEST(CudaTable, ForcesEnergyVirialMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = tabulated_liquid(seed, 8000);
  RunParams rp;
  Simulation cpu(reg.create("cpu", Variant{}), sys, rp);
  const ParticleData<double> want = cpu.particles();
  const ThermoSample tc = cpu.thermo();
  for (const char* prec : {"double", "mixed", "single"})
    for (const char* list : {"nlist=atomic,tpp=1", "nlist=ballot,tpp=1", "nlist=tiled,tpp=4", "nlist=atomic,tpp=8",
                             "nlist=tiled,tpp=4,reorder=morton2,sort=100"}) {
      const std::string v = std::string("precision=") + prec + "," + list;
      SCOPED_TRACE(v);
      Simulation gpu(reg.create("cuda", Variant::parse(v)), sys, rp);
      const ParticleData<double> got = gpu.particles();
      double num = 0.0, den = 0.0;
      for (std::size_t i = 0; i < want.n_local; ++i) {
        const Vec3d d = got.force[i] - want.force[i];
        num += dot(d, d);
        den += dot(want.force[i], want.force[i]);
      }
      const double err = std::sqrt(num / den);
      std::printf("table %s: force rel L2 %.3e\n", v.c_str(), err);
      EXPECT_LT(err, tolerance(prec));
      const ThermoSample tg = gpu.thermo();
      EXPECT_NEAR(tg.potential_energy, tc.potential_energy, tolerance(prec) * std::fabs(tc.potential_energy));
      EXPECT_NEAR(tg.pressure, tc.pressure, 10 * tolerance(prec) * std::fabs(tc.pressure));
    }
}

// 100 NVE steps in double against the reference: the bound is 10x the
// separation of two reference runs started 1e-13 apart (as for LJ).
TEST(CudaTable, NveTracksReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = tabulated_liquid(seed, 4000);
  RunParams rp;
  rp.integrator = Integrator::nve;
  Simulation ref(reg.create("cpu", Variant{}), sys, rp);
  ref.run(100);
  const System pert = test::perturbed_start(sys, seed + 1);
  Simulation ref2(reg.create("cpu", Variant{}), pert, rp);
  ref2.run(100);
  const auto a = ref.particles(), b = ref2.particles();
  const auto separation = [&](const ParticleData<double>& c) { return test::max_separation(sys.box, c, a); };
  const double growth = separation(b);
  for (const char* variant : {"precision=double,nlist=atomic,tpp=1", "precision=double,nlist=tiled,tpp=4,fuse=on"}) {
    Simulation gpu(reg.create("cuda", Variant::parse(variant)), sys, rp);
    gpu.run(100);
    const double err = separation(gpu.particles());
    std::printf("table NVE %s 100 steps: GPU-CPU %.3e, perturbed-reference growth %.3e\n", variant, err, growth);
    EXPECT_LT(err, 10.0 * growth + 1e-14) << variant;
    EXPECT_NEAR(gpu.thermo().total_energy(), ref.thermo().total_energy(), 1e-9 * std::fabs(ref.thermo().total_energy()));
  }
}

// Two particles 0.7 apart, below the table's r_min = 0.75: refused by the
// CUDA backend, naming the table, as the reference does.
TEST(CudaTable, PairBelowTheTableIsRefused) {
  REQUIRE_GPU();
  System sys = tabulated_liquid(7, 1000);
  sys.particles.position[1] = sys.particles.position[0] + Vec3d{0.7, 0.0, 0.0};
  sys.box.wrap(sys.particles.position[1], sys.particles.image[1]);
  for (const char* backend : {"cpu", "cuda"}) {
    SCOPED_TRACE(backend);
    try {
      Simulation s(make_registry().create(backend, Variant{}), sys, RunParams{});
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("below the range of table LJ"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
