// janus-triblock: GALAMOST's Table 1 (Zhu et al. 2013, sec. "Soft
// anisotropic particle model"): soft one-site triblock Janus particles, an
// attractive patch at each pole (meso/physics/janus.hpp), a^R = 396,
// a^A = 132, theta_m = 65 degrees, nu = 0.5, r_c = 1, at density 3 in boxes
// of 20, 40, 60 and 80 (24,000 to 1,536,000 particles). Integrated as
// GALAMOST does, by leapfrog with Berendsen scaling of translation and of
// rotation (integrate/berendsen/aniso; the time constants 30 dt and 10 dt
// of the Janus example of GALAMOST's successor PYGAMD), kT = 1, dt = 0.005,
// skin 0.3, from uniform random positions and patch axes; Langevin for
// translation and rotation (gamma = 4.5, gamma_r = 1) with
// --param integrator=langevin. --param shape=disk|rod|janus gives the
// model's other particles (the same force, GALAMOST's LZWForce).
#include <cmath>
#include <sstream>

#include "../tune.hpp"
#include "../workload.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/janus_triblock.hpp"

namespace meso::bench {
namespace {

constexpr double kDegree = 3.14159265358979323846 / 180.0;

class JanusTriblock final : public Workload {
 public:
  JanusTriblock() : Workload("janus-triblock", "step") {
    auto g = [](BenchCase& c) -> JanusTriblockParams& { return params_of<JanusTriblockParams>(c); };
    add_param("L", "r_c", "cubic box edge (20, 40, 60, 80)", ParamRange{2.0, 1000.0},
              [g](BenchCase& c, const std::string& v) { g(c).L = parse_param_double("L", v); });
    add_param("rho", "1/r_c^3", "number density (3)", ParamRange{0.01, 20.0},
              [g](BenchCase& c, const std::string& v) { g(c).rho = parse_param_double("rho", v); });
    add_param("kT", "", "initial and thermostat temperature (1)", ParamRange{0.01, 100.0},
              [g](BenchCase& c, const std::string& v) {
                g(c).kT = parse_param_double("kT", v);
                c.run.kT = g(c).kT;
              });
    add_param("aR", "kT", "soft repulsion a^R (396)", ParamRange{0.0, 1e4},
              [g](BenchCase& c, const std::string& v) { g(c).janus.a_rep = parse_param_double("aR", v); });
    add_param("aA", "kT", "patch attraction a^A (132)", ParamRange{0.0, 1e4},
              [g](BenchCase& c, const std::string& v) { g(c).janus.a_att = parse_param_double("aA", v); });
    add_param("theta_m", "degrees", "patch half angle (65)", ParamRange{1.0, 90.0},
              [g](BenchCase& c, const std::string& v) { g(c).janus.theta_m = parse_param_double("theta_m", v) * kDegree; });
    add_param("nu", "", "exponent of the patch factor (0.5)", ParamRange{0.01, 10.0},
              [g](BenchCase& c, const std::string& v) { g(c).janus.nu = parse_param_double("nu", v); });
    add_param("shape", "", "triblock (a patch at each pole), janus (one), or the repulsive disk or rod",
              [g](BenchCase& c, const std::string& v) { g(c).janus.shape = parse_soft_shape(v); });
    add_param("mu", "", "disk and rod: side-by-side softening of a^R (1)", ParamRange{0.0, 1.0},
              [g](BenchCase& c, const std::string& v) { g(c).janus.mu = parse_param_double("mu", v); });
    add_param("dt", "tau", "time step (0.005)", ParamRange{1e-06, 0.02},
              [](BenchCase& c, const std::string& v) { c.run.dt = parse_param_double("dt", v); });
    add_param("integrator", "", "berendsen (leapfrog, GALAMOST's) or langevin (berendsen)",
              [](BenchCase& c, const std::string& v) { c.run.integrator = parse_integrator(v); });
    add_param("tau", "tau", "Berendsen time constant of translation (0.15)", ParamRange{1e-06, 1e6},
              [](BenchCase& c, const std::string& v) { c.run.tau = parse_param_double("tau", v); });
    add_param("tau_r", "tau", "Berendsen time constant of rotation (0.05)", ParamRange{1e-06, 1e6},
              [](BenchCase& c, const std::string& v) { c.run.tau_r = parse_param_double("tau_r", v); });
    add_param("gamma", "m/tau", "translational Langevin drag (4.5)", ParamRange{0.0, 1000.0},
              [](BenchCase& c, const std::string& v) { c.run.gamma = parse_param_double("gamma", v); });
    add_param("gamma_r", "m r_c^2/tau", "rotational drag (1)", ParamRange{0.0, 1000.0},
              [](BenchCase& c, const std::string& v) { c.run.gamma_r = parse_param_double("gamma_r", v); });
    add_param("seed", "", "seed of the initial configuration (1)",
              [g](BenchCase& c, const std::string& v) { g(c).seed = parse_param_uint("seed", v); });
  }

  std::string summary() const override {
    return "GALAMOST Table 1: soft triblock Janus, a^R 396, a^A 132, theta_m 65 deg, rho 3";
  }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> out;
    for (const double l : {20.0, 40.0, 60.0, 80.0}) {
      JanusTriblockParams p;
      p.L = l;
      BenchCase c = make_case(p, false);
      c.run.dt = 0.005;
      c.run.skin = 0.3;
      c.run.integrator = Integrator::berendsen;
      c.run.tau = 30 * c.run.dt;
      c.run.tau_r = 10 * c.run.dt;
      c.run.kT = p.kT;
      c.run.gamma = 4.5;
      c.run.gamma_r = 1.0;
      out.push_back(c);
    }
    return out;
  }

  // The autotuner's settings on the GPU: the list builder, then lanes per
  // particle (the same pairs in another order: the order of the force and
  // torque sums only; the GPU tests check every builder and
  // tpp = 1 to 8 against the reference).
  std::vector<TuneSpace> tune_spaces() const override {
    const TuneSetting nlist{"nlist", {"ballot", "atomic", "tiled"}};
    const TuneSetting tpp{"tpp", {"1", "2", "4", "8"}};
    return {{"cuda", Precision::mixed, {nlist, tpp}, "the list builders and lanes: the same pairs"},
            {"cuda", Precision::double_, {nlist, tpp}, "the list builders and lanes: the same pairs"}};
  }

  std::vector<VariantDefault> variant_defaults() const override {
    // Two lanes a particle over the ballot lists: the fastest median at
    // L = 40 in mixed (2255 TPS against 2209 at tpp = 1, 2239 at 4, 2134 at
    // 8, 2170 with morton2 order, 1535 with the atomic builder), within the
    // runs' spread of the next two (results/orientation/janus-h100).
    return {
        {"", "cuda", Precision::mixed, "precision=mixed,tpp=2",
         "H100, L = 40 (N = 192000): 2255 TPS (tpp=1: 2209; tpp=4: 2239; min..max overlap); GPU tests; "
         "janus-assembly's long form passes in it (seeds 27-29) and its short form fails (no ordering at "
         "t = 150 without double's kicked, cooled bulk): results/validation/gates-h200-2026-11-29e"},
        {"", "cuda", Precision::double_, "precision=double,tpp=2",
         "H100, L = 40: 1448 TPS (the mixed sweep's choice, not swept in double); GPU tests"},
    };
  }

  // Orientation, angular momentum, inertia and torque beside the MD arrays.
  double particle_bytes() const override { return Workload::particle_bytes() + 4 * 8 + 3 * 3 * 8; }

  double particle_count(const BenchCase& c) const override {
    return static_cast<double>(params_of<JanusTriblockParams>(c).n());
  }

  void validate(const BenchCase& c) const override {
    const auto& p = params_of<JanusTriblockParams>(c);
    p.validate();
    c.run.validate();
    if (c.run.integrator != Integrator::berendsen && c.run.integrator != Integrator::langevin)
      throw_input_error("integrator=", to_string(c.run.integrator),
                        " is not provided for janus-triblock: use berendsen or langevin");
    const bool langevin = c.run.integrator == Integrator::langevin;
    require_used(c, "tau", !langevin, "with integrator=berendsen");
    require_used(c, "tau_r", !langevin, "with integrator=berendsen");
    require_used(c, "gamma", langevin, "with integrator=langevin");
    require_used(c, "gamma_r", langevin, "with integrator=langevin");
    const bool patches = p.janus.shape == physics::SoftShape::janus || p.janus.shape == physics::SoftShape::triblock;
    require_used(c, "aA", patches, "with shape=janus or triblock");
    require_used(c, "theta_m", patches, "with shape=janus or triblock");
    require_used(c, "mu", !patches, "with shape=disk or rod");
    check_list_step(c, p.kT, p.mass, p.janus.rcut);
  }

  std::string decomposition_refusal() const override { return "orientational particles run on one rank"; }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& p = params_of<JanusTriblockParams>(c);
    std::ostringstream os;
    os << "L=" << format_number(p.L);
    if (p.janus.shape == physics::SoftShape::disk || p.janus.shape == physics::SoftShape::rod)
      os << "/" << to_string(p.janus.shape) << "/mu=" << format_number(p.janus.mu);
    else
      os << (p.janus.two_patches() ? "" : "/janus") << "/theta_m=" << format_number(p.janus.theta_m / kDegree);
    os << "/N=" << p.n();
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& p = params_of<JanusTriblockParams>(c);
    const RunParams& run = c.run;
    return {{"pair_style", "janus"}, {"rho", p.rho}, {"kT", p.kT}, {"a_rep", p.janus.a_rep},
            {"a_att", p.janus.a_att}, {"theta_m_deg", p.janus.theta_m / kDegree}, {"nu", p.janus.nu},
            {"rc", p.janus.rcut}, {"shape", to_string(p.janus.shape)}, {"mu", p.janus.mu}, {"mass", p.mass},
            {"inertia_perp", p.inertia_perp()}, {"seed", p.seed}, {"dt", run.dt}, {"skin", run.skin},
            {"integrator", to_string(run.integrator)}, {"tau", run.tau}, {"tau_r", run.tau_r},
            {"gamma", run.gamma}, {"gamma_r", run.gamma_r},
            {"box", {box[0], box[1], box[2]}}};
  }

  double initial_kT(const BenchCase& c) const override { return params_of<JanusTriblockParams>(c).kT; }

  std::string setup(const BenchCase& c) const override {
    const auto& p = params_of<JanusTriblockParams>(c);
    std::ostringstream os;
    os << "L=" << exact_number(p.L) << " rho=" << exact_number(p.rho) << " kT0=" << exact_number(p.kT)
       << " aR=" << exact_number(p.janus.a_rep) << " aA=" << exact_number(p.janus.a_att)
       << " theta_m=" << exact_number(p.janus.theta_m) << " nu=" << exact_number(p.janus.nu)
       << " rc=" << exact_number(p.janus.rcut) << " shape=" << to_string(p.janus.shape)
       << " mu=" << exact_number(p.janus.mu) << " m=" << exact_number(p.mass)
       << " init_seed=" << p.seed << " gamma_r=" << exact_number(c.run.gamma_r)
       << " tau_r=" << exact_number(c.run.tau_r);
    return os.str() + run_setup(c.run);
  }

  System make_system(const BenchCase& c) const override {
    return make_janus_triblock(params_of<JanusTriblockParams>(c));
  }
};

MESO_REGISTER_WORKLOAD(JanusTriblock);

}  // namespace
}  // namespace meso::bench
