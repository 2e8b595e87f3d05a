// surface-polymerization: GALAMOST's Table 2 (Zhu et al. 2013, sec.
// "Surface initiated polymerization"): chains grow from initiators on a
// ball of frozen particles into a melt of free monomers
// (meso/systems/surface_polymerization.hpp; docs/polymerization.md). Table 2 fixes
// the geometry (ball radius, initiators, frozen particles, N, box); the
// model is ours: Kremer-Grest monomers (WCA, FENE growth bonds) at the
// melt density Table 2's counts give (0.85 outside the ball), capture radius 1.1, P = 0.01
// every 100 steps, Langevin (gamma = 1, kT = 1), dt = 0.005. A timed step
// includes the reactions of its share of attempts. GALAMOST's TPS were
// taken after 1M steps of growth; these start from the bare ball.
#include <sstream>

#include "../workload.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/surface_polymerization.hpp"

namespace meso::bench {
namespace {

class SurfacePolymerization final : public Workload {
 public:
  SurfacePolymerization() : Workload("surface-polymerization", "step") {
    using P = SurfacePolymerizationParams;
    auto g = [](BenchCase& c) -> P& { return params_of<P>(c); };
    add_param("R", "sigma", "ball radius: a row of Table 2 (5, 10, 15, 25, 45)",
              [g](BenchCase& c, const std::string& v) {
                P& p = g(c);
                const P row = surface_polymerization_table2(parse_param_double("R", v));
                p.ball_radius = row.ball_radius, p.initiators = row.initiators, p.frozen = row.frozen;
                p.total = row.total, p.box = row.box;
              });
    add_param("rcap", "sigma", "capture radius (1.1)", ParamRange{0.1, 1.49},
              [g](BenchCase& c, const std::string& v) { g(c).capture_radius = parse_param_double("rcap", v); });
    add_param("P", "", "reaction probability per attempt (0.01)", ParamRange{0.0, 1.0},
              [g](BenchCase& c, const std::string& v) { g(c).probability = parse_param_double("P", v); });
    add_param("period", "steps", "steps between attempts (100)", ParamRange{1.0, 1e6},
              [g](BenchCase& c, const std::string& v) { g(c).period = parse_param_uint("period", v); });
    add_param("dt", "tau", "time step (0.005)", ParamRange{1e-06, 0.01},
              [](BenchCase& c, const std::string& v) { c.run.dt = parse_param_double("dt", v); });
    add_param("gamma", "m/tau", "Langevin drag (1)", ParamRange{0.01, 1000.0},
              [](BenchCase& c, const std::string& v) { c.run.gamma = parse_param_double("gamma", v); });
    add_param("seed", "", "seed of the initial configuration (1)",
              [g](BenchCase& c, const std::string& v) { g(c).seed = parse_param_uint("seed", v); });
  }

  std::string summary() const override {
    return "GALAMOST Table 2: chains grown from a frozen ball into a WCA melt, P = 0.01";
  }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> out;
    for (const double r : {5.0, 10.0, 15.0, 25.0, 45.0}) {
      BenchCase c = make_case(surface_polymerization_table2(r), false);
      c.run.dt = 0.005;
      c.run.skin = 0.3;
      c.run.integrator = Integrator::langevin;
      c.run.kT = 1.0;
      c.run.gamma = 1.0;
      out.push_back(c);
    }
    return out;
  }

  std::vector<VariantDefault> variant_defaults() const override {
    // WCA lists are short (about 10 neighbours): the atomic builder beats
    // the ballot and tiled ones, and one lane a particle beats 2 or 4
    // (results/polymerization/sip-h100/solid-ball/variants-r15). Gates: the
    // GPU tests of the polymerize operation (they reorder with morton2)
    // and of the LJ force.
    return {
        {"", "cuda", Precision::mixed, "precision=mixed,nlist=atomic,reorder=morton2,sort=100",
         "H100, R = 15 (N = 434046): 7736 TPS against 5363 with nlist=ballot (results/polymerization/"
         "sip-h100/r15); GPU tests"},
        {"", "cuda", Precision::double_, "precision=double,nlist=atomic,reorder=morton2,sort=100",
         "H100, R = 15: 5360 TPS against 4066 with nlist=ballot (results/polymerization/sip-h100/r15); "
         "GPU tests"},
    };
  }

  double particle_count(const BenchCase& c) const override {
    return static_cast<double>(params_of<SurfacePolymerizationParams>(c).total);
  }

  void validate(const BenchCase& c) const override {
    params_of<SurfacePolymerizationParams>(c).validate();
    c.run.validate();
    check_step_length(c.run.dt, 1.0, 1.0, 0.1, "a tenth of the WCA diameter sigma = 1");
  }

  std::string restart_refusal() const override {
    return "the bonds, types and active ends its reactions change are not in the checkpoint format";
  }
  std::string topology_refusal() const override { return "it forms its own bonds"; }
  std::string decomposition_refusal() const override { return "polymerization runs on one rank"; }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& p = params_of<SurfacePolymerizationParams>(c);
    std::ostringstream os;
    os << "R=" << format_number(p.ball_radius) << "/P=" << format_number(p.probability) << "/N=" << p.total;
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& p = params_of<SurfacePolymerizationParams>(c);
    return {{"pair_style", "lj"}, {"ball_radius", p.ball_radius}, {"frozen", p.frozen},
            {"initiators", p.initiators}, {"monomers", p.monomers()}, {"capture_radius", p.capture_radius},
            {"probability", p.probability}, {"period", p.period}, {"frozen_mass", p.frozen_mass},
            {"kT", p.kT}, {"seed", p.seed}, {"dt", c.run.dt}, {"integrator", to_string(c.run.integrator)},
            {"gamma", c.run.gamma}, {"box", {box[0], box[1], box[2]}}};
  }

  double initial_kT(const BenchCase& c) const override { return params_of<SurfacePolymerizationParams>(c).kT; }

  std::string setup(const BenchCase& c) const override {
    const auto& p = params_of<SurfacePolymerizationParams>(c);
    std::ostringstream os;
    os << "R=" << exact_number(p.ball_radius) << " frozen=" << p.frozen << " initiators=" << p.initiators
       << " N=" << p.total << " box=" << exact_number(p.box) << " rcap=" << exact_number(p.capture_radius)
       << " P=" << exact_number(p.probability) << " period=" << p.period
       << " frozen_mass=" << exact_number(p.frozen_mass) << " kT=" << exact_number(p.kT) << " init_seed=" << p.seed;
    return os.str() + run_setup(c.run);
  }

  System make_system(const BenchCase& c) const override {
    return make_surface_polymerization(params_of<SurfacePolymerizationParams>(c));
  }
};

MESO_REGISTER_WORKLOAD(SurfacePolymerization);

}  // namespace
}  // namespace meso::bench
