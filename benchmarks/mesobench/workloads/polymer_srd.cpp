// polymer-srd: Howard et al.'s polymer solution (CPC 2018, sec. 4.3, Fig. 9):
// 50-bead Kremer-Grest chains of Huang et al. (2010) in the benchmark SRD
// solvent (L = 50, rho = 10), coupled through the collisions only, one
// collision every 50 MD steps; meso/systems/polymer_solution.hpp has the model. Its
// baseline (solvent=langevin) is the chains alone under Langevin dynamics
// with the drag per monomer at which a Rouse chain diffuses as Zimm's. One
// timed step is an MD step; Fig. 9's time per unit of simulated time is
// 1 / (TPS dt) (scripts/plot_polymer_srd.py).
#include <cmath>
#include <sstream>

#include "../workload.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/polymer_solution.hpp"
#include "meso/core/presets.hpp"
#include "meso/validation/channel_flow.hpp"

namespace meso::bench {
namespace {

struct PolymerCase {
  PolymerSolutionParams poly;
  MpcdParams solvent = presets::howard_srd_solvent(12345);
  bool langevin = false;  // the baseline: no solvent
};

// The chains' radius of gyration, for the Zimm diffusion coefficient the
// baseline's drag matches: R_g = 4.88 (N / 50)^0.65. Measured on the CPU
// reference for dilute chains under Langevin dynamics: R_g^2 = 23.8 +- 0.4
// at N = 50 (12 chains in a box of 64, t = 1000-7000), local exponent 0.65
// between N = 20 and 40 (polymer-hydrodynamics, short form;
// docs/showcases.md has the command). Chains of N <= 40 are not yet at
// the asymptotic 0.588 (validation/polymer-hydrodynamics/README.md).
constexpr double kRg50 = 4.88;
constexpr double kRgLocalExponent = 0.65;

double solvent_viscosity(const PolymerCase& p) {
  const MpcdParams& m = p.solvent;
  return validation::srd_kinetic_theory_viscosity(p.poly.rho, m.kT, m.mass, m.cell_size, m.dt, m.angle_deg)
      .total();
}

double radius_of_gyration(uint32_t n) { return kRg50 * std::pow(double(n) / 50.0, kRgLocalExponent); }

double zimm_gamma(const PolymerCase& p) {
  const uint32_t n = p.poly.chain_length;
  return rouse_matched_gamma(p.poly.kT, n, zimm_diffusion(p.poly.kT, solvent_viscosity(p), radius_of_gyration(n)));
}

// The case's RunParams with the baseline's drag Zimm-matched at the case's
// chain length unless --param gamma set it.
RunParams effective_run(const BenchCase& c, const PolymerCase& p) {
  RunParams r = c.run;
  if (p.langevin && !c.was_given("gamma")) r.gamma = zimm_gamma(p);
  return r;
}

class PolymerSrd final : public Workload {
 public:
  PolymerSrd() : Workload("polymer-srd", "step") {
    auto p = [](BenchCase& c) -> PolymerCase& { return params_of<PolymerCase>(c); };
    add_param("chains", "", "number of chains (16; Fig. 9: 16 to 1024)", ParamRange{1.0, 1e7},
              [p](BenchCase& c, const std::string& v) {
                p(c).poly.chains = static_cast<uint32_t>(parse_param_uint("chains", v));
              });
    add_param("N", "monomers", "monomers per chain (50)", ParamRange{2.0, 1e5},
              [p](BenchCase& c, const std::string& v) {
                p(c).poly.chain_length = static_cast<uint32_t>(parse_param_uint("N", v));
              });
    add_param("L", "a", "cubic box edge in cells (50)", ParamRange{4.0, 10000.0},
              [p](BenchCase& c, const std::string& v) { p(c).poly.L = parse_param_double("L", v); });
    add_param("solvent", "", "srd (chains in the SRD solvent) or langevin (the baseline) (srd)",
              [p](BenchCase& c, const std::string& v) {
                if (v != "srd" && v != "langevin")
                  throw_input_error("--param solvent=", v, " is not srd or langevin");
                p(c).langevin = v == "langevin";
                c.run.integrator = p(c).langevin ? Integrator::langevin : Integrator::velocity_verlet;
              });
    add_param("dt", "tau", "MD time step (0.002: 50 per collision of dt_c = 0.1)", ParamRange{1e-6, 0.1},
              [](BenchCase& c, const std::string& v) { c.run.dt = parse_param_double("dt", v); });
    add_param("gamma", "m/tau", "Langevin drag per monomer (Zimm-matched: docs/showcases.md)",
              ParamRange{1e-6, 1e6},
              [](BenchCase& c, const std::string& v) { c.run.gamma = parse_param_double("gamma", v); });
    add_param("skin", "sigma", "neighbor-list skin (0.3)", ParamRange{0.0, 5.0},
              [](BenchCase& c, const std::string& v) { c.run.skin = parse_param_double("skin", v); });
    add_param("seed", "", "seed of the chains, the solvent, the collisions and the noise (12345)",
              [p](BenchCase& c, const std::string& v) {
                p(c).poly.seed = parse_param_uint("seed", v);
                p(c).solvent.seed = static_cast<uint32_t>(p(c).poly.seed);
                c.run.seed = static_cast<uint32_t>(p(c).poly.seed);
              });
  }

  std::string summary() const override {
    return "50-bead chains in the SRD solvent, or Langevin (Howard et al. 2018, 4.3, Fig. 9)";
  }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> out;
    for (const bool langevin : {false, true})
      for (uint32_t chains : {16u, 64u, 256u, 1024u}) {
        PolymerCase p;
        p.poly.chains = chains;
        p.poly.seed = 12345;
        p.langevin = langevin;
        BenchCase c = make_case(p, false);
        c.run.dt = 0.002;
        c.run.skin = 0.3;
        c.run.rebuild_every = 0;
        c.run.seed = 12345;
        c.run.kT = 1.0;
        c.run.integrator = langevin ? Integrator::langevin : Integrator::velocity_verlet;
        out.push_back(c);
      }
    return out;
  }

  // The monomers' arrays dominate per particle; the solvent's are smaller.
  double particle_count(const BenchCase& c) const override {
    const auto& p = params_of<PolymerCase>(c);
    const double solvent = p.langevin ? 0.0 : std::round(p.poly.rho * p.poly.L * p.poly.L * p.poly.L);
    return double(p.poly.monomers()) + solvent;
  }

  void validate(const BenchCase& c) const override {
    const auto& p = params_of<PolymerCase>(c);
    p.poly.validate();
    p.solvent.validate();
    c.run.validate();
    require_used(c, "gamma", p.langevin, "with solvent=langevin (the SRD solvent is the chains' friction)");
    if (!p.langevin) {
      const double k = p.solvent.dt / c.run.dt;
      if (std::fabs(k - std::round(k)) > 1e-9 * k)
        throw_input_error("--param dt=", c.run.dt, ": the collision period dt_c = ", p.solvent.dt,
                          " is not a whole number of MD steps");
    }
    check_list_step(c, p.poly.kT, p.poly.monomer_mass, std::pow(2.0, 1.0 / 6.0) * p.poly.sigma);
  }

  std::string restart_refusal() const override {
    return "a checkpoint holds MD particles or a solvent alone, not chains in a solvent";
  }
  std::string topology_refusal() const override { return "polymer-srd builds its own chains' bonds"; }

  io::H5mdUnits trajectory_units() const override {
    return io::reduced_units("MPC units: length a (the cell edge), energy kT, mass m, time a sqrt(m/kT)");
  }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& p = params_of<PolymerCase>(c);
    std::ostringstream os;
    os << "solvent=" << (p.langevin ? "langevin" : "srd") << "/chains=" << p.poly.chains
       << "/N=" << p.poly.chain_length << "/L=" << format_number(p.poly.L);
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& p = params_of<PolymerCase>(c);
    const PolymerSolutionParams& q = p.poly;
    const MpcdParams& m = p.solvent;
    nlohmann::json j = {{"solvent", p.langevin ? "langevin" : "srd"},
                        {"chains", q.chains},
                        {"chain_length", q.chain_length},
                        {"monomers", q.monomers()},
                        {"monomer_density", double(q.monomers()) / (q.L * q.L * q.L)},
                        {"monomer_mass", q.monomer_mass},
                        {"wca", {{"epsilon", q.epsilon}, {"sigma", q.sigma}, {"rc", std::pow(2.0, 1.0 / 6.0) * q.sigma}}},
                        {"fene", {{"K", q.fene_k}, {"R0", q.fene_r0}}},
                        {"kT", q.kT},
                        {"L", q.L},
                        {"seed", q.seed},
                        {"dt", c.run.dt},
                        {"skin", c.run.skin},
                        {"integrator", to_string(c.run.integrator)},
                        {"box", {box[0], box[1], box[2]}}};
    if (p.langevin) {
      j["gamma"] = effective_run(c, p).gamma;
      j["gamma_zimm_matched"] = !c.was_given("gamma");
      j["eta_srd"] = solvent_viscosity(p);
      j["rg_model"] = radius_of_gyration(q.chain_length);
    } else {
      j["srd"] = {{"rho", q.rho}, {"a", m.cell_size}, {"mass", m.mass}, {"angle_deg", m.angle_deg},
                  {"dt_c", m.dt}, {"grid_shift", m.grid_shift}, {"eta_theory", solvent_viscosity(p)},
                  {"steps_per_collision", std::llround(m.dt / c.run.dt)}};
    }
    return j;
  }

  double initial_kT(const BenchCase& c) const override { return params_of<PolymerCase>(c).poly.kT; }

  std::string setup(const BenchCase& c) const override {
    const auto& p = params_of<PolymerCase>(c);
    const PolymerSolutionParams& q = p.poly;
    const MpcdParams& m = p.solvent;
    std::ostringstream os;
    os << "solvent=" << (p.langevin ? "langevin" : "srd") << " chains=" << q.chains << " N=" << q.chain_length
       << " L=" << exact_number(q.L) << " rho=" << exact_number(q.rho) << " M=" << exact_number(q.monomer_mass)
       << " wca=" << exact_number(q.epsilon) << ',' << exact_number(q.sigma) << " fene=" << exact_number(q.fene_k)
       << ',' << exact_number(q.fene_r0) << " kT=" << exact_number(q.kT) << " init_seed=" << q.seed;
    if (!p.langevin)
      os << " angle=" << exact_number(m.angle_deg) << " dt_c=" << exact_number(m.dt) << " mpcd_seed=" << m.seed;
    return os.str() + run_setup(effective_run(c, p));
  }

  SimulationSetup make_setup(const BenchCase& c) const override {
    const auto& p = params_of<PolymerCase>(c);
    SimulationSetup s{make_polymer_chains(p.poly), effective_run(c, p), std::nullopt};
    if (!p.langevin) s.solvent = make_polymer_solvent(p.poly, p.solvent);
    return s;
  }
  System make_system(const BenchCase& c) const override { return make_polymer_chains(params_of<PolymerCase>(c).poly); }
};

MESO_REGISTER_WORKLOAD(PolymerSrd);

}  // namespace
}  // namespace meso::bench
