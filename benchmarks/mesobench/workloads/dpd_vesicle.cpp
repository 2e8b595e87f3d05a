// dpd-vesicle: the showcase of Tang & Karniadakis (CPC 2014, sec. 4.5):
// triblock BBBAABBB chains at 10% in a DPD solvent assemble from a random
// start into micelles, membranes and vesicles (meso/systems/vesicle.hpp has the
// model; `mesobench morphology` tells them apart). Its cost against
// dpd-fluid at the same N and density is the cost of three bead types and
// the bonds: `mesobench run --filter 'dpd-(fluid|vesicle)'` with
// dpd-fluid's --param rho=5.
#include <sstream>

#include "../workload.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/vesicle.hpp"

namespace meso::bench {
namespace {

class DpdVesicle final : public Workload {
 public:
  DpdVesicle() : Workload("dpd-vesicle", "step") {
    auto v = [](BenchCase& c) -> VesicleParams& { return params_of<VesicleParams>(c); };
    add_param("N", "beads", "beads in all, chains and solvent; the cubic box follows from rho = 5",
              [v](BenchCase& c, const std::string& s) { v(c).n = parse_param_uint("N", s); });
    add_param("c", "", "fraction of the beads in chains (0.10)", ParamRange{0.0, 1.0},
              [v](BenchCase& c, const std::string& s) { v(c).concentration = parse_param_double("c", s); });
    add_param("s", "", "weight exponent, w_R = (1 - r/r_c)^s (1: not stated by the paper)", ParamRange{0.1, 2.0},
              [v](BenchCase& c, const std::string& s) { v(c).s = parse_param_double("s", s); });
    add_param("dt", "tau", "time step (0.01)", ParamRange{1e-06, 0.1},
              [](BenchCase& c, const std::string& s) { c.run.dt = parse_param_double("dt", s); });
    add_param("skin", "r_c", "neighbor-list skin (0.3)", ParamRange{0.0, 5.0},
              [](BenchCase& c, const std::string& s) { c.run.skin = parse_param_double("skin", s); });
    add_param("seed", "", "seed of the chains' and the solvent's places and the velocities (1)",
              [v](BenchCase& c, const std::string& s) { v(c).seed = parse_param_uint("seed", s); });
  }

  std::string summary() const override {
    return "BBBAABBB chains (10%) forming vesicles in DPD solvent (Tang & Karniadakis 2014, 4.5)";
  }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> out;
    for (uint64_t n : {262144ull, 1048576ull, 4194304ull}) {
      VesicleParams v;
      v.n = n;
      BenchCase c = make_case(v, false);
      c.run.dt = 0.01;
      c.run.skin = 0.3;
      c.run.rebuild_every = 0;
      out.push_back(c);
    }
    return out;
  }

  std::vector<VariantDefault> variant_defaults() const override {
    // dpd-fluid's defaults without the fused second half-step (it needs the
    // total force, and the bonds add theirs after the pair force); in mixed
    // precision the tiled list builder, measured fastest on dpd-vesicle
    // (results/showcases/vesicle/variants-h200). pow is moot at s = 1.
    return {
        {"", "cuda", Precision::mixed, "precision=mixed,nlist=tiled,reorder=morton2,sort=100,noise=fp32",
         "H200: 3094 TPS at 262k, 865 at 1M (ballot 2760, 786; atomic, gather=masked and record, sort=50 "
         "slower or within the spread); results/showcases/vesicle/variants-h200; gates: the "
         "vesicle-formation long form ran in double (Variant{}, and with nlist=tiled), not with this "
         "variant; dpd-fluid's gates with its pair force in mixed; the GPU tests"},
        {"", "cuda", Precision::double_, "precision=double,reorder=morton2,sort=100",
         "dpd-fluid's double default less fuse=on, not measured against other variants on dpd-vesicle; "
         "gates: vesicle-formation long form (Variant{} and nlist=tiled, both double), the GPU tests"},
        {"", "cpu", Precision::double_, "reorder=cell,sort=100",
         "dpd-fluid's CPU default, not measured on dpd-vesicle; gates: the vesicle-formation short form "
         "(Variant{})"},
    };
  }

  double particle_count(const BenchCase& c) const override {
    return static_cast<double>(params_of<VesicleParams>(c).n);
  }

  void validate(const BenchCase& c) const override {
    const auto& v = params_of<VesicleParams>(c);
    v.validate();
    c.run.validate();
    if (c.run.integrator != Integrator::velocity_verlet && c.run.integrator != Integrator::groot_warren)
      throw_input_error("integrator=", to_string(c.run.integrator), " is not provided for dpd-vesicle (its ",
                        "thermostat is the DPD pair force): use vv or gw");
    check_list_step(c, v.kT, v.mass, v.rcut);
  }

  std::string topology_refusal() const override {
    return "dpd-vesicle builds its own chains' bonds";
  }

  io::H5mdUnits trajectory_units() const override {
    return io::reduced_units("DPD units: length r_c, energy kT, mass m, time r_c sqrt(m/kT)");
  }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& v = params_of<VesicleParams>(c);
    std::ostringstream os;
    os << "c=" << format_number(v.concentration) << "/s=" << format_number(v.s) << "/N=" << v.n;
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& v = params_of<VesicleParams>(c);
    return {{"rho", v.rho},
            {"concentration", v.concentration},
            {"chains", v.chains()},
            {"sequence", v.sequence},
            {"a", {{"AA", v.a_aa}, {"AB", v.a_ab}, {"AS", v.a_as}, {"BB", v.a_bb}, {"BS", v.a_bs}, {"SS", v.a_ss}}},
            {"gamma", v.gamma},
            {"kT", v.kT},
            {"rc", v.rcut},
            {"s", v.s},
            {"bond_k", v.bond_k},
            {"bond_r0", v.bond_r0},
            {"seed", v.seed},
            {"dt", c.run.dt},
            {"skin", c.run.skin},
            {"integrator", to_string(c.run.integrator)},
            {"box", {box[0], box[1], box[2]}}};
  }

  double initial_kT(const BenchCase& c) const override { return params_of<VesicleParams>(c).kT; }

  std::string setup(const BenchCase& c) const override {
    const auto& v = params_of<VesicleParams>(c);
    std::ostringstream os;
    os << "N=" << v.n << " rho=" << exact_number(v.rho) << " c=" << exact_number(v.concentration)
       << " seq=" << v.sequence << " a=" << exact_number(v.a_aa) << ',' << exact_number(v.a_ab) << ','
       << exact_number(v.a_as) << ',' << exact_number(v.a_bb) << ',' << exact_number(v.a_bs) << ','
       << exact_number(v.a_ss) << " gamma=" << exact_number(v.gamma) << " kT=" << exact_number(v.kT)
       << " rc=" << exact_number(v.rcut) << " s=" << exact_number(v.s) << " K=" << exact_number(v.bond_k)
       << " r0=" << exact_number(v.bond_r0) << " init_seed=" << v.seed;
    return os.str() + run_setup(c.run);
  }

  System make_system(const BenchCase& c) const override { return make_dpd_vesicle(params_of<VesicleParams>(c)); }
};

MESO_REGISTER_WORKLOAD(DpdVesicle);

}  // namespace
}  // namespace meso::bench
