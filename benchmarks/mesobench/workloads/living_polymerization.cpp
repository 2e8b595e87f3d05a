// living-polymerization: GALAMOST's stochastic chain growth (Liu et al.) in
// a well-mixed ideal solution, the system of the living-polymerization gate
// (docs/polymerization.md): initiators (1 in 21 particles) all active from
// t = 0, free monomers at density 0.5, capture radius 1, reaction
// probability 0.01 per attempt, an attempt every 10 steps; no pair force,
// harmonic growth bonds (k = 20, r0 = 0.5), Langevin (gamma = 1, kT = 1),
// dt = 0.05. A timed step includes the reactions of its share of attempts.
// Both backends run it (the CUDA backend's polymerize: kernels/md/polymerize.cu).
#include <sstream>

#include "../workload.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/living_polymerization.hpp"

namespace meso::bench {
namespace {

class LivingPolymerization final : public Workload {
 public:
  LivingPolymerization() : Workload("living-polymerization", "step") {
    auto g = [](BenchCase& c) -> LivingPolymerizationParams& { return params_of<LivingPolymerizationParams>(c); };
    add_param("initiators", "particles", "active ends at t = 0 (1000, 10000)",
              [g](BenchCase& c, const std::string& v) { g(c).initiators = parse_param_uint("initiators", v); });
    add_param("monomers", "particles", "free monomers at t = 0 (20 per initiator)",
              [g](BenchCase& c, const std::string& v) { g(c).monomers = parse_param_uint("monomers", v); });
    add_param("rho", "1/sigma^3", "free monomers per volume at t = 0 (0.5)", ParamRange{1e-3, 10.0},
              [g](BenchCase& c, const std::string& v) { g(c).monomer_density = parse_param_double("rho", v); });
    add_param("rcap", "sigma", "capture radius (1)", ParamRange{0.1, 5.0},
              [g](BenchCase& c, const std::string& v) { g(c).capture_radius = parse_param_double("rcap", v); });
    add_param("P", "", "reaction probability per attempt (0.01)", ParamRange{0.0, 1.0},
              [g](BenchCase& c, const std::string& v) { g(c).probability = parse_param_double("P", v); });
    add_param("period", "steps", "steps between attempts (10)", ParamRange{1.0, 1e6},
              [g](BenchCase& c, const std::string& v) { g(c).period = parse_param_uint("period", v); });
    add_param("dt", "tau", "time step (0.05)", ParamRange{1e-06, 0.05},
              [](BenchCase& c, const std::string& v) { c.run.dt = parse_param_double("dt", v); });
    add_param("gamma", "m/tau", "Langevin drag (1; monomer diffusion kT / gamma)", ParamRange{0.01, 1000.0},
              [](BenchCase& c, const std::string& v) { c.run.gamma = parse_param_double("gamma", v); });
    add_param("seed", "", "seed of the initial configuration (1)",
              [g](BenchCase& c, const std::string& v) { g(c).seed = parse_param_uint("seed", v); });
  }

  std::string summary() const override {
    return "GALAMOST chain growth, initiators active from t = 0, ideal monomers, P = 0.01";
  }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> out;
    for (const uint64_t initiators : {1000ull, 10000ull}) {
      LivingPolymerizationParams p;
      p.initiators = initiators;
      p.monomers = 20 * initiators;
      BenchCase c = make_case(p, false);
      c.run.dt = 0.05;
      c.run.skin = 0.0;
      c.run.integrator = Integrator::langevin;
      c.run.kT = p.kT;
      c.run.gamma = 1.0;
      out.push_back(c);
    }
    return out;
  }

  double particle_count(const BenchCase& c) const override {
    const auto& p = params_of<LivingPolymerizationParams>(c);
    return static_cast<double>(p.initiators) + static_cast<double>(p.monomers);
  }

  void validate(const BenchCase& c) const override {
    params_of<LivingPolymerizationParams>(c).validate();
    c.run.validate();
    const auto& p = params_of<LivingPolymerizationParams>(c);
    check_step_length(c.run.dt, p.kT, 1.0, 0.1, "a fifth of the growth bond's rest length r0 = 0.5");
  }

  std::string restart_refusal() const override {
    return "the bonds, types and active ends its reactions change are not in the checkpoint format";
  }
  std::string topology_refusal() const override { return "it forms its own bonds"; }
  std::string decomposition_refusal() const override { return "polymerization runs on one rank"; }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& p = params_of<LivingPolymerizationParams>(c);
    std::ostringstream os;
    os << "rho=" << format_number(p.monomer_density) << "/P=" << format_number(p.probability)
       << "/N=" << p.initiators + p.monomers;
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& p = params_of<LivingPolymerizationParams>(c);
    return {{"pair_style", "none"}, {"initiators", p.initiators}, {"monomers", p.monomers},
            {"monomer_density", p.monomer_density}, {"capture_radius", p.capture_radius},
            {"probability", p.probability}, {"period", p.period}, {"bond_k", p.bond_k}, {"bond_r0", p.bond_r0},
            {"kT", p.kT}, {"seed", p.seed}, {"dt", c.run.dt}, {"integrator", to_string(c.run.integrator)},
            {"gamma", c.run.gamma}, {"box", {box[0], box[1], box[2]}}};
  }

  double initial_kT(const BenchCase& c) const override { return params_of<LivingPolymerizationParams>(c).kT; }

  std::string setup(const BenchCase& c) const override {
    const auto& p = params_of<LivingPolymerizationParams>(c);
    std::ostringstream os;
    os << "initiators=" << p.initiators << " monomers=" << p.monomers << " rho=" << exact_number(p.monomer_density)
       << " rcap=" << exact_number(p.capture_radius) << " P=" << exact_number(p.probability)
       << " period=" << p.period << " k=" << exact_number(p.bond_k) << " r0=" << exact_number(p.bond_r0)
       << " kT=" << exact_number(p.kT) << " init_seed=" << p.seed;
    return os.str() + run_setup(c.run);
  }

  System make_system(const BenchCase& c) const override {
    return make_living_polymerization(params_of<LivingPolymerizationParams>(c));
  }
};

MESO_REGISTER_WORKLOAD(LivingPolymerization);

}  // namespace
}  // namespace meso::bench
