#include "meso/validation/rigid_liquid.hpp"

#include <cmath>

#include "meso/core/error.hpp"
#include "meso/systems/gay_berne_liquid.hpp"
#include "meso/run/simulation.hpp"
#include "meso/systems/water.hpp"

namespace meso::validation {

RigidLiquid gay_berne_liquid(uint64_t n, uint64_t seed) {
  GbLiquidParams params;
  params.n = n;
  params.rho = 0.30;
  params.kT = 2.0;
  params.seed = seed;
  RigidLiquid l;
  l.model = "gay-berne GB(3, 5, 2, 1), r_cut 4, shifted";
  l.start = make_gb_liquid(params);
  l.kT = params.kT;
  l.rho = params.rho;
  l.run.integrator = Integrator::nve;
  l.run.dt = 0.002;
  l.run.skin = 0.4;
  l.run.kT = params.kT;
  l.run.gamma = 1.0;
  l.run.gamma_r = 1.0;
  l.run.seed = static_cast<uint32_t>(seed);
  l.window = 500;  // 1 tau
  return l;
}

RigidLiquid ssd_water_liquid(uint64_t n, uint64_t seed) {
  SsdWaterParams w;
  w.n = n;
  w.seed = seed;
  const double ps = 1000.0 / water_units::kTimeFs;  // time units per ps
  RigidLiquid l;
  l.model = "SSD/RF water, 0.997 g/cm^3, 298.15 K, switched 7.7-9 A";
  l.start = make_ssd_water(w);
  l.kT = w.kT();
  l.rho = water_units::number_density(w.density);
  l.run.integrator = Integrator::nve;
  l.run.dt = 2.0 / water_units::kTimeFs;  // 2 fs, as the ssd-water gate
  l.run.skin = 1.0;
  l.run.kT = w.kT();
  l.run.gamma = w.mass / ps;  // 1 ps damping, as the ssd-water workload
  l.run.gamma_r = (w.inertia.x + w.inertia.y + w.inertia.z) / 3.0 / ps;
  l.run.seed = static_cast<uint32_t>(seed);
  l.window = 500;  // 1 ps
  // SSD/RF's LJ part: eps = 0.152 kcal/mol, sigma = 3.019 A, m = 18.0153
  // amu: tau = sigma sqrt(m / eps) = 32.9 time units (1.6 ps).
  l.lj_energy = w.ssd.epsilon;
  l.lj_time = w.ssd.sigma * std::sqrt(w.mass / w.ssd.epsilon);
  l.units = "A, kcal/mol, amu (time unit 48.888 fs)";
  return l;
}

System thermalized(const Context& ctx, const RigidLiquid& liquid, uint64_t steps) {
  System sys = liquid.start;
  RunParams rp = liquid.run;
  rp.integrator = Integrator::langevin;
  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), sys, rp);
  sim.run(steps);
  sys.particles = sim.particles();
  return sys;
}

WindowedSd windowed_sd(const std::vector<double>& x, std::size_t window) {
  if (window < 3) throw_input_error("windowed_sd: a window of ", window, " samples (at least 3)");
  std::vector<double> sds;
  for (std::size_t start = 0; start + window <= x.size(); start += window) {
    double m = 0.0, v = 0.0;
    for (std::size_t i = start; i < start + window; ++i) m += x[i] / double(window);
    for (std::size_t i = start; i < start + window; ++i) v += (x[i] - m) * (x[i] - m);
    sds.push_back(std::sqrt(v / double(window - 1)));
  }
  WindowedSd w;
  w.windows = static_cast<int>(sds.size());
  if (sds.empty()) return w;
  for (double s : sds) w.mean += s / double(sds.size());
  if (sds.size() > 1) {
    double v = 0.0;
    for (double s : sds) v += (s - w.mean) * (s - w.mean);
    w.sem = std::sqrt(v / double(sds.size() - 1) / double(sds.size()));
  }
  return w;
}

}  // namespace meso::validation
