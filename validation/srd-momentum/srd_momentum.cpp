// srd-momentum: conservation and thermal properties of the SRD solvent of
// Howard, Panagiotopoulos & Nikoubashman (CPC 230, 10 (2018); HOOMD-blue's
// MPCD), the benchmark solvent of docs/reference.md (a = 1, m = 1, kT = 1,
// alpha = 130 deg, dt_c = 0.1, rho = 10, random grid shift). See README.md
// beside this file for the protocol, the bounds and why.
#include <algorithm>
#include <cmath>
#include <limits>

#include "meso/core/error.hpp"
#include "meso/analysis/linear_fit.hpp"
#include "meso/physics/philox.hpp"
#include "meso/core/presets.hpp"
#include "meso/run/progress.hpp"
#include "meso/run/simulation.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::validation {
namespace {

double max_abs(const Vec3d& v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); }

// Kolmogorov-Smirnov distance of the velocity components from N(0, kT/m).
double ks_distance(const MpcdParticles& p, double sd) {
  std::vector<double> x;
  x.reserve(3 * p.size());
  for (const Vec3d& v : p.velocity) {
    x.push_back(v.x / sd);
    x.push_back(v.y / sd);
    x.push_back(v.z / sd);
  }
  std::sort(x.begin(), x.end());
  const double n = double(x.size());
  double d = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = 0.5 * std::erfc(-x[i] / std::sqrt(2.0));
    d = std::max({d, std::fabs(f - double(i) / n), std::fabs(double(i + 1) / n - f)});
  }
  return d;
}

}  // namespace

Result run_srd_momentum(const Context& ctx) {
  const bool is_long = ctx.form == Form::long_form;
  const double L = knob(ctx, "L", is_long ? 50.0 : 10.0);
  const auto collisions = static_cast<uint64_t>(knob(ctx, "collisions", is_long ? 2000.0 : 400.0));
  const uint64_t every = std::max<uint64_t>(1, collisions / 200);
  const bool fp64 = ctx.variant.precision == Precision::double_;
  const uint32_t seed = static_cast<uint32_t>(ctx.seed);
  SrdFluidParams fluid;
  fluid.L = L;
  fluid.rho = 10.0;
  fluid.seed = ctx.seed;
  const MpcdParams solvent = presets::howard_srd_solvent(seed);
  const MpcdSystem sys = make_srd_fluid(fluid, solvent);
  const double n = double(sys.particles.size());
  const double vth = std::sqrt(solvent.kT / solvent.mass);  // per component
  const double eps = std::numeric_limits<double>::epsilon();

  // 1. SRD without thermostat: momentum and kinetic energy of every cell are
  //    conserved by the collision, so the totals stay where the initial
  //    correction put them.
  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), sys);
  // Every collision of the three runs below, for the progress line's time left.
  progress::begin("srd-momentum", collisions + collisions / 4 + collisions + std::min<uint64_t>(collisions, 100));
  const ThermoSample t0 = sim.thermo();
  std::vector<double> time, px, py, pz, temperature;
  double max_p = max_abs(t0.momentum), max_dt = 0.0;
  auto sample = [&](const ThermoSample& t) {
    time.push_back(double(t.step) * solvent.dt);
    px.push_back(t.momentum.x);
    py.push_back(t.momentum.y);
    pz.push_back(t.momentum.z);
    temperature.push_back(t.temperature);
    max_p = std::max(max_p, max_abs(t.momentum));
    max_dt = std::max(max_dt, std::fabs(t.temperature - t0.temperature));
  };
  sample(t0);
  sim.run(collisions, every, sample);

  // Round-off bounds (README.md): in fp64 storage every collision moves the
  // total momentum by a sum of N independent roundings of size ~eps m v,
  // a random walk over K collisions: 10 eps m v_th sqrt(N (K + 1)); the
  // kinetic temperature likewise moves by a walk of ~eps per collision,
  // bounded by 10 eps sqrt(K + 1) kT, plus the systematic term below.
  // In fp32 storage each stored component is rounded to 2^-24 relative every
  // collision, never undone: a walk of sd 2^-24 m v_th sqrt(N K / 3) per
  // component, bounded at 5 sd; the temperature by 5 2^-24 sqrt(K/N) kT... at
  // least 2^-20 kT.
  const double k = double(collisions);
  const double u32 = std::ldexp(1.0, -24);
  const double p_bound = fp64 ? 10.0 * eps * solvent.mass * vth * std::sqrt(n * (k + 1.0))
                              : 5.0 * u32 * solvent.mass * vth * std::sqrt(n * (k + 1.0) / 3.0) +
                                    10.0 * u32 * solvent.mass * vth * std::sqrt(n);
  // The temperature also drifts systematically: the rounded (cos a, sin a)
  // pair is not exactly on the unit circle, so every rotation scales the
  // relative speeds by sqrt(c^2 + s^2) = 1 + O(eps/2), the same factor every
  // collision: at most eps kT a collision, K eps kT over the run (found by
  // the long form, whose T(t) fell linearly by 6e-17 a collision).
  const double t_bound = fp64 ? (k * eps + 10.0 * eps * std::sqrt(k + 1.0)) * solvent.kT
                              : std::max(std::ldexp(1.0, -20), 5.0 * u32 * std::sqrt(k + 1.0)) * solvent.kT;
  const bool p_ok = max_p <= p_bound;
  const bool t_ok = max_dt <= t_bound;
  // No systematic drift: each component's least-squares slope within 3 of
  // its random-walk-robust standard errors of zero (fp32 storage; in fp64
  // the momentum is at round-off and its slope says nothing more).
  nlohmann::json drift = nlohmann::json::array();
  bool drift_ok = true;
  if (!fp64) {
    for (const auto* comp : {&px, &py, &pz}) {
      const LinearFit f = linear_fit(time, *comp, 20);
      const bool ok = std::fabs(f.slope) <= 3.0 * f.slope_se_robust + 1e-300;
      drift_ok = drift_ok && ok;
      drift.push_back({{"slope", f.slope}, {"slope_se_robust", f.slope_se_robust}, {"passed", ok}});
    }
  }

  // 2. With the Maxwell-Boltzmann cell thermostat, from a solvent at 2 kT:
  //    the temperature relaxes to kT and then fluctuates about it.
  MpcdSystem hot = sys;
  for (Vec3d& v : hot.particles.velocity) v = std::sqrt(2.0) * v;
  hot.params.thermostat = true;
  // The negative control: a thermostat aiming at the wrong temperature.
  hot.params.kT = solvent.kT * knob(ctx, "thermostat_kT", 1.0);
  Simulation thermo_sim(ctx.registry->create(ctx.backend, ctx.variant), hot);
  thermo_sim.run(collisions / 4);  // relaxation: a few collisions per cell suffice
  std::vector<double> t_series;
  thermo_sim.run(collisions, every, [&](const ThermoSample& t) { t_series.push_back(t.temperature); });
  const BlockAverage tb = block_average(t_series, 10);
  const double thermo_tol = 4.0 * tb.sem + 1e-12;
  const bool thermo_ok = std::fabs(tb.mean - solvent.kT) <= thermo_tol;

  // 3. Maxwellian: from velocities uniform in a cube (same kT, far from
  //    Gaussian: the KS distance at t = 0 is ~0.03), the SRD collisions alone
  //    relax the components to N(0, kT/m). Gate: the KS distance after the
  //    run below the 1e-3 critical value 1.95 / sqrt(3N) (the components of
  //    one particle are nearly independent; the test is then conservative).
  MpcdSystem cube = sys;
  const double c = std::sqrt(3.0) * vth;
  for (std::size_t i = 0; i < cube.particles.size(); ++i) {
    const auto r = physics::philox4x32_10({{cube.particles.tag[i], 0x43554245u, 0u, 0u}},
                                          {{seed, 0x4d415857u}});
    cube.particles.velocity[i] = {c * (2.0 * physics::uniform_open01(r.v[0]) - 1.0),
                                  c * (2.0 * physics::uniform_open01(r.v[1]) - 1.0),
                                  c * (2.0 * physics::uniform_open01(r.v[2]) - 1.0)};
  }
  Simulation mb_sim(ctx.registry->create(ctx.backend, ctx.variant), cube);
  const double d0 = ks_distance(mb_sim.solvent_particles(), vth);
  mb_sim.run(std::min<uint64_t>(collisions, 100));
  const double d1 = ks_distance(mb_sim.solvent_particles(), vth);
  const double ks_critical = 1.95 / std::sqrt(3.0 * n);
  const bool mb_ok = d1 <= ks_critical;

  Result res;
  res.name = "srd-momentum";
  res.quantity = "max |P_alpha(t)| of the SRD solvent (headline); temperature, thermostat, drift "
                 "and Maxwellian gates in data.gates";
  res.measured = max_p;
  res.uncertainty = 0.0;
  res.reference = 0.0;
  res.tolerance = p_bound;
  res.rule = fp64 ? "|P| <= 10 eps m v_th sqrt(N (K+1)); |T - T0| <= (K eps + 10 eps sqrt(K+1)) kT; thermostat "
                    "<T> within 4 SEM of kT; KS distance <= 1.95/sqrt(3N)"
                  : "|P| <= 5 2^-24 m v_th sqrt(N (K+1)/3) + 10 2^-24 m v_th sqrt(N); slopes within 3 SE "
                    "(random-walk robust) of 0; |T - T0| <= max(2^-20, 5 2^-24 sqrt(K+1)) kT; thermostat "
                    "<T> within 4 SEM of kT; KS distance <= 1.95/sqrt(3N)";
  res.passed = p_ok && t_ok && drift_ok && thermo_ok && mb_ok;
  res.data = {{"N", sys.particles.size()}, {"L", L}, {"rho", 10.0}, {"kT", solvent.kT},
              {"angle_deg", solvent.angle_deg}, {"dt", solvent.dt}, {"collisions", collisions},
              {"precision", to_string(ctx.variant.precision)},
              {"time", time}, {"px", px}, {"py", py}, {"pz", pz}, {"temperature", temperature},
              {"thermostat_temperature", t_series}};
  res.data["gates"] = {
      {{"quantity", "max |P_alpha|"}, {"measured", max_p}, {"limit", p_bound}, {"passed", p_ok}},
      {{"quantity", "max |T - T0| without thermostat"}, {"measured", max_dt}, {"limit", t_bound},
       {"passed", t_ok}},
      {{"quantity", "momentum slope (fp32 storage)"}, {"components", drift}, {"passed", drift_ok}},
      {{"quantity", "<T> with the cell thermostat"}, {"measured", tb.mean}, {"sem", tb.sem},
       {"reference", solvent.kT}, {"tolerance", thermo_tol}, {"passed", thermo_ok}},
      {{"quantity", "KS distance from N(0, kT/m)"}, {"initial", d0}, {"measured", d1},
       {"limit", ks_critical}, {"passed", mb_ok}}};
  return res;
}

MESO_REGISTER_VALIDATION_CASE({
    .name = "srd-momentum",
    // Its simulations are the srd-fluid benchmark solvent.
    .workload = "srd-fluid",
    .source = "Howard, Panagiotopoulos & Nikoubashman, Comput. Phys. Commun. 230, 10 (2018): SRD solvent "
              "a = 1, m = 1, kT = 1, alpha = 130 deg, dt_c = 0.1, rho = 10, random grid shift",
    .run = run_srd_momentum,
    .knobs = {"L: box edge in cells", "collisions: collisions of each run",
              "thermostat_kT: the cell thermostat's target over kT (1; the negative control's)"},
    // 10^4 particles hold <T> to a few 1e-4 kT: a 5% error is over 100 SEM.
    .controls = {{.name = "thermostat-kT-1.05",
                  .what = "the cell thermostat aims 5% above kT",
                  .params = {{"thermostat_kT", 1.05}}}}});

}  // namespace meso::validation
