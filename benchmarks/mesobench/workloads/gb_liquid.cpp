// gb-liquid: a liquid of Gay-Berne ellipsoids, the orientational system of
// the coarse-grained lipid MD paper (Shkurti et al.: Gay-Berne particles
// integrated as rigid bodies, rotation every step). GB(kappa = 3,
// kappa' = 5, mu = 2, nu = 1), the standard liquid-crystal parametrisation
// (Gay & Berne 1981; de Miguel et al. 1991), cut at 4 sigma0 and energy
// shifted; rho = 0.30 sigma0^-3, kT = 2.0 epsilon0 (an isotropic liquid:
// the nve-drift-rigid gate reports its nematic order), Langevin for
// translation and rotation (gamma = gamma_r = 1), dt = 0.002, skin 0.4.
// Moments of inertia: a uniform solid ellipsoid about its short axes, none
// about its symmetry axis (meso/systems/gay_berne_liquid.hpp). The cases mirror
// lj-liquid's N = 64000, so the cost of orientation can be read against it.
#include <sstream>

#include "../tune.hpp"
#include "../workload.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/gay_berne_liquid.hpp"

namespace meso::bench {
namespace {

class GbLiquid final : public Workload {
 public:
  GbLiquid() : Workload("gb-liquid", "step") {
    auto g = [](BenchCase& c) -> GbLiquidParams& { return params_of<GbLiquidParams>(c); };
    add_param("N", "particles", "particle count (64000)",
              [g](BenchCase& c, const std::string& v) { g(c).n = parse_param_uint("N", v); });
    add_param("rho", "1/sigma0^3", "number density (0.30)", ParamRange{0.001, 1.0},
              [g](BenchCase& c, const std::string& v) { g(c).rho = parse_param_double("rho", v); });
    add_param("kT", "epsilon0", "initial and thermostat temperature (2.0)", ParamRange{0.01, 100.0},
              [g](BenchCase& c, const std::string& v) {
                g(c).kT = parse_param_double("kT", v);
                c.run.kT = g(c).kT;
              });
    add_param("kappa", "", "length over breadth, sigma_end / sigma_side (3)", ParamRange{1.0, 10.0},
              [g](BenchCase& c, const std::string& v) { g(c).gb.kappa = parse_param_double("kappa", v); });
    add_param("kappa_prime", "", "side-by-side over end-to-end well depth (5)", ParamRange{0.1, 100.0},
              [g](BenchCase& c, const std::string& v) { g(c).gb.kappa_prime = parse_param_double("kappa_prime", v); });
    add_param("mu", "", "exponent of the orientation-dependent well depth (2)", ParamRange{0.1, 10.0},
              [g](BenchCase& c, const std::string& v) { g(c).gb.mu = parse_param_double("mu", v); });
    add_param("nu", "", "exponent of the axes' alignment term of the well depth (1)", ParamRange{0.0, 10.0},
              [g](BenchCase& c, const std::string& v) { g(c).gb.nu = parse_param_double("nu", v); });
    add_param("rc", "sigma0", "cutoff (4)", ParamRange{1.0, 20.0},
              [g](BenchCase& c, const std::string& v) { g(c).gb.rcut = parse_param_double("rc", v); });
    add_param("dt", "tau", "time step (0.002)", ParamRange{1e-06, 0.02},
              [](BenchCase& c, const std::string& v) { c.run.dt = parse_param_double("dt", v); });
    add_param("skin", "sigma0", "neighbor-list skin (0.4)", ParamRange{0.0, 5.0},
              [](BenchCase& c, const std::string& v) { c.run.skin = parse_param_double("skin", v); });
    add_param("integrator", "", "langevin or nve (langevin; both rotate the ellipsoids)",
              [](BenchCase& c, const std::string& v) { c.run.integrator = parse_integrator(v); });
    add_param("gamma", "m/tau", "translational Langevin drag (1)", ParamRange{0.0, 1000.0},
              [](BenchCase& c, const std::string& v) { c.run.gamma = parse_param_double("gamma", v); });
    add_param("gamma_r", "m sigma0^2/tau", "rotational drag (1)", ParamRange{0.0, 1000.0},
              [](BenchCase& c, const std::string& v) { c.run.gamma_r = parse_param_double("gamma_r", v); });
    add_param("seed", "", "seed of the initial velocities and angular momenta (12345)",
              [g](BenchCase& c, const std::string& v) { g(c).seed = parse_param_uint("seed", v); });
  }

  std::string summary() const override {
    return "Gay-Berne GB(3, 5, 2, 1) ellipsoids, rho = 0.30, kT = 2, rotating, Langevin, dt = 0.002";
  }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> out;
    for (const uint64_t n : {8000ull, 64000ull}) {
      GbLiquidParams g;
      g.n = n;
      g.seed = 12345;
      BenchCase c = make_case(g, false);
      c.run.dt = 0.002;
      c.run.skin = 0.4;
      c.run.integrator = Integrator::langevin;
      c.run.kT = g.kT;
      c.run.gamma = 1.0;
      c.run.gamma_r = 1.0;
      out.push_back(c);
    }
    return out;
  }

  // The autotuner's settings on the GPU: the list builder, then lanes per
  // particle (the same pairs in another order: the order of the force and
  // torque sums only; the GPU tests check every builder and
  // each against the reference). The best depends on N: at N of about 1000
  // the step is latency-bound and 32 lanes win, at 64000 8
  // (results/orientation/README.md), so a per-N choice is the tuner's.
  std::vector<TuneSpace> tune_spaces() const override {
    const TuneSetting nlist{"nlist", {"ballot", "atomic", "tiled"}};
    const TuneSetting tpp{"tpp", {"8", "16", "32"}};
    return {{"cuda", Precision::mixed, {nlist, tpp}, "the list builders and lanes: the same pairs"},
            {"cuda", Precision::double_, {nlist, tpp}, "the list builders and lanes: the same pairs"}};
  }

  std::vector<VariantDefault> variant_defaults() const override {
    // On the GPU: 8 lanes a particle (tpp) over the tiled builder's lists.
    // Against the ballot lists of the earlier default, in one call with each
    // alternated twice (results/orientation/defaults-h200): 17% faster at
    // N = 8000 in mixed (10,850 against 9,249 TPS) and 14% in double, 4.6%
    // and 8.0% slower at 64000; one default serves both sizes and wins their
    // geometric mean (mixed 1.058, double 1.026), and `mesobench tune` picks
    // per N. Morton reordering made the force slower
    // (results/orientation/gpu-h200-lists-047d74f).
    return {
        {"", "cuda", Precision::mixed, "precision=mixed,nlist=tiled,tpp=8",
         "H200, N = 8000 / 64000: 10850 / 2448 TPS (ballot lists: 9249 / 2563); gates: nve-drift-rigid and "
         "rotational-equipartition short forms on the GPU with this variant, GPU tests"},
        {"", "cuda", Precision::double_, "precision=double,nlist=tiled,tpp=8",
         "H200, N = 8000 / 64000: 8958 / 1581 TPS (ballot lists: 7824 / 1718); gates: the short forms on the "
         "GPU with this variant, GPU tests"},
    };
  }

  // Orientation, angular momentum, inertia and torque beside the MD arrays.
  double particle_bytes() const override { return Workload::particle_bytes() + 4 * 8 + 3 * 3 * 8; }

  double particle_count(const BenchCase& c) const override {
    return static_cast<double>(params_of<GbLiquidParams>(c).n);
  }

  void validate(const BenchCase& c) const override {
    const auto& g = params_of<GbLiquidParams>(c);
    g.validate();
    c.run.validate();
    if (c.run.integrator != Integrator::langevin && c.run.integrator != Integrator::nve)
      throw_input_error("integrator=", to_string(c.run.integrator),
                        " is not provided for gb-liquid: orientational particles run with langevin or nve");
    require_used(c, "gamma", c.run.integrator == Integrator::langevin, "with integrator=langevin");
    require_used(c, "gamma_r", c.run.integrator == Integrator::langevin, "with integrator=langevin");
    check_list_step(c, g.kT, g.mass, g.gb.rcut);
  }

  std::string decomposition_refusal() const override { return "orientational particles run on one rank"; }

  io::H5mdUnits trajectory_units() const override {
    return io::reduced_units("Gay-Berne units: length sigma0, energy epsilon0, mass m, time sigma0 sqrt(m/epsilon0)");
  }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& g = params_of<GbLiquidParams>(c);
    std::ostringstream os;
    os << "rho=" << format_number(g.rho) << "/kappa=" << format_number(g.gb.kappa) << "/N=" << g.n;
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& g = params_of<GbLiquidParams>(c);
    const RunParams& run = c.run;
    return {{"pair_style", "gay_berne"}, {"rho", g.rho}, {"kT", g.kT}, {"epsilon0", g.gb.epsilon},
            {"sigma0", g.gb.sigma}, {"kappa", g.gb.kappa}, {"kappa_prime", g.gb.kappa_prime}, {"mu", g.gb.mu},
            {"nu", g.gb.nu}, {"rc", g.gb.rcut}, {"shift", g.gb.shift}, {"mass", g.mass},
            {"inertia_perp", g.inertia_perp()}, {"seed", g.seed}, {"dt", run.dt}, {"skin", run.skin},
            {"integrator", to_string(run.integrator)}, {"thermostat_kT", run.kT}, {"gamma", run.gamma},
            {"gamma_r", run.gamma_r}, {"box", {box[0], box[1], box[2]}}};
  }

  double initial_kT(const BenchCase& c) const override { return params_of<GbLiquidParams>(c).kT; }

  std::string setup(const BenchCase& c) const override {
    const auto& g = params_of<GbLiquidParams>(c);
    std::ostringstream os;
    os << "N=" << g.n << " rho=" << exact_number(g.rho) << " kT0=" << exact_number(g.kT)
       << " eps0=" << exact_number(g.gb.epsilon) << " sigma0=" << exact_number(g.gb.sigma)
       << " kappa=" << exact_number(g.gb.kappa) << " kappa'=" << exact_number(g.gb.kappa_prime)
       << " mu=" << exact_number(g.gb.mu) << " nu=" << exact_number(g.gb.nu) << " rc=" << exact_number(g.gb.rcut)
       << " m=" << exact_number(g.mass) << " init_seed=" << g.seed << " gamma_r=" << exact_number(c.run.gamma_r);
    return os.str() + run_setup(c.run);
  }

  System make_system(const BenchCase& c) const override { return make_gb_liquid(params_of<GbLiquidParams>(c)); }
};

MESO_REGISTER_WORKLOAD(GbLiquid);

}  // namespace
}  // namespace meso::bench
