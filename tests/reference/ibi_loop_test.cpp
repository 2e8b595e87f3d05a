// The IBI loop closed on the CPU reference (meso/tables/ibi.hpp with the table
// pair style): the g(r) of an LJ liquid is the target; starting from its
// potential of mean force, three IBI steps bring the tabulated liquid's g(r)
// to the target, and the recovered potential has the LJ's minimum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "meso/tables/ibi.hpp"
#include "meso/core/init.hpp"
#include "meso/analysis/rdf.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

constexpr double kT = 1.5;

// g(r) on 125 bins of 0.02 to r = 2.5, averaged over 150 configurations
// 20 steps apart after 500 steps of Langevin dynamics.
Rdf sample_rdf(const System& s, uint32_t seed) {
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.kT = kT;
  rp.gamma = 1.0;
  rp.seed = seed;
  Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant{}), s, rp);
  sim.run(500);
  Rdf sum;
  for (int k = 0; k < 150; ++k) {
    sim.run(20);
    const Rdf g = compute_rdf(s.box, sim.particles(), 2.5, 125);
    if (sum.r.empty()) sum = g, std::fill(sum.g.begin(), sum.g.end(), 0.0);
    for (std::size_t i = 0; i < g.g.size(); ++i) sum.g[i] += g.g[i] / 150.0;
  }
  return sum;
}

TEST(IbiLoop, RecoversTheLjLiquidsStructure) {
  LjLiquidParams lp;
  lp.n = 500;
  lp.rho = 0.6;
  lp.kT = kT;
  lp.rcut = 2.5;
  lp.seed = 11;
  const System lj = make_lj_liquid(lp);
  const Rdf target = sample_rdf(lj, 1);
  BinnedPotential v = potential_of_mean_force(target, kT);
  System tab = lj;
  tab.emplace_pair_style<TabulatedPairs>(std::vector<PairPotentialTable>{}, PairTable<int32_t>(1, 0));
  std::vector<double> d;
  for (int it = 0; it < 4; ++it) {
    tab.pair.as<TabulatedPairs>().tables = {pair_table_from_ibi("ibi", v, 1000)};
    const Rdf g = sample_rdf(tab, 2 + it);
    d.push_back(rdf_difference(g, target));
    std::printf("IBI iteration %d: integrated |g - g_target| / g_target = %.4f\n", it, d.back());
    if (it < 3) ibi_update(v, g, target, kT);
  }
  // The PMF is not the potential of a liquid at rho = 0.6: its g(r) is off
  // by 7.5%; the corrections bring it to about the sampling noise (2.1%,
  // 1.3%, 1.1% after one, two and three steps with 200 configurations).
  EXPECT_GT(d[0], 0.03);
  EXPECT_LT(d[3], 0.5 * d[0]);
  EXPECT_LT(d[3], 0.025);
  // g(r) hardly feels a slowly varying change of the potential's tail
  // (IBI's known weakness, which a pressure correction addresses), so the
  // recovered potential is not the LJ to within the noise: it was 0.2-0.3 kT
  // above it at r = 1.1-1.5 here. Its minimum sits at the LJ's 2^(1/6),
  // within a bin and a half.
  std::size_t lowest = 0;
  for (std::size_t i = 0; i < v.v.size(); ++i)
    if (v.v[i] < v.v[lowest]) lowest = i;
  EXPECT_NEAR(v.r[lowest], std::pow(2.0, 1.0 / 6.0), 0.03);
}

}  // namespace
