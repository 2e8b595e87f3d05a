// dpd-temperature: the kinetic temperature of an equilibrium DPD fluid must
// equal the kT that the fluctuation-dissipation relation sigma^2 = 2 gamma kT
// imposes. See README.md beside this file for the tolerance rule.
#include <cmath>

#include "meso/simulation.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::validation {

Result run_dpd_temperature(const Context& ctx) {
  const bool is_long = ctx.form == Form::long_form;
  DpdFluidParams fluid;
  fluid.rho = 3.0;
  fluid.a = 25.0;
  fluid.gamma = 4.5;
  fluid.kT = 1.0;
  fluid.rcut = 1.0;
  fluid.s = 1.0;
  fluid.lx = fluid.ly = fluid.lz = is_long ? 16.0 : 8.0;
  fluid.seed = ctx.seed;
  RunParams run;
  run.dt = 0.01;
  run.skin = 0.3;
  run.seed = static_cast<uint32_t>(ctx.seed);

  const uint64_t equilibrate = 1000;  // 10 time units >> the ~0.1 tau velocity relaxation
  const uint64_t production = is_long ? 100000 : 10000;
  const uint64_t every = 10;
  const int blocks = 20;

  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), make_dpd_fluid(fluid), run);
  sim.run(equilibrate);
  std::vector<double> temperature, pressure, steps;
  double max_abs_momentum = 0.0;
  sim.run(production, every, [&](const ThermoSample& t) {
    temperature.push_back(t.temperature);
    pressure.push_back(t.pressure);
    steps.push_back(static_cast<double>(t.step));
    max_abs_momentum = std::max({max_abs_momentum, std::fabs(t.momentum.x),
                                 std::fabs(t.momentum.y), std::fabs(t.momentum.z)});
  });

  const BlockAverage T = block_average(temperature, blocks);
  const BlockAverage P = block_average(pressure, blocks);
  Result r;
  r.name = "dpd-temperature";
  r.quantity = "kinetic temperature <T> (3N-3 degrees of freedom)";
  r.measured = T.mean;
  r.uncertainty = T.sem;
  r.reference = fluid.kT;
  r.reference_uncertainty = 0.0;
  r.tolerance = 4.0 * T.sem;
  r.rule = "|<T> - kT| <= 4 SEM, SEM from 20-block averaging (two-sided false-alarm rate 6e-5)";
  r.passed = std::fabs(r.measured - r.reference) <= r.tolerance;
  r.data = {{"N", sim.system().particles.n_local},
            {"rho", fluid.rho},
            {"a", fluid.a},
            {"gamma", fluid.gamma},
            {"dt", run.dt},
            {"integrator", to_string(run.integrator)},
            {"equilibration_steps", equilibrate},
            {"production_steps", production},
            {"sample_every", every},
            {"blocks", blocks},
            {"pressure_mean", P.mean},
            {"pressure_sem", P.sem},
            {"max_abs_total_momentum", max_abs_momentum},
            {"step", steps},
            {"temperature", temperature},
            {"pressure", pressure}};
  return r;
}

}  // namespace meso::validation
