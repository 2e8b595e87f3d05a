// poiseuille-transient: start-up of double Poiseuille flow compared with the
// analytic series at the published times, with nu from an independent steady
// reverse-Poiseuille measurement in the same fluid. See README.md beside this
// file for the coordinates, the short-form scaling and the threshold rule.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "meso/core/error.hpp"
#include "meso/run/progress.hpp"
#include "meso/run/simulation.hpp"
#include "meso/validation/channel_flow.hpp"
#include "meso/validation/validation_case.hpp"
#include "meso/analysis/velocity_profile.hpp"

namespace meso::validation {

Result analyse_poiseuille_transient(const Context& ctx, const nlohmann::json& data);

Result run_poiseuille_transient(const Context& ctx) {
  const bool is_long = ctx.form == Form::long_form;
  // docs/reference.md: rho = 5, a = 15, sigma = 3, kT = 1 (gamma = 4.5), r_c = 1,
  // s = 1, dt = 0.01; N = 262144 in 59.4123 x 7.42654 x 118.825; profiles
  // averaged over [T - 0.5, T + 0.5]; 10 repeats.
  DpdFluidParams fluid;
  fluid.rho = 5.0;
  fluid.a = 15.0;
  fluid.kT = 1.0;
  fluid.gamma = 3.0 * 3.0 / (2.0 * fluid.kT);
  fluid.rcut = 1.0;
  fluid.s = 1.0;
  RunParams rp;
  rp.dt = 0.01;
  rp.integrator = Integrator::velocity_verlet;
  rp.skin = 0.3;

  // Knobs first, so that bad input is refused before anything runs.
  const int runs = static_cast<int>(knob(ctx, "runs", is_long ? 10 : 4));
  if (runs < 2)
    throw_input_error("poiseuille-transient runs = ", runs,
                      " is invalid: the profile noise is measured from the scatter of >= 2 runs");
  const double max_time = knob(ctx, "max_time", 10000.0);
  std::vector<double> published;
  for (double T : {100.0, 200.0, 500.0, 1000.0, 2000.0, 10000.0})
    if (T <= max_time) published.push_back(T);
  if (published.empty())
    throw_input_error("poiseuille-transient max_time = ", max_time, " is invalid: it must be >= 100");

  // 1. nu of this fluid from the viscosity case's code path (its own box,
  //    runs and seeds: independent of the transient runs).
  ReversePoiseuilleSetup st;
  st.fluid = fluid;
  st.fluid.lx = 12.0;
  st.fluid.ly = st.fluid.lz = is_long ? 8.0 : 3.0;
  st.run = rp;
  st.g = 0.055;
  st.bins = 48;
  st.equilibrate_time = 100.0;  // ~7 relaxation times d^2/(pi^2 nu) for d = 6
  st.production_time = knob(ctx, "steady_production", is_long ? 200.0 : 300.0);
  st.runs = static_cast<int>(knob(ctx, "steady_runs", is_long ? 10 : 1));
  st.seed = ctx.seed + 7777;
  // With shards, shard 0 alone measures nu (the merge takes it from there).
  const RunRange range = shard_runs(ctx, runs);
  nlohmann::json steady_json;
  if (ctx.shard_index == 0) steady_json = to_json(measure_reverse_poiseuille(ctx, st));

  // 2. Start-up of the double Poiseuille flow. Channel width d = Lz / 2: flow
  //    along x, gradient along z, +g for z < 0 (channel centred at -d/2) and
  //    -g for z >= 0 (centred at +d/2). The short form is the long form with
  //    lengths scaled by d_s / d and times by (d_s / d)^2 (nu t / d^2 is the
  //    only time scale of the series), the driving by (d / d_s)^2 so that the
  //    steady amplitude g d^2 / (8 nu) is the same.
  const double d_long = 118.825 / 2.0;
  const double d = is_long ? d_long : 8.0;
  const double scale = d / d_long;
  fluid.lx = is_long ? 59.4123 : 4.0;
  fluid.ly = is_long ? 7.42654 : 4.0;
  fluid.lz = 2.0 * d;
  const double g = 5e-4 / (scale * scale);
  // The negative control: the runs driven g_scale times harder than the
  // series they are compared with.
  const double g_scale = knob(ctx, "g_scale", 1.0);
  const uint32_t bins = 2 * static_cast<uint32_t>(std::lround(2.0 * d));  // ~0.5 wide, edge at z = 0
  const auto step_of = [&](double t) { return static_cast<uint64_t>(std::llround(t / rp.dt)); };
  // Samples every 5 steps (0.05 time units); each window runs from the first
  // to the last sample inside [T - 0.5, T + 0.5], and the analytic series is
  // averaged over exactly that span.
  const uint64_t sample_steps = 5;
  std::vector<std::pair<uint64_t, uint64_t>> window_steps;
  std::vector<std::pair<double, double>> windows;
  for (double T : published) {
    const double t = T * scale * scale;
    const uint64_t b = (step_of(t - 0.5) + sample_steps - 1) / sample_steps * sample_steps;
    const uint64_t e = step_of(t + 0.5) / sample_steps * sample_steps;
    if (!window_steps.empty() && b <= window_steps.back().second)
      throw std::logic_error("poiseuille-transient: time windows overlap");
    window_steps.emplace_back(b, e);
    windows.emplace_back(b * rp.dt, e * rp.dt);
  }
  const uint64_t end_step = window_steps.back().second;

  nlohmann::json per_run = nlohmann::json::array();
  std::vector<double> centers;
  uint64_t n = 0;
  for (int k = range.first; k < range.last; ++k) {
    double max_com_speed = 0.0;
    const uint64_t seed = ctx.seed + 1000003ull * static_cast<uint64_t>(k);
    DpdFluidParams f = fluid;
    f.seed = seed;
    RunParams r = rp;
    r.seed = static_cast<uint32_t>(seed);
    System sys = make_dpd_fluid(f);
    sys.body_force.g = {g * g_scale, 0.0, 0.0};
    sys.body_force.reverse_axis = 2;
    n = sys.particles.n_local;
    Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), sys, r);
    progress::begin("poiseuille-transient repeat " + std::to_string(k), end_step);
    VelocityProfile proto(sys.box, /*axis=*/2, /*component=*/0, bins);
    proto.set_remove_center_of_mass(true);
    centers = proto.centers();
    WindowedProfiles wp(proto, windows, end_step * rp.dt);
    // Step to each sample inside a window; skip between windows in one call.
    uint64_t step = 0;
    for (const auto& [b, e] : window_steps) {
      for (uint64_t s = b; s <= e; s += sample_steps) {
        sim.run(s - step);
        step = s;
        const ParticleData<double> p = sim.particles();
        wp.sample(step * rp.dt, p, sys.type_mass);
        const Vec3d P = total_momentum(sys, p);
        max_com_speed = std::max(max_com_speed, std::fabs(P.x) / (n * f.mass));
      }
    }
    nlohmann::json profiles = nlohmann::json::array();  // [time][bin]
    for (std::size_t t = 0; t < published.size(); ++t) profiles.push_back(wp.windows()[t].profile.mean());
    per_run.push_back({{"run", k}, {"seed", seed}, {"profiles", profiles}, {"max_center_of_mass_speed", max_com_speed}});
  }
  nlohmann::json times = nlohmann::json::array();
  for (std::size_t t = 0; t < published.size(); ++t)
    times.push_back({{"published_time", published[t]},
                     {"window", {windows[t].first, windows[t].second}},
                     {"samples_per_run", (window_steps[t].second - window_steps[t].first) / sample_steps + 1}});
  nlohmann::json data = {{"N", n},
                         {"box", {fluid.lx, fluid.ly, fluid.lz}},
                         {"channel_width", d},
                         {"time_scale_factor", scale * scale},
                         {"g", g},
                         {"bins", bins},
                         {"runs", runs},
                         {"dt", rp.dt},
                         {"integrator", to_string(rp.integrator)},
                         {"fluid", {{"rho", fluid.rho}, {"a", fluid.a}, {"gamma", fluid.gamma}, {"kT", fluid.kT}}},
                         {"centers", centers},
                         {"times", times},
                         {"steady_box", {st.fluid.lx, st.fluid.ly, st.fluid.lz}},
                         {"steady_g", st.g},
                         {"overrides", ctx.params},
                         {"per_run", per_run}};
  if (!steady_json.is_null()) data["steady_measurement"] = steady_json;
  if (ctx.shard_count > 1) return shard_result(ctx, "poiseuille-transient", std::move(data));
  return analyse_poiseuille_transient(ctx, data);
}

// Profiles of all repeats against the analytic series, from the data that
// run_poiseuille_transient (or --merge) assembled.
Result analyse_poiseuille_transient(const Context&, const nlohmann::json& data) {
  const nlohmann::json& per_run = data.at("per_run");
  const int runs = static_cast<int>(per_run.size());
  if (runs != data.at("runs").get<int>())
    throw_input_error("poiseuille-transient: ", runs, " repeats recorded, ", data.at("runs").get<int>(),
                      " expected (a shard missing from --merge?)");
  if (!data.contains("steady_measurement"))
    throw_input_error("poiseuille-transient: no steady_measurement (shard 0 measures nu; is it in --merge?)");
  const nlohmann::json& steady = data.at("steady_measurement");
  const double nu = steady.at("eta").get<double>() / steady.at("mass_density").get<double>();
  const double nu_se = steady.at("se").get<double>() / steady.at("mass_density").get<double>();
  const double d = data.at("channel_width").get<double>();
  const double g = data.at("g").get<double>();
  const auto bins = data.at("bins").get<uint32_t>();
  const auto centers = data.at("centers").get<std::vector<double>>();
  std::vector<double> published;
  std::vector<std::pair<double, double>> windows;
  for (const auto& t : data.at("times")) {
    published.push_back(t.at("published_time").get<double>());
    windows.emplace_back(t.at("window")[0].get<double>(), t.at("window")[1].get<double>());
  }
  std::vector<std::vector<std::vector<double>>> profiles(published.size());  // [time][run][bin]
  double max_com_speed = 0.0;
  for (const auto& r : per_run) {
    for (std::size_t t = 0; t < published.size(); ++t)
      profiles[t].push_back(r.at("profiles")[t].get<std::vector<double>>());
    max_com_speed = std::max(max_com_speed, r.at("max_center_of_mass_speed").get<double>());
  }

  // 3. Compare each time with the analytic series averaged over the same bin
  //    and window. Noise per bin: variance of the mean over the runs; nu's
  //    standard error enters through d u / d nu. Both are added in quadrature
  //    and the threshold is 4 times their RMS over the bins.
  const double u_ss = g * d * d / (8.0 * nu);
  const double h = 0.5 * (2.0 * d / bins);
  const auto analytic = [&](double z, double t0, double t1, double nu_) {
    const double sign = z < 0.0 ? 1.0 : -1.0, centre = z < 0.0 ? -0.5 * d : 0.5 * d;
    return sign * startup_channel_velocity(z - h - centre, z + h - centre, t0, t1, g, nu_, d);
  };
  nlohmann::json per_time = nlohmann::json::array();
  bool all_pass = steady.at("steady").get<bool>();
  double worst_ratio = -1.0, worst_l2 = 0.0, worst_noise = 0.0, worst_threshold = 0.0;
  for (std::size_t t = 0; t < published.size(); ++t) {
    const std::size_t nb = centers.size();
    std::vector<double> mean(nb, 0.0), sem(nb, 0.0), an(nb), an_point(nb), dnu(nb);
    for (const auto& prof : profiles[t])
      for (std::size_t b = 0; b < nb; ++b) mean[b] += prof[b] / runs;
    for (const auto& prof : profiles[t])
      for (std::size_t b = 0; b < nb; ++b) sem[b] += (prof[b] - mean[b]) * (prof[b] - mean[b]);
    double sq = 0.0, noise_sq = 0.0;
    const auto [t0, t1] = windows[t];
    for (std::size_t b = 0; b < nb; ++b) {
      sem[b] = std::sqrt(sem[b] / (runs - 1) / runs);
      an[b] = analytic(centers[b], t0, t1, nu);
      an_point[b] = analytic(centers[b], 0.5 * (t0 + t1), 0.5 * (t0 + t1), nu);
      dnu[b] = (analytic(centers[b], t0, t1, nu * 1.001) - analytic(centers[b], t0, t1, nu * 0.999)) /
               (0.002 * nu) * nu_se;
      sq += (mean[b] - an[b]) * (mean[b] - an[b]);
      noise_sq += sem[b] * sem[b] + dnu[b] * dnu[b];
    }
    const double l2 = std::sqrt(sq / nb) / u_ss, noise = std::sqrt(noise_sq / nb) / u_ss;
    const double threshold = 4.0 * noise;
    const bool pass = l2 <= threshold;
    all_pass = all_pass && pass;
    if (l2 / threshold > worst_ratio) {
      worst_ratio = l2 / threshold;
      worst_l2 = l2;
      worst_noise = noise;
      worst_threshold = threshold;
    }
    per_time.push_back({{"published_time", published[t]},
                        {"time", 0.5 * (t0 + t1)},
                        {"window", {t0, t1}},
                        {"samples_per_run", data.at("times")[t].at("samples_per_run")},
                        {"l2_relative", l2},
                        {"noise_relative", noise},
                        {"threshold", threshold},
                        {"passed", pass},
                        {"profile", mean},
                        {"profile_sem", sem},
                        {"analytic_bin_window_mean", an},
                        {"analytic_at_centre", an_point},
                        {"analytic_nu_uncertainty", dnu}});
  }

  const nlohmann::json& fl = data.at("fluid");
  const KineticViscosity kt = kinetic_theory_viscosity(fl.at("rho").get<double>(), fl.at("gamma").get<double>(),
                                                       fl.at("kT").get<double>(), 1.0, 1.0);
  Result res;
  res.name = "poiseuille-transient";
  res.quantity = "L2(u_sim - u_analytic) / u_steady at the worst published time";
  res.measured = worst_l2;
  res.uncertainty = worst_noise;
  res.reference = 0.0;
  res.reference_uncertainty = 0.0;
  res.tolerance = worst_threshold;
  res.rule = "at every time: RMS over bins of (mean of runs - analytic series averaged over bin and window), "
             "over g d^2/(8 nu), <= 4 x the RMS of the per-bin standard error (scatter of the runs) and of "
             "the nu error propagated; nu from a steady reverse-Poiseuille run of the same fluid";
  res.passed = all_pass;
  res.data = data;
  res.data["nu"] = nu;
  res.data["nu_se"] = nu_se;
  res.data["eta"] = steady.at("eta");
  res.data["eta_se"] = steady.at("se");
  res.data["steady_amplitude"] = u_ss;
  res.data["max_center_of_mass_speed"] = max_com_speed;
  res.data["times"] = per_time;
  res.data["kinetic_theory"] = {{"kinetic", kt.kinetic}, {"dissipative", kt.dissipative}, {"total", kt.total()}};
  return res;
}

MESO_REGISTER_VALIDATION_CASE({
    .name = "poiseuille-transient",
    // Its simulations are the dpd-fluid benchmark fluid under a body force.
    .workload = "dpd-fluid",
    .source = "Tang & Karniadakis, CPC 185, 2809 (2014) sec. 4.2 Eq. 10; Sigalotti et al., JCP 191, 622 "
              "(2003): start-up of double Poiseuille flow, rho = 5, a = 15, sigma = 3, kT = 1",
    .run = run_poiseuille_transient,
    .knobs = {"runs: transient repeats", "max_time: last published time profiled (long-form units)",
              "steady_runs: runs of the steady viscosity measurement",
              "steady_production: averaging time per steady run",
              "g_scale: the start-up runs' body force over the series' (1; the negative control's 1.75)"},
    // A drive (1 + x) times the series' moves each profile by x u(t) (the
    // start-up is linear in g), an L2 of about x rms(u(t)) / u_ss: 0.73 x at
    // T = 10000, where the short form's threshold is 0.26-0.30 and its noise
    // 0.066-0.075 (README). 10% more (g-1.1) read 0.071 there and was
    // accepted; x = 0.75 reads about 0.55, twice the threshold, a margin of
    // 3.3-4.4 noise units, and ~0.43 at T = 2000 (threshold 0.25-0.31); the
    // CPU reference read 0.553 and 0.456 (README). The short form's 2-6
    // minutes of CPU are more than CI has for a control.
    .controls = {{.name = "g-1.75",
                  .what = "the start-up flow driven 75% harder than the analytic series",
                  .params = {{"g_scale", 1.75}},
                  .in_ci = false,
                  .shown = "results/validation/controls-cpu-2026-11-29/"
                           "control-poiseuille-transient-g-1.75-short-double-s1.json.xz"}},
    .analyse = analyse_poiseuille_transient});

}  // namespace meso::validation
