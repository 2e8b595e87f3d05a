// ssd-water: SSD/RF water (meso/physics/ssd_water.hpp) at its published
// density, 0.997 g/cm^3, and 298 K against the liquid properties Fennell &
// Gezelter published for it (J. Chem. Phys. 120, 9175 (2004), the table of
// the single-point models at ambient conditions): the self-diffusion
// constant, D = 2.32(6) x 10^-5 cm^2/s, and the coordination number of the
// oxygen-oxygen g(r), n_C = 4.4. The potential energy per molecule and the first
// peak of g(r) are reported beside them; no value of either was at hand to
// gate on. README.md beside this file states the protocol and the bounds.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "meso/analysis/block_average.hpp"
#include "meso/analysis/full_step_temperature.hpp"
#include "meso/core/init.hpp"
#include "meso/analysis/linear_fit.hpp"
#include "meso/run/progress.hpp"
#include "meso/analysis/rdf.hpp"
#include "meso/run/simulation.hpp"
#include "meso/validation/validation_case.hpp"
#include "meso/systems/water.hpp"

namespace meso::validation {
namespace {

constexpr double kCoordination = 4.4;
// n_C is integrated to a radius fixed before the runs it gates (README.md):
// the middle of the flat minimum the committed long forms found (3.25-3.45
// A). Where in that minimum the published integral stopped is not stated,
// and n_C grows 0.38 per 0.1 A there: 4.4 +- 0.4, plus 0.05 of rounding.
constexpr double kCoordinationRadius = 3.35, kCoordinationTol = 0.45;
constexpr double kDiffusion = 2.32, kDiffusionSigma = 0.06;
// D within 3 combined standard errors (ours and the published 0.06; 0.18,
// about 8%, in the long form) of 2.32 after the Yeh-Hummer correction.
constexpr double kDiffusionSigmas = 3.0;
// Yeh & Hummer, J. Phys. Chem. B 108, 15873 (2004): D(L) = D - xi kT / (6
// pi eta L) in a cubic box of edge L, xi = 2.837297. eta: real water's at
// 298.15 K, 0.890 mPa s; SSD/RF's own is not among the published values.
constexpr double kYehHummerXi = 2.837297, kViscosityPaS = 0.890e-3;
// The temperatures, kinetic (translation and rotation), each with its full
// step's O(dt^2) bias removed (README.md, "The T gate's failure"):
// - the NVE run's within 3 combined standard errors of its bath's: the two
//   runs' own and the energy-matched start's (the bath's mean energy per
//   molecule over SSD/RF's published heat capacity, C_p = 23.83 cal/(mol K));
// - the bath's within t_tol_K of 298.15 K, the bound the gate had before
//   seed 11 failed (1 K long, 6 K short), not widened: the rigid-body BAOAB
//   step at 2 fs holds the liquid below its target by a residual the
//   correction does not remove (-0.86 +- 0.20 K on the CPU reference), a
//   finding the gate is there to show, not to absorb (README.md). The
//   bath's standard error (at least the spread of its mean between seeds)
//   is reported beside it.
constexpr double kTemperatureSigmas = 3.0, kHeatCapacity = 23.83e-3;  // kcal/(mol K)
constexpr double kPs = 1000.0 / water_units::kTimeFs;                                // time units per ps
constexpr double kDiffusionUnit = 10.0;  // 1 A^2/ps = 1e-4 cm^2/s, in 1e-5 cm^2/s

// The short form (CI): 343 molecules (the smallest cube whose half edge,
// 10.9 A, holds the 9 A cutoff and 1 A skin), 20 ps of Langevin and 20 of
// NVE, its bounds from its own statistics (README.md).
struct Protocol {
  uint64_t n = 343;
  double equilibrate_ps = 20.0, sample_ps = 20.0, every_ps = 0.1;
  int blocks = 4;               // of the NVE run, for D and its standard error
  double fit_from_ps = 1.0;     // the lags of MSD(t) fitted, in ps, within a block
  double fit_to_ps = 3.0;
  double rdf_every_ps = 1.0;
  double d_se_cap = 0.08;       // relative: 3.0% measured (seed 1), from 4 blocks
  double t_se_cap_K = 3.0;      // the NVE run's temperature against its bath's: its standard error at most
  // The bath's mean temperature: the spread between seeds, 2.5 K (seeds 1
  // and 5, 10 ps of bath), which its 1-ps blocks underestimate (seed 1:
  // 1.0 K); scaled to the long form's 4096 molecules and 30 ps, 0.4 K.
  double t_bath_se_floor_K = 2.5;
  double t_tol_K = 6.0;  // the bath's temperature against 298.15 K
};

std::vector<Vec3d> unwrapped(const Box& box, const ParticleData<double>& p) {
  const Vec3d L = box.lengths();
  std::vector<Vec3d> u(p.n_local);
  for (std::size_t i = 0; i < p.n_local; ++i)
    u[i] = p.position[i] + Vec3d{L.x * p.image[i].x, L.y * p.image[i].y, L.z * p.image[i].z};
  return u;
}

// The temperatures of a sample, in K: of translation (over `dof` degrees
// of freedom), of rotation and kinetic (both), at the full step as thermo()
// reads them and with the full step's O(dt^2) bias removed
// (meso/analysis/full_step_temperature.hpp).
struct Temperatures {
  double trans = 0.0, rot = 0.0, kinetic = 0.0;
  double trans_corrected = 0.0, rot_corrected = 0.0, kinetic_corrected = 0.0;
};

Temperatures temperatures(const System& sys, const ThermoSample& t, const ParticleData<double>& p, double dt,
                          double dof) {
  const FullStepBias b = full_step_bias(sys, p, dt);
  const double twice = 2.0 * t.kinetic_energy, twice_rot = 2.0 * t.rotational_kinetic_energy;
  const double k = water_units::kBoltzmann, dof_rot = t.rotational_dof;
  const double c = twice + b.twice_kinetic, c_rot = twice_rot + b.twice_rotational;
  return {twice / (k * dof), twice_rot / (k * dof_rot), (twice + twice_rot) / (k * (dof + dof_rot)),
          c / (k * dof),     c_rot / (k * dof_rot),     (c + c_rot) / (k * (dof + dof_rot))};
}

// A run's samples.
struct TemperatureSeries {
  std::vector<Temperatures> samples;
  BlockAverage average(double Temperatures::*of) const {
    std::vector<double> v;
    for (const Temperatures& t : samples) v.push_back(t.*of);
    return block_average(v, 10);
  }
  // Each as [mean, standard error].
  nlohmann::json summary() const {
    nlohmann::json j;
    using T = Temperatures;
    for (const auto& [name, of] : {std::pair{"T_trans", &T::trans}, {"T_rot", &T::rot}, {"T_kinetic", &T::kinetic},
                                   {"T_trans_corrected", &T::trans_corrected}, {"T_rot_corrected", &T::rot_corrected},
                                   {"T_kinetic_corrected", &T::kinetic_corrected}}) {
      const BlockAverage a = average(of);
      j[name] = {a.mean, a.sem};
    }
    return j;
  }
};

// D of one block of samples (every `dt_sample` apart): MSD over every time
// origin for each lag, and the least-squares slope of MSD(lag) over the
// lags [from, to], over 6.
double block_diffusion(const std::vector<std::vector<Vec3d>>& s, std::size_t first, std::size_t count,
                       double dt_sample, double from, double to) {
  const std::size_t lag_a = std::max<std::size_t>(1, std::size_t(std::llround(from / dt_sample)));
  const std::size_t lag_b = std::min(count - 1, std::size_t(std::llround(to / dt_sample)));
  std::vector<double> lags, msds;
  for (std::size_t lag = lag_a; lag <= lag_b; ++lag) {
    double msd = 0.0;
    std::size_t origins = 0;
    for (std::size_t o = first; o + lag < first + count; ++o, ++origins)
      for (std::size_t i = 0; i < s[o].size(); ++i) {
        const Vec3d d = s[o + lag][i] - s[o][i];
        msd += dot(d, d);
      }
    msd /= double(origins) * double(s[first].size());
    const double t = double(lag) * dt_sample;
    lags.push_back(t);
    msds.push_back(msd);
  }
  return linear_fit(lags, msds, 2).slope / 6.0;
}

// n_C to the radius r: the bins below it, the one it cuts in proportion.
double coordination_to(const Rdf& g, double rho, double r) {
  double n = 0.0;
  for (std::size_t i = 0; i < g.g.size(); ++i) {
    const double lo = g.r[i] - 0.5 * g.bin_width;
    const double part = std::clamp((r - lo) / g.bin_width, 0.0, 1.0);
    n += part * 4.0 * std::numbers::pi * rho * g.g[i] * g.r[i] * g.r[i] * g.bin_width;
  }
  return n;
}

// The NVE run's total energy set to the mean of the thermostatted run's
// (velocities and angular momenta scaled by one factor): a Langevin state
// ends at one draw from the canonical energies, and NVE keeps it, so its
// temperature would miss the bath's by the canonical spread, about 1.4 K
// at 4096 molecules and 5 K at 343 (c_v of about 12 k_B a molecule).
double match_energy(const Context& ctx, System& sys, const RunParams& rp, double target) {
  const ThermoSample t = Simulation(ctx.registry->create(ctx.backend, ctx.variant), sys, rp).thermo();
  const double k = t.kinetic_energy + t.rotational_kinetic_energy;
  const double f = std::sqrt(std::max(0.0, k + target - t.total_energy()) / k);
  auto& p = sys.particles;
  for (std::size_t i = 0; i < p.n_local; ++i) {
    p.velocity[i] = f * p.velocity[i];
    p.angmom[i] = f * p.angmom[i];
  }
  return f;
}

struct FirstShell {
  double peak_r = 0.0, peak_g = 0.0, min_r = 0.0, coordination = 0.0;
  // The flat bottom of the minimum (g within kFlat of its least value,
  // contiguous): where in it the integral stops is a matter of definition.
  double flat_from_r = 0.0, flat_to_r = 0.0, coordination_lo = 0.0, coordination_hi = 0.0;
};
constexpr double kFlat = 0.01;

// The first peak, the first minimum after it and n_C = 4 pi rho int_0^rmin
// g r^2 dr (the bins' midpoint sum), at the least bin and at both ends of
// the flat bottom.
FirstShell first_shell(const Rdf& g, double rho) {
  FirstShell f;
  std::size_t k = 0;
  for (std::size_t i = 0; i < g.g.size(); ++i)
    if (g.g[i] > f.peak_g) f.peak_g = g.g[i], f.peak_r = g.r[i], k = i;
  std::size_t m = k;
  for (std::size_t i = k + 1; i < g.g.size(); ++i) {
    if (g.g[i] < g.g[m]) m = i;
    if (g.g[i] > g.g[m] + 0.1) break;  // past the minimum into the second shell
  }
  std::size_t lo = m, hi = m;
  while (lo > k + 1 && g.g[lo - 1] <= g.g[m] + kFlat) --lo;
  while (hi + 1 < g.g.size() && g.g[hi + 1] <= g.g[m] + kFlat) ++hi;
  std::vector<double> cumulative(g.g.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < g.g.size(); ++i) {
    sum += 4.0 * std::numbers::pi * rho * g.g[i] * g.r[i] * g.r[i] * g.bin_width;
    cumulative[i] = sum;
  }
  const double half = 0.5 * g.bin_width;
  f.min_r = g.r[m] + half;
  f.coordination = cumulative[m];
  f.flat_from_r = g.r[lo] + half;
  f.flat_to_r = g.r[hi] + half;
  f.coordination_lo = cumulative[lo];
  f.coordination_hi = cumulative[hi];
  return f;
}

}  // namespace

Result run_ssd_water(const Context& ctx) {
  Protocol pr;
  if (ctx.form == Form::long_form) {
    pr.n = 4096;
    // 180 ps, 90 of them sampled for the bath's energy and temperature
    // (60 until seed 14 failed the standard-error cap: the bath's blocks
    // and the start's error, from 30 ps, were most of its 0.60 K).
    pr.equilibrate_ps = 180.0;
    pr.sample_ps = 200.0;
    pr.blocks = 8;
    pr.fit_to_ps = 10.0;
    pr.d_se_cap = 0.02;
    pr.t_se_cap_K = 0.5;
    pr.t_bath_se_floor_K = 0.4;
    pr.t_tol_K = 1.0;
  }
  pr.n = static_cast<uint64_t>(knob(ctx, "N", double(pr.n)));
  pr.sample_ps = knob(ctx, "sample", pr.sample_ps);
  pr.equilibrate_ps = knob(ctx, "equilibrate", pr.equilibrate_ps);
  pr.blocks = static_cast<int>(knob(ctx, "blocks", pr.blocks));
  pr.fit_to_ps = knob(ctx, "fit_to", pr.fit_to_ps);
  const double dt_fs = knob(ctx, "dt", 2.0);
  SsdWaterParams w;
  w.n = pr.n;
  w.seed = ctx.seed;
  RunParams rp;
  rp.dt = dt_fs / water_units::kTimeFs;
  rp.skin = 1.0;
  rp.kT = w.kT();
  rp.gamma = w.mass / kPs;  // 1 ps damping, as the ssd-water workload
  rp.gamma_r = (w.inertia.x + w.inertia.y + w.inertia.z) / 3.0 / kPs;
  rp.seed = static_cast<uint32_t>(ctx.seed);
  const auto steps_of = [&](double ps) { return static_cast<uint64_t>(std::llround(ps * kPs / rp.dt)); };
  const uint64_t eq = steps_of(pr.equilibrate_ps), every = steps_of(pr.every_ps);
  const uint64_t samples = steps_of(pr.sample_ps) / every;
  const uint64_t rdf_every = std::max<uint64_t>(1, steps_of(pr.rdf_every_ps) / every);
  progress::begin("ssd-water", eq + samples * every);
  System sys = make_ssd_water(w);
  // Melt and equilibrate under Langevin, then sample NVE (diffusion needs
  // the unperturbed dynamics). The second half of the Langevin run gives
  // the mean energy the NVE run starts at, and its temperatures, at the full
  // step and corrected (3N degrees of freedom: Langevin does not conserve
  // momentum), reported: the corrected ones read the thermostat's.
  std::vector<double> bath_energy;
  TemperatureSeries bath_t;
  {
    RunParams lp = rp;
    lp.integrator = Integrator::langevin;
    lp.kT = rp.kT * knob(ctx, "langevin_kT", 1.0);  // the negative control: equilibrated hot
    Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), sys, lp);
    sim.run(eq / 2);
    sim.run(eq - eq / 2, every, [&](const ThermoSample& t) {
      bath_energy.push_back(t.total_energy());
      bath_t.samples.push_back(temperatures(sys, t, sim.particles(), rp.dt, 3.0 * double(w.n)));
    });
    sys.particles = sim.particles();
  }
  // Langevin leaves a net momentum: in NVE the centre of mass would carry
  // it, V_cm^2 t^2 in every particle's MSD (at N = 512, 2.6 A^2 at 10 ps
  // against 6 D t = 14 A^2).
  remove_net_momentum(sys, sys.particles);
  rp.integrator = Integrator::nve;
  const BlockAverage bath = block_average(bath_energy, 10);
  const double energy_scale = match_energy(ctx, sys, rp, bath.mean);
  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), sys, rp);
  const double rho = water_units::number_density(w.density);
  const double r_max = std::min(10.0, 0.5 * w.box_length());
  const int bins = static_cast<int>(r_max / 0.05);
  std::vector<double> g_sum(bins, 0.0), energy;
  TemperatureSeries nve_t;
  Rdf g;
  std::vector<std::vector<Vec3d>> pos;
  int rdfs = 0;
  for (uint64_t k = 0; k <= samples; ++k) {
    if (k) sim.run(every);
    const ParticleData<double> p = sim.particles();
    pos.push_back(unwrapped(sys.box, p));
    const ThermoSample t = sim.thermo();
    nve_t.samples.push_back(temperatures(sys, t, p, rp.dt, 3.0 * double(w.n) - 3.0));
    energy.push_back(t.potential_energy / double(w.n));
    if (k % rdf_every == 0) {
      g = compute_rdf(sys.box, p, r_max, bins);
      for (int b = 0; b < bins; ++b) g_sum[b] += g.g[b];
      ++rdfs;
    }
  }
  for (int b = 0; b < bins; ++b) g.g[b] = g_sum[b] / rdfs;
  const FirstShell shell = first_shell(g, rho);
  const double dt_sample = pr.every_ps;
  const std::size_t per_block = pos.size() / std::size_t(pr.blocks);
  std::vector<double> d;
  for (int b = 0; b < pr.blocks; ++b)
    d.push_back(kDiffusionUnit *
                block_diffusion(pos, std::size_t(b) * per_block, per_block, dt_sample, pr.fit_from_ps, pr.fit_to_ps));
  const BlockAverage dd = block_average(d, pr.blocks);
  // The kinetic temperatures, corrected for the full step (README.md).
  const BlockAverage tt = nve_t.average(&Temperatures::kinetic_corrected), uu = block_average(energy, 10);
  const BlockAverage tb = bath_t.average(&Temperatures::kinetic_corrected);
  const double t_start_se = bath.sem / double(w.n) / kHeatCapacity;
  const double t_se = std::sqrt(tt.sem * tt.sem + tb.sem * tb.sem + t_start_se * t_start_se);
  const double bath_se = std::max(tb.sem, pr.t_bath_se_floor_K);
  const double t_tol = kTemperatureSigmas * t_se, bath_tol = pr.t_tol_K;
  // D in the infinite system: the box's deficit (Yeh & Hummer) at the NVE
  // run's temperature, in 1e-5 cm^2/s.
  const double box_m = w.box_length() * 1e-10;
  const double yeh_hummer = kYehHummerXi * 1.380649e-23 * tt.mean / (6.0 * std::numbers::pi * kViscosityPaS * box_m) *
                            1e9;
  const double d_corrected = dd.mean + yeh_hummer;
  const double d_tol = kDiffusionSigmas * std::hypot(dd.sem, kDiffusionSigma);
  // n_C to the radius fixed in advance; D (corrected) within its combined
  // error with its standard error capped; the NVE run at its bath's
  // temperature and the bath at the published one (README.md: each bound
  // and why).
  const double n_c = coordination_to(g, rho, kCoordinationRadius);
  const bool n_ok = std::fabs(n_c - kCoordination) <= kCoordinationTol;
  const bool d_ok = std::fabs(d_corrected - kDiffusion) <= d_tol && dd.sem <= pr.d_se_cap * kDiffusion;
  const bool t_ok = std::fabs(tt.mean - tb.mean) <= t_tol && t_se <= pr.t_se_cap_K;
  const bool bath_ok = std::fabs(tb.mean - w.temperature) <= bath_tol;
  Result res;
  res.name = "ssd-water";
  res.quantity = "self-diffusion constant D, 1e-5 cm^2/s (headline); n_C and T in data.gates";
  res.measured = d_corrected;
  res.uncertainty = dd.sem;
  res.reference = kDiffusion;
  res.reference_uncertainty = kDiffusionSigma;
  res.tolerance = d_tol;
  const auto fmt = [](const char* f, double a) {
    char b[32];
    std::snprintf(b, sizeof b, f, a);
    return std::string(b);
  };
  res.rule = "D + Yeh-Hummer = 2.32 within 3 combined SE, SE <= " + fmt("%.0f", 100 * pr.d_se_cap) +
             "%; n_C to 3.35 A = 4.4 +- 0.45; T (corrected for dt) of the NVE run at its bath's within 3 SE, SE <= " +
             fmt("%.1f", pr.t_se_cap_K) + " K, of the bath at 298.15 +- " + fmt("%.0f", pr.t_tol_K) +
             " K (README.md)";
  res.passed = n_ok && d_ok && t_ok && bath_ok;
  nlohmann::json gates = nlohmann::json::array();
  gates.push_back({{"quantity", "n_C to 3.35 A"}, {"measured", n_c}, {"reference", kCoordination},
                   {"tolerance", kCoordinationTol}, {"passed", n_ok}});
  gates.push_back({{"quantity", "D + Yeh-Hummer (1e-5 cm^2/s)"}, {"measured", d_corrected}, {"se", dd.sem},
                   {"in_box", dd.mean}, {"yeh_hummer", yeh_hummer}, {"reference", kDiffusion},
                   {"reference_se", kDiffusionSigma}, {"tolerance", d_tol}, {"se_cap", pr.d_se_cap * kDiffusion},
                   {"passed", d_ok}});
  gates.push_back({{"quantity", "T of the NVE run against its bath's (K)"}, {"measured", tt.mean}, {"se", t_se},
                   {"se_run", tt.sem}, {"se_bath", tb.sem}, {"se_start", t_start_se}, {"reference", tb.mean},
                   {"tolerance", t_tol}, {"se_cap", pr.t_se_cap_K}, {"passed", t_ok}});
  gates.push_back({{"quantity", "T of the bath (K)"}, {"measured", tb.mean}, {"se", bath_se}, {"se_blocks", tb.sem},
                   {"reference", w.temperature}, {"tolerance", bath_tol},
                   {"passed", bath_ok}});
  res.data = {{"N", w.n}, {"density_g_cm3", w.density}, {"box_A", w.box_length()}, {"T_K", w.temperature},
              {"equilibrate_ps", pr.equilibrate_ps}, {"sample_ps", pr.sample_ps}, {"every_ps", pr.every_ps},
              {"blocks", pr.blocks}, {"fit_lags_ps", {pr.fit_from_ps, pr.fit_to_ps}}, {"D_blocks", d},
              {"potential_energy_per_molecule_kcal_mol", uu.mean}, {"potential_energy_se", uu.sem},
              {"g_first_peak_r_A", shell.peak_r}, {"g_first_peak", shell.peak_g},
              {"g_first_min_r_A", shell.min_r}, {"g_flat_min_r_A", {shell.flat_from_r, shell.flat_to_r}},
              {"n_C_flat_min", {shell.coordination_lo, shell.coordination_hi}},
              {"bath_energy_kcal_mol", bath.mean / double(w.n)}, {"bath_energy_se", bath.sem / double(w.n)},
              {"nve_start_velocity_scale", energy_scale}, {"dt_fs", dt_fs},
              {"bath_temperatures_K", bath_t.summary()}, {"nve_temperatures_K", nve_t.summary()},
              {"rdf_r", g.r}, {"rdf_g", g.g}, {"gates", gates}};
  // The NVE run's temperature (at the full step) and potential energy, one
  // sample a ps.
  std::vector<double> t_series, u_series;
  for (std::size_t k = 0; k < energy.size(); k += rdf_every) {
    t_series.push_back(nve_t.samples[k].trans);
    u_series.push_back(energy[k]);
  }
  res.data["temperature_K"] = t_series;
  res.data["potential_energy_kcal_mol"] = u_series;
  return res;
}

MESO_REGISTER_VALIDATION_CASE({
    .name = "ssd-water",
    // Its simulations are the ssd-water liquid.
    .workload = "ssd-water",
    .source = "Fennell & Gezelter, J. Chem. Phys. 120, 9175 (2004): SSD/RF at 0.997 g/cm^3 and 298 K, the "
              "O-O coordination number n_C = 4.4 and D = 2.32(6) x 10^-5 cm^2/s",
    .run = run_ssd_water,
    .knobs = {"N: molecules", "equilibrate: Langevin time before sampling, ps", "sample: NVE time sampled, ps",
              "blocks: blocks of the NVE run for D", "fit_to: the longest lag of the MSD fit, ps",
              "dt: the time step, fs (2)",
              "langevin_kT: the equilibrating thermostat's target over 298.15 K's (1; the negative control's)"},
    // Equilibrated 10% hot (328 K), the NVE run starts at that bath's mean
    // energy, about 30 K above 298.15 K, far outside the bath's gate (9 K
    // short, 2.7 K long), and diffuses faster. The
    // temperature needs no 20 ps of NVE to show it (its SE is 1.5 K in the
    // short form), and the 1 ps bath heats the liquid within a few ps: CI
    // equilibrates 10 ps and samples 8 ps in 2 blocks.
    .controls = {{.name = "langevin-kT-1.1",
                  .what = "equilibrated by a thermostat 10% above 298.15 K",
                  .params = {{"langevin_kT", 1.1}},
                  .short_params = {{"equilibrate", 10.0}, {"sample", 8.0}, {"blocks", 2.0}}}}});

}  // namespace meso::validation
