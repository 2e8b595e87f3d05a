// srd-couette: simple shear flow of the SRD benchmark solvent under
// Lees-Edwards boundaries (meso/physics/srd_lees_edwards.hpp). The xz shear
// stress, kinetic + collisional momentum transfer (srd_shear_stress.hpp),
// over the shear rate gives the viscosity, against the kinetic theory the
// srd-viscosity gate uses; the mean flow u_x(z) must be the imposed linear
// profile. See README.md beside this file for the protocol, the error model
// and the negative control.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "meso/analysis/block_average.hpp"
#include "meso/analysis/linear_fit.hpp"
#include "meso/analysis/velocity_profile.hpp"
#include "meso/core/error.hpp"
#include "meso/core/presets.hpp"
#include "meso/run/simulation.hpp"
#include "meso/validation/channel_flow.hpp"
#include "meso/validation/srd_shear_stress.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::validation {

namespace {

// The allowance for the kinetic theory itself, as srd-viscosity states it
// (../srd-viscosity/README.md): one standard deviation, relative.
constexpr double kModelError = 0.02;
// Independent blocks of the production: the stress decorrelates within a
// few collisions and a block holds hundreds.
constexpr int kBlocks = 10;

}  // namespace

Result run_srd_couette(const Context& ctx) {
  const bool is_long = ctx.form == Form::long_form;
  // docs/reference.md, "SRD and MPCD solvent": the benchmark solvent, with
  // the cell thermostat that removes the viscous heat (it scales velocities
  // about each cell's mean in its images' frame, so it leaves the shear alone).
  MpcdParams prm = presets::howard_srd_solvent(static_cast<uint32_t>(ctx.seed));
  prm.thermostat = true;
  // gdot = 0.05: gdot dt_c = 0.005 and gdot a^2 / nu = 0.06, far in the
  // linear regime; the stress it drives, eta gdot, stands 50 SE above the
  // short form's noise (README.md).
  prm.shear.rate = knob(ctx, "rate", 0.05);
  // The negative control (README.md): jump=0 offsets the images without
  // moving them, so nothing drives the shear and it decays.
  const double jump = knob(ctx, "jump", 1.0);
  if (jump != 0.0 && jump != 1.0)
    throw_input_error("srd-couette jump = ", jump, " is invalid: 0 omits the images' velocity jump, 1 keeps it");
  prm.shear.velocity_jump = jump == 1.0;
  SrdFluidParams fluid;
  fluid.rho = 10.0;
  fluid.L = knob(ctx, "L", is_long ? 16.0 : 8.0);
  fluid.seed = ctx.seed;
  MpcdSystem sys = make_srd_fluid(fluid, prm);
  // Started on the shear profile: only the stress and the temperature have to
  // settle, in a few collisions.
  const double gdot = prm.shear.rate;
  for (std::size_t i = 0; i < sys.particles.size(); ++i)
    sys.particles.velocity[i].x += gdot * sys.particles.position[i].z;
  const double dt = prm.dt, a = prm.cell_size, L = fluid.L * a, volume = L * L * L;
  const auto collisions = [dt](double time) { return static_cast<uint64_t>(std::llround(time / dt)); };
  const uint64_t equilibrate = collisions(knob(ctx, "equilibration", 20.0));
  const uint64_t per_block = std::max<uint64_t>(1, collisions(knob(ctx, "production", is_long ? 4000.0 : 400.0)) / kBlocks);
  const uint64_t profile_every = 5;

  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), sys);
  sim.run(equilibrate);
  const auto bins = static_cast<uint32_t>(std::lround(2.0 * L / a));
  std::vector<double> eta_kin, eta_col, eta_total, slope;
  VelocityProfile whole(sys.box, /*axis=*/2, /*component=*/0, bins);
  MpcdParticles before = sim.solvent_particles();
  for (int b = 0; b < kBlocks; ++b) {
    SrdShearFlux sum;
    VelocityProfile block(sys.box, 2, 0, bins);
    for (uint64_t k = 1; k <= per_block; ++k) {
      sim.run(1);
      MpcdParticles after = sim.solvent_particles();
      const SrdShearFlux f = srd_shear_flux(sys, before, after, sim.step());
      sum.kinetic += f.kinetic;
      sum.collisional += f.collisional;
      if (k % profile_every == 0) block.add(after, prm.mass);
      before = std::move(after);
    }
    const double per = -1.0 / (volume * dt * static_cast<double>(per_block) * gdot);
    eta_kin.push_back(per * sum.kinetic);
    eta_col.push_back(per * sum.collisional);
    eta_total.push_back(per * (sum.kinetic + sum.collisional));
    slope.push_back(linear_fit(block.centers(), block.mean(), 2).slope);
    whole.merge(block);
  }
  const BlockAverage eta = block_average(eta_total, kBlocks), kin = block_average(eta_kin, kBlocks),
                     col = block_average(eta_col, kBlocks), sl = block_average(slope, kBlocks);

  const SrdViscosity theory = srd_kinetic_theory_viscosity(fluid.rho, prm.kT, prm.mass, a, dt, prm.angle_deg);
  const double eta_theory = theory.total();
  Result r;
  r.name = "srd-couette";
  r.quantity = "shear viscosity eta of the SRD solvent from the xz stress (kinetic + collisional) of Lees-Edwards "
               "simple shear over the shear rate, with the linear profile";
  r.measured = eta.mean;
  r.uncertainty = eta.sem;
  r.reference = eta_theory;
  r.reference_uncertainty = kModelError * eta_theory;
  r.tolerance = 4.0 * std::sqrt(eta.sem * eta.sem + r.reference_uncertainty * r.reference_uncertainty);
  const bool eta_ok = std::fabs(r.measured - r.reference) <= r.tolerance;
  const double slope_tolerance = 4.0 * sl.sem;
  const bool profile_ok = std::fabs(sl.mean - gdot) <= slope_tolerance;
  r.rule = "|eta - eta_theory| <= 4 sqrt(SE^2 + (0.02 eta_theory)^2) (eta_theory: SRD kinetic theory with random "
           "shift, as srd-viscosity; SE: 10 blocks of the production), and the slope of u_x(z) within 4 SE of "
           "the shear rate";
  r.passed = eta_ok && profile_ok;
  r.data["eta_passed"] = eta_ok;
  r.data["profile_passed"] = profile_ok;
  r.data["eta_kinetic"] = kin.mean;
  r.data["eta_kinetic_se"] = kin.sem;
  r.data["eta_collisional"] = col.mean;
  r.data["eta_collisional_se"] = col.sem;
  r.data["eta_blocks"] = eta_total;
  r.data["slope"] = sl.mean;
  r.data["slope_se"] = sl.sem;
  r.data["slope_tolerance"] = slope_tolerance;
  r.data["slope_blocks"] = slope;
  r.data["z"] = whole.centers();
  r.data["profile"] = whole.mean();
  r.data["theory"] = {{"kinetic", theory.kinetic},
                      {"collisional", theory.collisional},
                      {"total", eta_theory},
                      {"model_error", kModelError},
                      {"source", "Kikuchi, Pooley, Ryder & Yeomans, J. Chem. Phys. 119, 6388 (2003); Gompper, "
                                 "Ihle, Kroll & Winkler, Adv. Polym. Sci. 221, 1 (2009)"}};
  r.data["deviation_relative"] = eta.mean / eta_theory - 1.0;
  r.data["shear_rate"] = gdot;
  r.data["shear_rate_times_dt"] = gdot * dt;
  r.data["velocity_jump"] = prm.shear.velocity_jump;
  r.data["box"] = {fluid.L, fluid.L, fluid.L};
  r.data["n"] = sys.particles.size();
  r.data["rho"] = fluid.rho;
  r.data["thermostat"] = prm.thermostat;
  r.data["dt"] = dt;
  r.data["angle_deg"] = prm.angle_deg;
  r.data["precision"] = to_string(ctx.variant.precision);
  r.data["equilibration_time"] = static_cast<double>(equilibrate) * dt;
  r.data["production_time"] = static_cast<double>(per_block * kBlocks) * dt;
  r.data["blocks"] = kBlocks;
  r.data["overrides"] = ctx.params;
  return r;
}

MESO_REGISTER_VALIDATION_CASE({
    .name = "srd-couette",
    // Its simulations are the srd-fluid solvent sheared by Lees-Edwards images (its shear_rate).
    .workload = "srd-fluid",
    .source = "Kikuchi, Pooley, Ryder & Yeomans, J. Chem. Phys. 119, 6388 (2003): SRD viscosity from the stress "
              "of Lees-Edwards shear, kinetic theory with random shift (Gompper et al. 2009); the benchmark "
              "solvent (alpha = 130 deg, dt_c = 0.1, rho = 10, cell thermostat) sheared at 0.05",
    .run = run_srd_couette,
    .knobs = {"production: averaging time", "equilibration: time from the shear profile",
              "L: box edge in cells", "rate: the shear rate",
              "jump: 0 runs the negative control, the images' velocity jump omitted"},
    .controls = {{.name = "no-velocity-jump",
                  .what = "the sheared images offset but not moving: nothing drives the shear",
                  .params = {{"jump", 0.0}},
                  .short_params = {{"production", 100.0}}}}});

}  // namespace meso::validation
