// polymer-hydrodynamics: hydrodynamics shows in the dynamics of the chains of
// polymer-srd (Howard et al., CPC 2018, sec. 4.3). Dilute Kremer-Grest
// chains of N = 10, 20 and 40 monomers:
// - R_g ~ N^nu with the good-solvent nu = 0.588;
// - in the SRD solvent the centre of mass diffuses as N^-0.59 (Zimm), after
//   the periodic-box correction of Dünweg & Kremer;
// - under Langevin dynamics (no hydrodynamics) as N^-1 (Rouse).
// The long form (a GPU) runs both dynamics; the short form (CPU, CI) the
// Langevin chains only. Each (N, dynamics) is one repeat, so the long form
// can be sharded (--shard, --merge). README.md beside this file states the
// boxes, times, windows, estimators and bounds, and why.
#include <cmath>
#include <cstdio>

#include "meso/core/error.hpp"
#include "meso/systems/polymer_solution.hpp"
#include "meso/core/presets.hpp"
#include "meso/run/progress.hpp"
#include "meso/run/simulation.hpp"
#include "meso/validation/channel_flow.hpp"
#include "meso/validation/polymer_fits.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::validation {

Result analyse_polymer_hydrodynamics(const Context& ctx, const nlohmann::json& data);

namespace {

// One repeat: chains of one length under one dynamics, in a box of edge L.
struct RunSpec {
  uint32_t n = 0;
  bool srd = false;
  uint32_t chains = 0;
  double L = 0.0;
};

// The chain counts hold the chains' coil volume fraction
// phi = chains (4 pi / 3) R_g^3 / L^3 near 0.01 under Langevin dynamics (a
// box costs nothing there) and 0.03 in the SRD solvent (its box costs the
// solvent's collisions), with R_g = 1.66, 2.64, 4.2 at N = 10, 20, 40
// (README.md). N = 80 (Langevin) shows where the local exponent of R_g
// goes; each fit runs over every chain length its dynamics has (README.md):
// in the long form N = 10-80 under Langevin and 10-40 in the SRD solvent,
// in the short form 10-40.
struct Protocol {
  std::vector<RunSpec> runs = {{10, false, 136, 64.0}, {20, false, 34, 64.0}, {40, false, 28, 96.0},
                               {80, false, 17, 128.0}, {10, true, 160, 48.0}, {20, true, 40, 48.0},
                               {40, true, 10, 48.0}};
  double dt = 0.01;         // MD step (10 per collision of 0.1)
  double gamma = 2.0;       // Langevin drag per monomer (velocity relaxation M/gamma = 5)
  double t_eq = 1000.0;     // equilibration
  double t_run = 30000.0;   // production
  double every = 5.0;       // sampling interval
  double lag_a = 20.0, lag_b = 200.0;  // D = (MSD(lag_b) - MSD(lag_a)) / (6 (lag_b - lag_a))
  double drag_thinning = 0.0;          // the Langevin drag as (N/10)^-x (the negative control's)
};

// Per chain: time averages of R_g^2 and of 1/R_h = (1/N^2) sum_{i != j}
// 1/r_ij (Kirkwood), and the centre-of-mass diffusion coefficient.
nlohmann::json run_chains(const Context& ctx, const Protocol& pr, const RunSpec& spec, uint64_t seed) {
  PolymerSolutionParams p;
  p.chains = spec.chains;
  p.chain_length = spec.n;
  p.L = spec.L;
  p.seed = seed;
  RunParams rp;
  rp.dt = pr.dt;
  rp.skin = 0.3;
  rp.seed = static_cast<uint32_t>(seed);
  rp.kT = p.kT;
  rp.integrator = spec.srd ? Integrator::velocity_verlet : Integrator::langevin;
  // The negative control: a monomer drag that thins with chain length as
  // (N/10)^-x (a hydrodynamic-like screening the Langevin chains lack).
  rp.gamma = pr.gamma * std::pow(spec.n / 10.0, -pr.drag_thinning);
  SimulationSetup setup{make_polymer_chains(p), rp, std::nullopt};
  if (spec.srd) setup.solvent = make_polymer_solvent(p, presets::howard_srd_solvent(static_cast<uint32_t>(seed)));
  const Box box = setup.box();
  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), std::move(setup));
  const auto steps = [&](double t) { return static_cast<uint64_t>(std::llround(t / pr.dt)); };
  const uint64_t every = steps(pr.every), samples = steps(pr.t_run) / every;
  const uint64_t ka = std::llround(pr.lag_a / pr.every), kb = std::llround(pr.lag_b / pr.every);
  if (kb >= samples) throw_input_error("polymer-hydrodynamics: lag ", pr.lag_b, " exceeds the run ", pr.t_run);
  char what[80];
  std::snprintf(what, sizeof what, "polymer-hydrodynamics N = %u %s", spec.n, spec.srd ? "srd" : "langevin");
  progress::begin(what, steps(pr.t_eq) + samples * every);
  sim.run(steps(pr.t_eq));
  const uint32_t m = spec.chains, n = spec.n;
  std::vector<std::vector<Vec3d>> com(samples);
  std::vector<double> rg2(m, 0.0), rh_inv(m, 0.0);
  std::vector<Vec3d> r(n);
  for (uint64_t s = 0; s < samples; ++s) {
    sim.run(every);
    const ParticleData<double> q = sim.particles();
    const ChainConformations c = chain_conformations(box, q, m, n);
    com[s] = c.com;
    for (uint32_t i = 0; i < m; ++i) {
      rg2[i] += c.rg2[i] / double(samples);
      for (uint32_t k = 0; k < n; ++k) r[k] = box.unwrap(q.position[std::size_t(i) * n + k], q.image[std::size_t(i) * n + k]);
      double inv = 0.0;
      for (uint32_t a = 0; a < n; ++a)
        for (uint32_t b = a + 1; b < n; ++b) inv += 1.0 / std::sqrt(dot(r[a] - r[b], r[a] - r[b]));
      rh_inv[i] += 2.0 * inv / (double(n) * n) / double(samples);
    }
  }
  progress::end();
  std::vector<double> d(m, 0.0);
  for (uint32_t i = 0; i < m; ++i) {
    auto msd = [&](uint64_t k) {
      double s = 0.0;
      for (uint64_t t = 0; t + k < samples; ++t) {
        const Vec3d x = com[t + k][i] - com[t][i];
        s += dot(x, x);
      }
      return s / double(samples - k);
    };
    d[i] = (msd(kb) - msd(ka)) / (6.0 * (pr.lag_b - pr.lag_a));
  }
  return {{"N", n}, {"dynamics", spec.srd ? "srd" : "langevin"}, {"chains", m}, {"L", spec.L}, {"seed", seed},
          {"rg2", rg2}, {"rh_inv", rh_inv}, {"D", d}};
}

}  // namespace

Result run_polymer_hydrodynamics(const Context& ctx) {
  const bool is_long = ctx.form == Form::long_form;
  Protocol pr;
  if (!is_long) {
    // The CPU form: the Langevin chains only, shorter (README.md).
    pr.runs = {{10, false, 58, 48.0}, {20, false, 14, 48.0}, {40, false, 8, 64.0}};
    pr.t_eq = 200.0;
    pr.t_run = 6000.0;
    pr.every = 2.0;
    pr.lag_a = 20.0;
    pr.lag_b = 100.0;
  }
  const double scale = knob(ctx, "chains", 1.0);
  for (RunSpec& r : pr.runs) r.chains = std::max<uint32_t>(2, static_cast<uint32_t>(std::lround(scale * r.chains)));
  pr.t_run = knob(ctx, "time", pr.t_run);
  pr.t_eq = knob(ctx, "equilibration", pr.t_eq);
  pr.drag_thinning = knob(ctx, "drag_thinning", 0.0);
  const std::vector<RunSpec>& specs = pr.runs;
  const RunRange range = shard_runs(ctx, static_cast<int>(specs.size()));
  nlohmann::json per_run = nlohmann::json::array();
  for (int k = range.first; k < range.last; ++k)
    per_run.push_back(run_chains(ctx, pr, specs[k], ctx.seed + 1000 * uint64_t(k) + specs[k].n));
  const MpcdParams m = presets::howard_srd_solvent(1);
  const double eta = srd_kinetic_theory_viscosity(10.0, m.kT, m.mass, m.cell_size, m.dt, m.angle_deg).total();
  nlohmann::json data = {{"form", to_string(ctx.form)}, {"runs", specs.size()}, {"dt", pr.dt},
                         {"gamma", pr.gamma}, {"t_eq", pr.t_eq}, {"t_run", pr.t_run}, {"every", pr.every},
                         {"lags", {pr.lag_a, pr.lag_b}}, {"eta_srd_theory", eta}, {"per_run", per_run}};
  if (ctx.shard_count > 1) return shard_result(ctx, "polymer-hydrodynamics", std::move(data));
  return analyse_polymer_hydrodynamics(ctx, data);
}

MESO_REGISTER_VALIDATION_CASE({
    .name = "polymer-hydrodynamics",
    // Its simulations are polymer-srd's chains, in its SRD and its Langevin solvent.
    .workload = "polymer-srd",
    .source = "Howard et al., CPC 230, 10 (2018) sec. 4.3; Huang et al., Macromolecules 43, 10107 (2010); "
              "Duenweg & Kremer, J. Chem. Phys. 99, 6983 (1993): R_g ~ N^0.588, D ~ N^-0.59 (Zimm), "
              "N^-1 (Rouse)",
    .run = run_polymer_hydrodynamics,
    .knobs = {"chains: factor on every run's chain count", "time: production time per run",
              "equilibration: equilibration time per run",
              "drag_thinning: the Langevin monomer drag as (N/10)^-x (0; the negative control's)"},
    // Drag as N^-0.4 turns Rouse's D ~ N^-1 into N^-0.6, four times the
    // short form's band of 0.1; the short form takes minutes.
    .controls = {{.name = "drag-thinning-0.4",
                  .what = "Langevin drag per monomer as (N/10)^-0.4 (D ~ N^-0.6, not Rouse's N^-1)",
                  .params = {{"drag_thinning", 0.4}},
                  .in_ci = false,
                  .shown = "results/validation/gates-h200-2026-11-29d/"
                           "control-polymer-hydrodynamics-drag-thinning-0.4-short-cpu-double-s1.json.xz"}},
    .analyse = analyse_polymer_hydrodynamics});

}  // namespace meso::validation
