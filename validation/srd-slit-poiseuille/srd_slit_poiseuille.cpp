// srd-slit-poiseuille: plane Poiseuille flow of the SRD benchmark solvent
// between no-slip slit walls (bounce-back and Lamura et al.'s virtual
// particles, meso/physics/srd_slit.hpp), driven by a body force along x. The
// fitted parabola gives the viscosity, against the kinetic theory the
// srd-viscosity gate uses, and the slip length at the walls, against zero.
// See README.md beside this file for the protocol, the error model and the
// negative controls.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/analysis/parabola_fit.hpp"
#include "meso/core/presets.hpp"
#include "meso/run/progress.hpp"
#include "meso/run/simulation.hpp"
#include "meso/validation/channel_flow.hpp"
#include "meso/validation/validation_case.hpp"
#include "meso/analysis/velocity_profile.hpp"

namespace meso::validation {

namespace {

// The allowance for the kinetic theory itself, as srd-viscosity states it
// (../srd-viscosity/README.md): one standard deviation, relative.
constexpr double kModelError = 0.02;
// The no-slip criterion: the slip length, in cells, the walls may leave
// (README.md: Lamura et al.'s fill leaves a residual slip of order a / 6 when
// the collisions carry the viscosity).
constexpr double kSlipAllowance = 0.25;

}  // namespace

Result run_srd_slit_poiseuille(const Context& ctx) {
  const bool is_long = ctx.form == Form::long_form;
  // docs/reference.md, "SRD and MPCD solvent": the benchmark solvent, with
  // the cell thermostat that removes the viscous heat (srd-viscosity's
  // README: it conserves each cell's momentum, so it leaves the flow alone).
  MpcdParams prm = presets::howard_srd_solvent(static_cast<uint32_t>(ctx.seed));
  prm.thermostat = true;
  // The negative control (README.md): control=1 turns the virtual
  // particles off, and the flow slips by about a cell; it must fail.
  const double control = knob(ctx, "control", 0.0);
  if (control != 0.0 && control != 1.0)
    throw_input_error("srd-slit-poiseuille control = ", control, " is invalid: 1 turns the virtual particles off");
  prm.wall.virtual_particles = control != 1.0;
  SrdSlitParams slit;
  slit.rho = 10.0;
  prm.wall.density = slit.rho;
  // Height H = 8 cells: the start-up time H^2 / (pi^2 nu) ~ 7.5 and the
  // separation of the slit from the cell as in srd-viscosity's channels of
  // d = 8; the cross-section only sets the noise.
  slit.height = 8.0;
  slit.lx = slit.ly = knob(ctx, "cross", is_long ? 32.0 : 8.0);
  slit.seed = ctx.seed;
  // u_max = g H^2 / (8 nu) ~ 0.1 sqrt(kT/m) with nu = eta / rho ~ 0.87.
  const double g = 0.011;
  prm.body_force.g = {g, 0.0, 0.0};
  const double equilibrate_time = knob(ctx, "equilibration", 60.0);
  const double production_time = knob(ctx, "production", is_long ? 4000.0 : 500.0);
  const SlitSchedule sched = slit_schedule(prm.dt, equilibrate_time, production_time, 0.5, 10);

  const MpcdSystem sys = make_srd_slit(slit, prm);
  const double a = prm.cell_size, h = sys.params.wall.h, dt = prm.dt;
  const double rho_m = static_cast<double>(sys.particles.size()) * prm.mass /
                       (slit.lx * slit.ly * slit.height * a * a * a);
  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), sys);

  // u_x(z) in slabs of a / 2 across the whole box (the padding's bins stay
  // empty), one profile per block, the parabola over the bins inside the slit.
  const auto bins = static_cast<uint32_t>(std::lround(2.0 * sys.box.lengths().z / a));
  const std::vector<VelocityProfile> block_profiles = sample_slit_blocks(
      sched, VelocityProfile(sys.box, /*axis=*/2, /*component=*/0, bins), [&](uint64_t n) { sim.run(n); },
      [&](VelocityProfile& p) { p.add(sim.solvent_particles(), prm.mass); }, "slit Poiseuille");
  const SlitMeasurement m = measure_slit(block_profiles, h, h, rho_m, g, sched);
  const SlitFit& f = m.fit;
  const double se_eta = m.se_eta, se_slip = m.se_slip, width = 2.0 * h;
  const double t0 = sched.start(), t1 = sched.end();
  const uint64_t sample_steps = sched.sample;

  const SrdViscosity theory = srd_kinetic_theory_viscosity(slit.rho, prm.kT, prm.mass, a, dt, prm.angle_deg);
  const double eta_theory = theory.total();
  const double u_max = rho_m * g * h * h / (2.0 * f.eta);

  Result r;
  r.name = "srd-slit-poiseuille";
  r.quantity = "shear viscosity eta of the SRD solvent from the parabola of plane Poiseuille flow between slit "
               "walls (bounce-back, virtual particles), with its slip length";
  r.measured = f.eta;
  r.uncertainty = se_eta;
  r.reference = eta_theory;
  r.reference_uncertainty = kModelError * eta_theory;
  r.tolerance = 4.0 * std::sqrt(se_eta * se_eta + r.reference_uncertainty * r.reference_uncertainty);
  const bool eta_ok = std::fabs(r.measured - r.reference) <= r.tolerance;
  const bool slip_ok = std::fabs(f.slip) <= kSlipAllowance * a + 4.0 * se_slip;
  r.rule = "|eta - eta_theory| <= 4 sqrt(SE^2 + (0.02 eta_theory)^2) (eta_theory: SRD kinetic theory with random "
           "shift, as srd-viscosity; SE: 10 blocks of the production), |slip length| <= a / 4 + 4 SE_slip, and "
           "the start-up transient left in the production window below SE/4";
  r.passed = eta_ok && slip_ok && m.steady;
  add_slit_data(r.data, m, h, rho_m);
  r.data["slip_allowance"] = kSlipAllowance * a;
  r.data["eta_passed"] = eta_ok;
  r.data["slip_passed"] = slip_ok;
  r.data["z"] = m.z;
  r.data["profile"] = m.u;
  r.data["fit"] = {{"x0", f.fit.x0}, {"c", f.fit.c}, {"se", f.fit.se}, {"residual_rms", f.fit.residual_rms}};
  r.data["theory"] = {{"kinetic", theory.kinetic},
                      {"collisional", theory.collisional},
                      {"total", eta_theory},
                      {"model_error", kModelError},
                      {"source", "Kikuchi, Pooley, Ryder & Yeomans, J. Chem. Phys. 119, 6388 (2003); Gompper, "
                                 "Ihle, Kroll & Winkler, Adv. Polym. Sci. 221, 1 (2009)"}};
  r.data["deviation_relative"] = f.eta / eta_theory - 1.0;
  r.data["g"] = g;
  r.data["box"] = {slit.lx, slit.ly, slit.height + 2.0};
  r.data["slit_height"] = width;
  r.data["n"] = sys.particles.size();
  r.data["rho"] = slit.rho;
  r.data["mass_density"] = rho_m;
  r.data["virtual_particles"] = prm.wall.virtual_particles;
  r.data["bounce_back"] = prm.wall.bounce_back;
  r.data["thermostat"] = prm.thermostat;
  r.data["dt"] = dt;
  r.data["angle_deg"] = prm.angle_deg;
  r.data["precision"] = to_string(ctx.variant.precision);
  r.data["equilibration_time"] = t0;
  r.data["production_time"] = t1 - t0;
  r.data["sample_every_time"] = static_cast<double>(sample_steps) * dt;
  r.data["u_max"] = u_max;
  r.data["mach"] = u_max / std::sqrt(prm.kT / prm.mass);
  r.data["overrides"] = ctx.params;
  return r;
}

MESO_REGISTER_VALIDATION_CASE({
    .name = "srd-slit-poiseuille",
    // Its simulations are the srd-channel slit, its walls and virtual particles.
    .workload = "srd-channel",
    .source = "Lamura, Gompper, Ihle & Kroll, Europhys. Lett. 56, 319 (2001): bounce-back and virtual particles; "
              "SRD kinetic theory (Kikuchi et al. 2003; Gompper et al. 2009); plane Poiseuille flow of the "
              "benchmark solvent between slit walls",
    .run = run_srd_slit_poiseuille,
    .knobs = {"production: averaging time", "equilibration: time from rest",
              "cross: box edge across the flow's gradient (x, y) in cells",
              "control: 1 runs the negative control, without virtual particles"},
    .controls = {{.name = "no-virtual-particles",
                  .what = "the walls' virtual particles off: the cells the walls cut slip",
                  .params = {{"control", 1.0}}}}});

}  // namespace meso::validation
