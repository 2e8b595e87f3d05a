#include "meso/validation/rigid_liquid.hpp"

#include <cmath>

#include "meso/error.hpp"
#include "meso/simulation.hpp"

namespace meso::validation {

RigidLiquid gay_berne_liquid(uint64_t n, uint64_t seed) {
  RigidLiquid l;
  l.params.n = n;
  l.params.rho = 0.30;
  l.params.kT = 2.0;
  l.params.seed = seed;
  l.run.integrator = Integrator::nve;
  l.run.dt = 0.002;
  l.run.skin = 0.4;
  l.run.kT = l.params.kT;
  l.run.gamma = 1.0;
  l.run.gamma_r = 1.0;
  l.run.seed = static_cast<uint32_t>(seed);
  return l;
}

System thermalized(const Context& ctx, const RigidLiquid& liquid, uint64_t steps) {
  System sys = make_gb_liquid(liquid.params);
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
