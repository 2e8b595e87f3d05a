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

#include "meso/analysis/block_average.hpp"
#include "meso/core/init.hpp"
#include "meso/analysis/linear_fit.hpp"
#include "meso/run/progress.hpp"
#include "meso/analysis/rdf.hpp"
#include "meso/run/simulation.hpp"
#include "meso/validation/validation_case.hpp"
#include "meso/systems/water.hpp"

namespace meso::validation {
namespace {

constexpr double kCoordination = 4.4, kCoordinationRounding = 0.05;  // published to one decimal
constexpr double kDiffusion = 2.32, kDiffusionSigma = 0.06, kDiffusionTol = 0.20;  // relative
constexpr double kPs = 1000.0 / water_units::kTimeFs;                                // time units per ps
constexpr double kDiffusionUnit = 10.0;  // 1 A^2/ps = 1e-4 cm^2/s, in 1e-5 cm^2/s

struct Protocol {
  uint64_t n = 512;
  double equilibrate_ps = 60.0, sample_ps = 40.0, every_ps = 0.1;
  int blocks = 4;               // of the NVE run, for D and its standard error
  double fit_from_ps = 1.0;     // the lags of MSD(t) fitted, in ps, within a block
  double fit_to_ps = 4.0;
  double rdf_every_ps = 1.0;
};

std::vector<Vec3d> unwrapped(const Box& box, const ParticleData<double>& p) {
  const Vec3d L = box.lengths();
  std::vector<Vec3d> u(p.n_local);
  for (std::size_t i = 0; i < p.n_local; ++i)
    u[i] = p.position[i] + Vec3d{L.x * p.image[i].x, L.y * p.image[i].y, L.z * p.image[i].z};
  return u;
}

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
    pr.equilibrate_ps = 60.0;
    pr.sample_ps = 200.0;
    pr.blocks = 8;
    pr.fit_to_ps = 10.0;
  }
  pr.n = static_cast<uint64_t>(knob(ctx, "N", double(pr.n)));
  pr.sample_ps = knob(ctx, "sample", pr.sample_ps);
  pr.equilibrate_ps = knob(ctx, "equilibrate", pr.equilibrate_ps);
  pr.blocks = static_cast<int>(knob(ctx, "blocks", pr.blocks));
  pr.fit_to_ps = knob(ctx, "fit_to", pr.fit_to_ps);
  SsdWaterParams w;
  w.n = pr.n;
  w.seed = ctx.seed;
  RunParams rp;
  rp.dt = 2.0 / water_units::kTimeFs;  // 2 fs
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
  // the unperturbed dynamics).
  {
    RunParams lp = rp;
    lp.integrator = Integrator::langevin;
    lp.kT = rp.kT * knob(ctx, "langevin_kT", 1.0);  // the negative control: equilibrated hot
    Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), sys, lp);
    sim.run(eq);
    sys.particles = sim.particles();
  }
  // Langevin leaves a net momentum: in NVE the centre of mass would carry
  // it, V_cm^2 t^2 in every particle's MSD (at N = 512, 2.6 A^2 at 10 ps
  // against 6 D t = 14 A^2).
  remove_net_momentum(sys, sys.particles);
  rp.integrator = Integrator::nve;
  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), sys, rp);
  const double rho = water_units::number_density(w.density);
  const double r_max = std::min(10.0, 0.5 * w.box_length());
  const int bins = static_cast<int>(r_max / 0.05);
  std::vector<double> g_sum(bins, 0.0), temperature, energy;
  Rdf g;
  std::vector<std::vector<Vec3d>> pos;
  int rdfs = 0;
  for (uint64_t k = 0; k <= samples; ++k) {
    if (k) sim.run(every);
    const ParticleData<double> p = sim.particles();
    pos.push_back(unwrapped(sys.box, p));
    const ThermoSample t = sim.thermo();
    temperature.push_back(t.temperature / water_units::kBoltzmann);
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
  const BlockAverage tt = block_average(temperature, 10), uu = block_average(energy, 10);
  // n_C: the published value within the range the flat bottom of our
  // minimum allows (README.md), in the long form only: the short form's
  // g(r) (512 molecules, 40 samples) is too noisy to find the flat bottom;
  // D within 20% with a standard error of at most 5%; the NVE run at the
  // published temperature.
  const bool n_gated = ctx.form == Form::long_form;
  const bool n_ok = kCoordination >= shell.coordination_lo - kCoordinationRounding &&
                    kCoordination <= shell.coordination_hi + kCoordinationRounding;
  const bool d_ok = std::fabs(dd.mean - kDiffusion) <= kDiffusionTol * kDiffusion && dd.sem <= 0.05 * kDiffusion;
  const bool t_ok = std::fabs(tt.mean - w.temperature) <= 6.0;
  Result res;
  res.name = "ssd-water";
  res.quantity = "self-diffusion constant D, 1e-5 cm^2/s (headline); n_C and T in data.gates";
  res.measured = dd.mean;
  res.uncertainty = dd.sem;
  res.reference = kDiffusion;
  res.reference_uncertainty = kDiffusionSigma;
  res.tolerance = kDiffusionTol * kDiffusion;
  res.rule = "D = 2.32 +- 20% with SE <= 5%; n_C = 4.4 within the range of the flat minimum of g(r) "
             "(long form); the NVE run at 298.15 +- 6 K (README.md)";
  res.passed = (n_ok || !n_gated) && d_ok && t_ok;
  nlohmann::json gates = nlohmann::json::array();
  gates.push_back({{"quantity", "n_C over the flat minimum"}, {"measured", shell.coordination},
                   {"range", {shell.coordination_lo, shell.coordination_hi}}, {"reference", kCoordination},
                   {"tolerance", kCoordinationRounding}, {"gated", n_gated}, {"passed", n_ok}});
  gates.push_back({{"quantity", "D (1e-5 cm^2/s)"}, {"measured", dd.mean}, {"se", dd.sem},
                   {"reference", kDiffusion}, {"reference_se", kDiffusionSigma},
                   {"tolerance", kDiffusionTol * kDiffusion}, {"passed", d_ok}});
  gates.push_back({{"quantity", "T of the NVE run (K)"}, {"measured", tt.mean}, {"se", tt.sem},
                   {"reference", w.temperature}, {"tolerance", 6.0}, {"passed", t_ok}});
  res.data = {{"N", w.n}, {"density_g_cm3", w.density}, {"box_A", w.box_length()}, {"T_K", w.temperature},
              {"equilibrate_ps", pr.equilibrate_ps}, {"sample_ps", pr.sample_ps}, {"every_ps", pr.every_ps},
              {"blocks", pr.blocks}, {"fit_lags_ps", {pr.fit_from_ps, pr.fit_to_ps}}, {"D_blocks", d},
              {"potential_energy_per_molecule_kcal_mol", uu.mean}, {"potential_energy_se", uu.sem},
              {"g_first_peak_r_A", shell.peak_r}, {"g_first_peak", shell.peak_g},
              {"g_first_min_r_A", shell.min_r}, {"g_flat_min_r_A", {shell.flat_from_r, shell.flat_to_r}},
              {"rdf_r", g.r}, {"rdf_g", g.g}, {"gates", gates}};
  // The NVE run's temperature and potential energy, one sample a ps.
  std::vector<double> t_series, u_series;
  for (std::size_t k = 0; k < temperature.size(); k += rdf_every) {
    t_series.push_back(temperature[k]);
    u_series.push_back(energy[k]);
  }
  res.data["temperature_K"] = t_series;
  res.data["potential_energy_kcal_mol"] = u_series;
  return res;
}

MESO_REGISTER_VALIDATION_CASE({
    .name = "ssd-water",
    .source = "Fennell & Gezelter, J. Chem. Phys. 120, 9175 (2004): SSD/RF at 0.997 g/cm^3 and 298 K, the "
              "O-O coordination number n_C = 4.4 and D = 2.32(6) x 10^-5 cm^2/s",
    .run = run_ssd_water,
    .knobs = {"N: molecules", "equilibrate: Langevin time before sampling, ps", "sample: NVE time sampled, ps",
              "blocks: blocks of the NVE run for D", "fit_to: the longest lag of the MSD fit, ps",
              "langevin_kT: the equilibrating thermostat's target over 298.15 K's (1; the negative control's)"},
    // Equilibrated 10% hot (328 K), the NVE run stays about 30 K above the
    // gate's 298 +- 6 K and diffuses faster.
    .controls = {{.name = "langevin-kT-1.1",
                  .what = "equilibrated by a thermostat 10% above 298.15 K",
                  .params = {{"langevin_kT", 1.1}},
                  .in_ci = false}}});

}  // namespace meso::validation
