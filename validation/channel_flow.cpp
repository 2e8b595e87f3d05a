#include "meso/validation/channel_flow.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "meso/analysis/block_average.hpp"
#include "meso/core/error.hpp"
#include "meso/analysis/parabola_fit.hpp"
#include "meso/run/progress.hpp"
#include "meso/run/simulation.hpp"
#include "meso/analysis/velocity_profile.hpp"

namespace meso::validation {

namespace {

constexpr double kPi = std::numbers::pi;

// Average of exp(-a t) over [t0, t1] (point value when t0 == t1).
double mean_exp(double a, double t0, double t1) {
  if (t1 - t0 <= 0.0) return std::exp(-a * t0);
  return (std::exp(-a * t0) - std::exp(-a * t1)) / (a * (t1 - t0));
}

// Average of cos(k z) over [z0, z1].
double mean_cos(double k, double z0, double z1) {
  if (z1 - z0 <= 0.0) return std::cos(k * z0);
  return (std::sin(k * z1) - std::sin(k * z0)) / (k * (z1 - z0));
}

double component(const Vec3d& v, int c) { return c == 0 ? v.x : (c == 1 ? v.y : v.z); }

// Curvature of the two halves combined, C = (c2_upper - c2_lower) / 2, as
// weights over all bins (the upper half is driven by -g, so both halves
// contribute with the same sign): eta = rho g / (2 C).
std::vector<double> combined_curvature_weights(const std::vector<double>& centers) {
  const std::size_t half = centers.size() / 2;
  const std::vector<double> lower(centers.begin(), centers.begin() + half);
  const std::vector<double> upper(centers.begin() + half, centers.end());
  const auto wl = parabola_curvature_weights(lower), wu = parabola_curvature_weights(upper);
  std::vector<double> w(centers.size());
  for (std::size_t b = 0; b < half; ++b) {
    w[b] = -0.5 * wl[b];
    w[half + b] = 0.5 * wu[b];
  }
  return w;
}

struct HalfFits {
  ParabolaFit lower, upper;
};

HalfFits fit_halves(const std::vector<double>& centers, const std::vector<double>& u) {
  const std::size_t half = centers.size() / 2;
  HalfFits f;
  f.lower = fit_parabola({centers.begin(), centers.begin() + half}, {u.begin(), u.begin() + half});
  f.upper = fit_parabola({centers.begin() + half, centers.end()}, {u.begin() + half, u.end()});
  return f;
}

// Fluctuating-hydrodynamics variance of sum_b w_b ubar_b, where ubar_b is the
// time average over T of the bin-mean velocity. The transverse velocity
// field averaged over the cross-section has Fourier modes k = 2 pi m / L,
// each with equipartition variance kT / M (M the total mass; exact in
// equilibrium for any interaction) and, in the hydrodynamic limit,
// correlation exp(-nu k^2 t); the time average of a mode with correlation
// time tau has variance (2 tau / T)(1 - (tau / T)(1 - exp(-T / tau))) times
// its instantaneous variance. Averaging over a bin of width h multiplies the
// mode by sinc(k h / 2). m = 0 is excluded: the profile is taken in the
// centre-of-mass frame, and the weights of a curvature sum to zero anyway.
double hydrodynamic_variance(const std::vector<double>& w, const std::vector<double>& centers, double L,
                             double h, double kT, double total_mass, double nu, double T) {
  double var = 0.0;
  const int mmax = 200 * static_cast<int>(centers.size());
  for (int m = 1; m <= mmax; ++m) {
    const double k = 2.0 * kPi * m / L;
    double re = 0.0, im = 0.0;
    for (std::size_t b = 0; b < w.size(); ++b) {
      re += w[b] * std::cos(k * centers[b]);
      im += w[b] * std::sin(k * centers[b]);
    }
    const double sinc = std::sin(0.5 * k * h) / (0.5 * k * h);
    const double tau = 1.0 / (nu * k * k);
    const double time_factor = 2.0 * tau / T * (1.0 - tau / T * (1.0 - std::exp(-T / tau)));
    // Modes m and -m are complex conjugates: together 2 |W_m|^2 kT / M.
    var += 2.0 * (re * re + im * im) * sinc * sinc * kT / total_mass * time_factor;
  }
  return var;
}

double integrate_simpson(const std::function<double(double)>& f, double a, double b, int n = 2000) {
  const double h = (b - a) / n;
  double s = f(a) + f(b);
  for (int i = 1; i < n; ++i) s += (i % 2 ? 4.0 : 2.0) * f(a + i * h);
  return s * h / 3.0;
}

}  // namespace

double startup_channel_velocity(double z0, double z1, double t0, double t1, double g, double nu, double d) {
  require_positive("channel width d", d);
  require_positive("kinematic viscosity nu", nu);
  if (z1 < z0) std::swap(z0, z1);
  if (t1 < t0) std::swap(t0, t1);
  // Mean of 1 - (2z/d)^2 over [z0, z1].
  const double mean_quad = z1 - z0 > 0.0 ? 1.0 - 4.0 * (z1 * z1 * z1 - z0 * z0 * z0) / (3.0 * d * d * (z1 - z0))
                                         : 1.0 - 4.0 * z0 * z0 / (d * d);
  const double amp = g * d * d / nu;
  double u = amp / 8.0 * mean_quad;
  // The series converges like 1/n^3 at t = 0 (and exponentially after):
  // 20000 terms leave < 1e-9 of amp.
  for (int n = 0; n < 20000; ++n) {
    const double j = 2.0 * n + 1.0;
    const double k = j * kPi / d;
    const double decay = mean_exp(nu * k * k, t0, t1);
    const double term = 4.0 * amp / (kPi * kPi * kPi * j * j * j) * mean_cos(k, z0, z1) * decay;
    u -= (n % 2 == 0 ? 1.0 : -1.0) * term;
    if (decay < 1e-18) break;
  }
  return u;
}

SlitFit fit_slit(const std::vector<double>& z, const std::vector<double>& u, double h, double rho_m, double g) {
  SlitFit f;
  f.fit = fit_parabola(z, u);
  const double c2 = f.fit.curvature();
  f.eta = -rho_m * g / (2.0 * c2);
  const double u_wall = 0.5 * (f.fit(h) + f.fit(-h));
  f.slip = u_wall / (2.0 * std::fabs(c2) * h);
  return f;
}

SlitSchedule slit_schedule(double dt, double equilibrate_time, double production_time, double sample_every_time,
                           int blocks) {
  require_positive("time step", dt);
  require_positive("production time", production_time);
  require_non_negative("equilibration time", equilibrate_time);
  require_positive("sampling period", sample_every_time);
  if (blocks < 2) throw_input_error("blocks = ", blocks, " is invalid: it must be >= 2");
  const auto steps = [&](double t) { return static_cast<uint64_t>(std::llround(t / dt)); };
  SlitSchedule s;
  s.dt = dt;
  s.blocks = blocks;
  s.equilibrate = steps(equilibrate_time);
  s.sample = std::max<uint64_t>(1, steps(sample_every_time));
  s.block = std::max<uint64_t>(s.sample, steps(production_time / blocks) / s.sample * s.sample);
  return s;
}

std::vector<VelocityProfile> sample_slit_blocks(const SlitSchedule& s, const VelocityProfile& empty,
                                                const std::function<void(uint64_t)>& run,
                                                const std::function<void(VelocityProfile&)>& sample,
                                                const std::string& title) {
  progress::begin(title, s.equilibrate + s.block * static_cast<uint64_t>(s.blocks));
  run(s.equilibrate);
  std::vector<VelocityProfile> out;
  for (int b = 0; b < s.blocks; ++b) {
    VelocityProfile prof = empty;
    for (uint64_t done = 0; done < s.block; done += s.sample) {
      run(s.sample);
      sample(prof);
    }
    out.push_back(std::move(prof));
  }
  progress::end();
  return out;
}

SlitMeasurement measure_slit(const std::vector<VelocityProfile>& blocks, double z_fit, double h, double rho_m,
                             double g, const SlitSchedule& s) {
  VelocityProfile all = blocks.front();
  for (std::size_t b = 1; b < blocks.size(); ++b) all.merge(blocks[b]);
  std::vector<uint32_t> fitted;
  SlitMeasurement m;
  for (uint32_t b = 0; b < all.bins(); ++b)
    if (std::fabs(all.bin_center(b)) < z_fit) {
      m.z.push_back(all.bin_center(b));
      fitted.push_back(b);
    }
  const auto pick = [&](const VelocityProfile& p) {
    const std::vector<double> mean = p.mean();
    std::vector<double> u;
    for (uint32_t b : fitted) u.push_back(mean[b]);
    return u;
  };
  m.u = pick(all);
  m.fit = fit_slit(m.z, m.u, h, rho_m, g);
  for (const auto& p : blocks) {
    const SlitFit fb = fit_slit(m.z, pick(p), h, rho_m, g);
    m.eta_blocks.push_back(fb.eta);
    m.slip_blocks.push_back(fb.slip);
  }
  const int k = static_cast<int>(blocks.size());
  m.se_eta = block_average(m.eta_blocks, k).sem;
  m.se_slip = block_average(m.slip_blocks, k).sem;
  const double nu = m.fit.eta / rho_m;
  if (std::isfinite(nu) && nu > 0.0) {
    std::vector<double> transient;
    const double half_bin = 0.5 * all.bin_width();
    for (double zc : m.z)
      transient.push_back(startup_channel_velocity(zc - half_bin, zc + half_bin, s.start(), s.end(), g, nu, 2.0 * h));
    m.startup_bias = 1.0 - fit_parabola(m.z, transient).curvature() / (-g / (2.0 * nu));
  }
  m.steady = std::fabs(m.startup_bias) <= 0.25 * m.se_eta / std::fabs(m.fit.eta);
  return m;
}

void add_slit_data(nlohmann::json& data, const SlitMeasurement& m, double h, double rho_m) {
  const double nu = m.fit.eta / rho_m;
  data["eta_blocks"] = m.eta_blocks;
  data["slip_blocks"] = m.slip_blocks;
  data["slip_length"] = m.fit.slip;
  data["slip_length_se"] = m.se_slip;
  data["steady"] = m.steady;
  data["startup_bias"] = m.startup_bias;
  data["relaxation_time"] = 4.0 * h * h / (kPi * kPi * nu);
}

KineticViscosity kinetic_theory_viscosity(double rho, double gamma, double kT, double rcut, double s) {
  const auto wd = [&](double r) { return std::pow(1.0 - r / rcut, 2.0 * s); };
  const double i2 = integrate_simpson([&](double r) { return r * r * wd(r); }, 0.0, rcut);
  const double i4 = integrate_simpson([&](double r) { return r * r * r * r * wd(r); }, 0.0, rcut);
  KineticViscosity v;
  v.kinetic = 3.0 * kT / (2.0 * gamma * 4.0 * kPi * i2);
  v.dissipative = 2.0 * kPi * gamma * rho * rho / 15.0 * i4;
  return v;
}

SrdViscosity srd_kinetic_theory_viscosity(double n, double kT, double mass, double a, double dt,
                                          double angle_deg) {
  require_positive("SRD particles per cell n", n);
  require_positive("SRD kT", kT);
  require_positive("SRD mass", mass);
  require_positive("SRD cell size a", a);
  require_positive("SRD collision period dt", dt);
  if (!(angle_deg > 0.0 && angle_deg < 180.0))
    throw_input_error("SRD angle = ", angle_deg, " deg is invalid: it must be in (0, 180)");
  const double alpha = angle_deg * kPi / 180.0;
  const double occupancy = n - 1.0 + std::exp(-n);
  SrdViscosity v;
  v.kinetic = n * kT * dt / (a * a * a) *
              (5.0 * n / (occupancy * (4.0 - 2.0 * std::cos(alpha) - 2.0 * std::cos(2.0 * alpha))) - 0.5);
  v.collisional = mass / (18.0 * a * dt) * occupancy * (1.0 - std::cos(alpha));
  return v;
}

namespace {

// The DPD fluid behind the DrivenFlow interface.
class DpdDrivenFlow final : public DrivenFlow {
 public:
  DpdDrivenFlow(const Context& ctx, const ReversePoiseuilleSetup& s, uint64_t seed) : kT_(s.fluid.kT) {
    DpdFluidParams fluid = s.fluid;
    fluid.seed = seed;  // independent initial configuration ...
    RunParams rp = s.run;
    rp.seed = static_cast<uint32_t>(seed);  // ... and pair noise
    System sys = make_dpd_fluid(fluid);
    sys.body_force.g = {0.0, 0.0, s.g};
    sys.body_force.reverse_axis = 0;
    box_ = sys.box;
    type_mass_ = sys.type_mass;
    n_ = sys.particles.n_local;
    total_mass_ = static_cast<double>(n_) * fluid.mass;
    dt_ = rp.dt;
    sim_ = std::make_unique<Simulation>(ctx.registry->create(ctx.backend, ctx.variant), sys, rp);
  }
  Box box() const override { return box_; }
  double kT() const override { return kT_; }
  double total_mass() const override { return total_mass_; }
  uint64_t size() const override { return n_; }
  double step_time() const override { return dt_; }
  uint64_t step() const override { return sim_->step(); }
  void run(uint64_t steps) override { sim_->run(steps); }
  ParticleSpans snapshot() override {
    p_ = sim_->particles();
    const std::size_t n = p_.n_local;
    return {{p_.position.data(), n}, {p_.velocity.data(), n}, {p_.type.data(), n}, type_mass_};
  }

 private:
  std::unique_ptr<Simulation> sim_;
  ParticleData<double> p_;
  Box box_;
  std::vector<double> type_mass_;
  double kT_ = 0.0, total_mass_ = 0.0, dt_ = 0.0;
  uint64_t n_ = 0;
};

// The benchmark solvent's initial state (make_srd_fluid's draws: uniform
// positions, Maxwell-Boltzmann velocities with the net momentum removed and
// the kinetic temperature set to kT) in a box of lx x ly x lz cells, which
// make_srd_fluid (cubic) does not build: the channel needs its own gradient
// direction. The draws are those of the MD initial state of the same box.
MpcdSystem srd_solvent(double lx, double ly, double lz, double rho, const MpcdParams& prm, uint64_t seed) {
  require_positive("SRD particles per cell rho", rho);
  const double a = prm.cell_size;
  DpdFluidParams f;
  f.rho = rho / (a * a * a);
  f.lx = lx * a;
  f.ly = ly * a;
  f.lz = lz * a;
  f.kT = prm.kT;
  f.mass = prm.mass;
  f.seed = seed;
  const System md = make_dpd_fluid(f);
  MpcdSystem s;
  s.box = md.box;
  s.params = prm;
  s.particles.resize(md.particles.n_local);
  for (std::size_t i = 0; i < md.particles.n_local; ++i) {
    s.particles.position[i] = md.particles.position[i];
    s.particles.velocity[i] = md.particles.velocity[i];
    s.particles.type[i] = 0;
    s.particles.tag[i] = md.particles.tag[i];
    s.particles.image[i] = {0, 0, 0};
  }
  return s;  // the backend validates it (cells a whole number, >= 2 a side)
}

// The SRD solvent behind the DrivenFlow interface; one step is one collision.
class SrdDrivenFlow final : public DrivenFlow {
 public:
  SrdDrivenFlow(const Context& ctx, const SrdReversePoiseuilleSetup& s, uint64_t seed) {
    MpcdParams prm = s.solvent;
    prm.seed = static_cast<uint32_t>(seed);  // grid shifts, axes, thermostat draws ...
    prm.body_force = {};
    prm.body_force.g = {0.0, 0.0, s.g};
    prm.body_force.reverse_axis = 0;
    const MpcdSystem sys = srd_solvent(s.lx, s.ly, s.lz, s.rho, prm, seed);  // ... and the initial state
    box_ = sys.box;
    params_ = prm;
    n_ = sys.particles.size();
    type_mass_ = {prm.mass};  // srd_solvent's particles are all of type 0
    sim_ = std::make_unique<Simulation>(ctx.registry->create(ctx.backend, ctx.variant), sys);
  }
  Box box() const override { return box_; }
  double kT() const override { return params_.kT; }
  double total_mass() const override { return static_cast<double>(n_) * params_.mass; }
  uint64_t size() const override { return n_; }
  double step_time() const override { return params_.dt; }
  uint64_t step() const override { return sim_->step(); }
  void run(uint64_t steps) override { sim_->run(steps); }
  ParticleSpans snapshot() override {
    p_ = sim_->solvent_particles();
    return {p_.position, p_.velocity, p_.type, type_mass_};
  }

 private:
  std::unique_ptr<Simulation> sim_;
  MpcdParticles p_;
  Box box_;
  MpcdParams params_;
  std::vector<double> type_mass_;
  uint64_t n_ = 0;
};

}  // namespace

ReversePoiseuilleResult measure_reverse_poiseuille(const Context& ctx, const ReversePoiseuilleSetup& s) {
  return measure_reverse_poiseuille(ctx, s, [&](uint64_t seed) -> std::unique_ptr<DrivenFlow> {
    return std::make_unique<DpdDrivenFlow>(ctx, s, seed);
  });
}

ReversePoiseuilleResult measure_reverse_poiseuille(const Context& ctx, const SrdReversePoiseuilleSetup& s) {
  return measure_reverse_poiseuille(ctx, s, [&](uint64_t seed) -> std::unique_ptr<DrivenFlow> {
    return std::make_unique<SrdDrivenFlow>(ctx, s, seed);
  });
}

ReversePoiseuilleResult measure_reverse_poiseuille(const Context& ctx, const ReversePoiseuilleProtocol& s,
                                                   const DrivenFlowFactory& make_run) {
  if (s.bins < 8 || s.bins % 2 != 0)
    throw_input_error("reverse Poiseuille bins = ", s.bins, " is invalid: it must be even and >= 8");
  if (s.runs < 1) throw_input_error("reverse Poiseuille runs = ", s.runs, " is invalid: it must be >= 1");
  require_positive("production time", s.production_time);
  require_non_negative("equilibration time", s.equilibrate_time);

  ReversePoiseuilleResult res;
  std::vector<double> weights;
  double L = 0.0, kT = 0.0;
  for (int k = 0; k < s.runs; ++k) {
    ReversePoiseuilleRun run;
    run.seed = ctx.seed + 1000003ull * static_cast<uint64_t>(k);
    const std::unique_ptr<DrivenFlow> flow = make_run(run.seed);
    const Box box = flow->box();
    const double dt = flow->step_time();
    const auto steps = [&](double t) { return static_cast<uint64_t>(std::llround(t / dt)); };
    const uint64_t eq_steps = steps(s.equilibrate_time), prod_steps = steps(s.production_time);
    progress::begin("reverse Poiseuille run " + std::to_string(k + 1) + " of " + std::to_string(s.runs),
                    eq_steps + prod_steps);
    const uint64_t sample_steps = std::max<uint64_t>(1, steps(s.sample_every_time));
    const uint64_t monitor_steps = std::max<uint64_t>(sample_steps, steps(s.monitor_every_time));
    const double M = flow->total_mass();
    res.mass_density = M / box.volume();
    res.n = flow->size();
    L = box.lengths().x;
    kT = flow->kT();

    VelocityProfile prof(box, /*axis=*/0, /*component=*/2, s.bins);
    prof.set_remove_center_of_mass(true);
    VelocityProfile first = prof, second = prof;
    if (res.centers.empty()) {
      res.centers = prof.centers();
      weights = combined_curvature_weights(res.centers);
    }
    // Flow amplitude: mean velocity of the lower half minus that of the
    // upper half, over 2 (centre-of-mass frame); it rises from 0 to 2/3 of
    // the centre-line velocity as the start-up transient dies out.
    const auto monitor = [&](const ParticleSpans& p) {
      double lo = 0.0, hi = 0.0, nlo = 0.0, nhi = 0.0;
      for (std::size_t i = 0; i < p.position.size(); ++i) {
        const double v = component(p.velocity[i], 2);
        if (p.position[i].x < 0.0) {
          lo += v;
          nlo += 1.0;
        } else {
          hi += v;
          nhi += 1.0;
        }
      }
      run.monitor_time.push_back(static_cast<double>(flow->step()) * dt);
      run.monitor_amplitude.push_back(0.5 * (lo / std::max(nlo, 1.0) - hi / std::max(nhi, 1.0)));
    };
    monitor(flow->snapshot());
    for (uint64_t done = 0; done < eq_steps;) {
      const uint64_t n = std::min(monitor_steps, eq_steps - done);
      flow->run(n);
      done += n;
      monitor(flow->snapshot());
    }
    for (uint64_t done = 0; done < prod_steps;) {
      const uint64_t n = std::min(sample_steps, prod_steps - done);
      flow->run(n);
      done += n;
      const ParticleSpans p = flow->snapshot();
      prof.add(p);
      (done <= prod_steps / 2 ? first : second).add(p);
      if (done % monitor_steps == 0) monitor(p);
    }
    const auto eta_of = [&](const std::vector<double>& u) {
      double c = 0.0;
      for (std::size_t b = 0; b < u.size(); ++b) c += weights[b] * u[b];
      return res.mass_density * s.g / (2.0 * c);
    };
    run.profile = prof.mean();
    for (double u : run.profile)
      if (!std::isfinite(u))
        throw_input_error("reverse Poiseuille: an empty profile bin; bins = ", s.bins, " is too many for N = ",
                          res.n);
    run.eta = eta_of(run.profile);
    run.eta_first = eta_of(first.mean());
    run.eta_second = eta_of(second.mean());
    const HalfFits hf = fit_halves(res.centers, run.profile);
    run.eta_lower = -res.mass_density * s.g / (2.0 * hf.lower.curvature());
    run.eta_upper = res.mass_density * s.g / (2.0 * hf.upper.curvature());
    const double c = res.mass_density * s.g / (2.0 * run.eta);
    const double var = hydrodynamic_variance(weights, res.centers, L, L / s.bins, kT, M,
                                             run.eta / res.mass_density, s.production_time);
    run.model_se = run.eta * std::sqrt(var) / std::fabs(c);
    res.runs.push_back(std::move(run));
  }

  // Combine the runs (equal lengths: plain means).
  const double R = static_cast<double>(res.runs.size());
  res.mean_profile.assign(res.centers.size(), 0.0);
  double sum = 0.0, model_var = 0.0;
  for (const auto& r : res.runs) {
    sum += r.eta;
    model_var += r.model_se * r.model_se;
    for (std::size_t b = 0; b < r.profile.size(); ++b) res.mean_profile[b] += r.profile[b] / R;
  }
  res.eta = sum / R;
  res.se_model = std::sqrt(model_var) / R;
  if (res.runs.size() >= 2) {
    double ss = 0.0;
    for (const auto& r : res.runs) ss += (r.eta - res.eta) * (r.eta - res.eta);
    res.se_runs = std::sqrt(ss / (R - 1.0) / R);
  }
  if (res.runs.size() >= 5) {
    res.se = res.se_runs;
    res.se_method = "standard deviation of the independent runs / sqrt(runs)";
  } else {
    res.se = res.se_model;
    res.se_method = "fluctuating hydrodynamics (fewer than 5 runs): equipartition kT/M per velocity mode, "
                    "decay nu k^2, propagated through the fit";
  }

  // How steady was the production window? The start-up series with the
  // measured viscosity, averaged over the production window and fitted like
  // the data, gives the curvature the transient still misses.
  const double d = 0.5 * L, nu = res.eta / res.mass_density;
  res.relaxation_time = d * d / (kPi * kPi * nu);
  std::vector<double> transient(res.centers.size());
  const double t0 = s.equilibrate_time, t1 = s.equilibrate_time + s.production_time;
  for (std::size_t b = 0; b < res.centers.size(); ++b) {
    const double x = res.centers[b], h = 0.5 * (L / s.bins);
    const double sign = x < 0.0 ? 1.0 : -1.0;
    const double centre = x < 0.0 ? -0.5 * d : 0.5 * d;
    transient[b] = sign * startup_channel_velocity(x - h - centre, x + h - centre, t0, t1, s.g, nu, d);
  }
  double c_transient = 0.0;
  for (std::size_t b = 0; b < transient.size(); ++b) c_transient += weights[b] * transient[b];
  res.startup_bias = 1.0 - c_transient / (s.g / (2.0 * nu));
  res.steady = res.startup_bias <= 0.25 * res.se / res.eta;

  const HalfFits mf = fit_halves(res.centers, res.mean_profile);
  const auto fit_json = [](const ParabolaFit& f) {
    return nlohmann::json{{"x0", f.x0}, {"c", f.c}, {"se", f.se}, {"residual_rms", f.residual_rms}};
  };
  res.fits = {{"lower", fit_json(mf.lower)}, {"upper", fit_json(mf.upper)}};
  return res;
}

nlohmann::json to_json(const ReversePoiseuilleResult& r) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& k : r.runs)
    runs.push_back({{"seed", k.seed},
                    {"eta", k.eta},
                    {"eta_lower_half", k.eta_lower},
                    {"eta_upper_half", k.eta_upper},
                    {"eta_first_half_of_production", k.eta_first},
                    {"eta_second_half_of_production", k.eta_second},
                    {"model_se", k.model_se},
                    {"profile", k.profile},
                    {"monitor_time", k.monitor_time},
                    {"monitor_amplitude", k.monitor_amplitude}});
  return {{"N", r.n},
          {"mass_density", r.mass_density},
          {"eta", r.eta},
          {"se", r.se},
          {"se_method", r.se_method},
          {"se_runs", r.se_runs},
          {"se_model", r.se_model},
          {"relaxation_time", r.relaxation_time},
          {"startup_bias", r.startup_bias},
          {"steady", r.steady},
          {"centers", r.centers},
          {"mean_profile", r.mean_profile},
          {"fits", r.fits},
          {"runs", runs}};
}

}  // namespace meso::validation
