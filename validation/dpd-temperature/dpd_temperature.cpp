// dpd-temperature: the kinetic temperature of an equilibrium DPD fluid must
// equal the kT that the fluctuation-dissipation relation sigma^2 = 2 gamma kT
// imposes. See README.md beside this file for the tolerance rule.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "meso/run/progress.hpp"
#include "meso/run/simulation.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::validation {

namespace {

struct Measurement {
  BlockAverage temperature, pressure;
  double max_abs_momentum = 0.0;
  std::vector<double> time, series;
  uint64_t n = 0;
};

// Equilibrates, then samples T and P every `every` steps over `production`.
Measurement measure(const Context& ctx, const DpdFluidParams& fluid, const RunParams& run,
                    uint64_t equilibrate, uint64_t production, uint64_t every, int blocks) {
  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), make_dpd_fluid(fluid), run);
  char what[64];
  std::snprintf(what, sizeof what, "dpd-temperature dt = %g", run.dt);
  progress::begin(what, equilibrate + production);
  sim.run(equilibrate);
  Measurement m;
  std::vector<double> pressure;
  sim.run(production, every, [&](const ThermoSample& t) {
    m.series.push_back(t.temperature);
    pressure.push_back(t.pressure);
    m.time.push_back(static_cast<double>(t.step) * run.dt);
    m.max_abs_momentum = std::max({m.max_abs_momentum, std::fabs(t.momentum.x),
                                   std::fabs(t.momentum.y), std::fabs(t.momentum.z)});
  });
  m.temperature = block_average(m.series, blocks);
  m.pressure = block_average(pressure, blocks);
  m.n = sim.system().particles.n_local;
  return m;
}

}  // namespace

Result run_dpd_temperature(const Context& ctx) {
  const bool is_long = ctx.form == Form::long_form;
  DpdFluidParams fluid;
  fluid.rho = 3.0;
  fluid.a = 25.0;
  fluid.gamma = 4.5;
  fluid.kT = 1.0;
  // The negative control's random force, a factor on sigma = sqrt(2 gamma kT):
  // a thermostat that heats the fluid to noise^2 kT.
  const double noise = knob(ctx, "noise", 1.0);
  fluid.rcut = 1.0;
  fluid.s = 1.0;
  fluid.lx = fluid.ly = fluid.lz = is_long ? 16.0 : 8.0;
  RunParams run;
  run.dt = 0.01;
  run.skin = 0.3;
  // Groot & Warren's integrator at their recommended lambda for exactly this
  // fluid. Any finite-dt integrator of DPD heats the fluid slightly (an O(dt)
  // excess; see README.md), so the gate compares kT with the dt -> 0 limit
  // from two time steps, not with one finite-dt temperature.
  run.integrator = Integrator::groot_warren;
  run.lambda = 0.65;

  const double time_span = knob(ctx, "time", is_long ? 500.0 : 100.0);  // production, in DPD time units
  const double equilibrate_time = knob(ctx, "equilibrate", 10.0);  // >> the ~0.1 velocity relaxation time
  const int blocks = 20;
  const double samples_every_time = 0.1;

  auto at_dt = [&](double dt, Integrator integrator, uint64_t seed) {
    RunParams r = run;
    r.dt = dt;
    r.integrator = integrator;
    r.seed = static_cast<uint32_t>(seed);
    DpdFluidParams f = fluid;
    f.seed = seed;  // independent initial configuration and noise per run
    f.kT = fluid.kT * noise * noise;  // sigma^2 = 2 gamma kT: the random force scaled by `noise`
    const auto steps = [&](double t) { return static_cast<uint64_t>(std::llround(t / dt)); };
    return measure(ctx, f, r, steps(equilibrate_time), steps(time_span),
                   steps(samples_every_time), blocks);
  };
  const Measurement big = at_dt(0.01, Integrator::groot_warren, ctx.seed);
  const Measurement small = at_dt(0.005, Integrator::groot_warren, ctx.seed + 1);
  // Plain velocity Verlet shows the size of the O(dt) artifact; it is reported, not gated, so
  // only the long form runs it (in the short form it was a quarter of CI's cost of this gate).
  std::optional<Measurement> vv;
  if (is_long) vv = at_dt(0.01, Integrator::velocity_verlet, ctx.seed + 2);

  // Linear extrapolation T(0) = 2 T(dt/2) - T(dt); independent runs, so the
  // variances add: SEM(0)^2 = 4 SEM(dt/2)^2 + SEM(dt)^2.
  const double t0 = 2.0 * small.temperature.mean - big.temperature.mean;
  const double sem0 = std::sqrt(4.0 * small.temperature.sem * small.temperature.sem +
                                big.temperature.sem * big.temperature.sem);

  Result r;
  r.name = "dpd-temperature";
  r.quantity = "kinetic temperature extrapolated to dt -> 0 (Groot-Warren, lambda = 0.65)";
  r.measured = t0;
  r.uncertainty = sem0;
  r.reference = fluid.kT;
  r.reference_uncertainty = 0.0;
  r.tolerance = 4.0 * sem0;
  r.rule = "|T(dt->0) - kT| <= 4 SEM; T(0) = 2 T(0.005) - T(0.01), SEM of each from 20-block "
           "averaging (two-sided false-alarm rate 6e-5)";
  r.passed = std::fabs(r.measured - r.reference) <= r.tolerance;
  auto summary = [](const Measurement& m, double dt, const char* integrator) {
    return nlohmann::json{{"dt", dt},
                          {"integrator", integrator},
                          {"temperature_mean", m.temperature.mean},
                          {"temperature_sem", m.temperature.sem},
                          {"pressure_mean", m.pressure.mean},
                          {"pressure_sem", m.pressure.sem},
                          {"max_abs_total_momentum", m.max_abs_momentum},
                          {"time", m.time},
                          {"temperature", m.series}};
  };
  r.data = {{"N", big.n},
            {"rho", fluid.rho},
            {"a", fluid.a},
            {"gamma", fluid.gamma},
            {"lambda", run.lambda},
            {"equilibration_time", equilibrate_time},
            {"production_time", time_span},
            {"blocks", blocks},
            {"runs", {summary(big, 0.01, "gw"), summary(small, 0.005, "gw")}}};
  if (vv) r.data["runs"].push_back(summary(*vv, 0.01, "vv"));
  return r;
}

MESO_REGISTER_VALIDATION_CASE({
    .name = "dpd-temperature",
    // Its simulations are the dpd-fluid benchmark fluid itself.
    .workload = "dpd-fluid",
    .source = "Groot & Warren, J. Chem. Phys. 107, 4423 (1997): DPD fluid rho = 3, a = 25, gamma = 4.5, kT = 1",
    .run = run_dpd_temperature,
    .knobs = {"time: production time of each run", "equilibrate: time before sampling",
              "noise: factor on the random force (1; the negative control's)"},
    // The random force 10% too strong heats the fluid to T = 1.21: with 5
    // time units of production after 2 of equilibration the extrapolated T
    // came out 1.225 +- 0.014, 16 SEM from kT (seed 1). With 3 after 1 it
    // read 1.34 +- 0.04: the random start's potential energy not yet
    // removed, a rejection partly for the wrong reason.
    .controls = {{.name = "noise-1.1",
                  .what = "random force 10% too strong (T = 1.21 kT)",
                  .params = {{"noise", 1.1}},
                  .short_params = {{"time", 5.0}, {"equilibrate", 2.0}}}}});

}  // namespace meso::validation
