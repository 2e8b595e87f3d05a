// dpd-channel: the dpd-fluid benchmark fluid (Tang & Karniadakis, CPC 2014:
// a = 25, gamma = 4.5, kT = 1, s = 0.5, rho = 3, dt = 0.005) at the same N
// between planar slit walls normal to z (docs/walls.md): an L x L x L slit
// in a box r_c taller on each side, the effective wall force and bounce-back,
// driven along x by g. Against dpd-fluid at the same N it is the cost of
// the walls.
#include <cmath>
#include <sstream>

#include "../workload.hpp"
#include "meso/core/dpd_slit.hpp"
#include "meso/core/error.hpp"
#include "meso/core/presets.hpp"

namespace meso::bench {
namespace {

struct ChannelCase {
  DpdSlitParams slit;  // fluid.lx = fluid.ly = height = L
  double g = 0.02;     // body force per mass along x: u_max = rho g L^2 / (8 eta) stays below kT
};

class DpdChannel final : public Workload {
 public:
  DpdChannel() : Workload("dpd-channel", "step") {
    auto s = [](BenchCase& c) -> ChannelCase& { return params_of<ChannelCase>(c); };
    auto f = [](BenchCase& c) -> DpdFluidParams& { return params_of<ChannelCase>(c).slit.fluid; };
    add_param("rho", "1/r_c^3", "number density of the fluid and the walls (3)", ParamRange{0.1, 200.0},
              [f](BenchCase& c, const std::string& v) { f(c).rho = parse_param_double("rho", v); });
    add_param("a", "kT/r_c", "conservative repulsion a_ij, fluid and walls (25)", ParamRange{0.0, 1000.0},
              [f](BenchCase& c, const std::string& v) { f(c).a = parse_param_double("a", v); });
    add_param("gamma", "m/tau", "DPD dissipation gamma_ij, fluid and walls (4.5)", ParamRange{0.0, 1000.0},
              [f](BenchCase& c, const std::string& v) { f(c).gamma = parse_param_double("gamma", v); });
    add_param("kT", "energy", "temperature of the fluid and the walls (1)", ParamRange{0.001, 100.0},
              [f](BenchCase& c, const std::string& v) { f(c).kT = parse_param_double("kT", v); });
    add_param("rc", "length", "cutoff r_c, fluid and walls (1)", ParamRange{0.1, 10.0},
              [f](BenchCase& c, const std::string& v) { f(c).rcut = parse_param_double("rc", v); });
    add_param("s", "", "weight exponent, w_R = (1 - r/r_c)^s (0.5)", ParamRange{0.1, 2.0},
              [f](BenchCase& c, const std::string& v) { f(c).s = parse_param_double("s", v); });
    add_param("N", "particles", "about N particles in an L x L x L slit, L = (N / rho)^(1/3) (sets L)",
              [s](BenchCase& c, const std::string& v) {
                const double n = static_cast<double>(parse_param_uint("N", v));
                require_positive("N", n);
                set_edge(s(c), std::cbrt(n / s(c).slit.fluid.rho));
              });
    add_param("L", "r_c", "slit height and cross-section edge (overrides N)", ParamRange{0.1, 10000.0},
              [s](BenchCase& c, const std::string& v) { set_edge(s(c), parse_param_double("L", v)); });
    add_param("g", "r_c/tau^2", "body force per mass along x (0.02)", ParamRange{-10.0, 10.0},
              [s](BenchCase& c, const std::string& v) { s(c).g = parse_param_double("g", v); });
    add_param("wall_speed", "r_c/tau", "the upper wall's speed along x, the lower's is minus it (0)",
              ParamRange{-10.0, 10.0},
              [s](BenchCase& c, const std::string& v) { s(c).slit.wall_speed = parse_param_double("wall_speed", v); });
    add_param("wall_force", "", "the walls' effective DPD force, 0 or 1 (1; 0: bounce-back alone)",
              [s](BenchCase& c, const std::string& v) { s(c).slit.wall_force = parse_param_flag("wall_force", v); });
    add_param("bounce", "", "bounce-back at the walls, 0 or 1 (1; 0: specular reflection)",
              [s](BenchCase& c, const std::string& v) { s(c).slit.bounce_back = parse_param_flag("bounce", v); });
    add_param("dt", "tau", "time step (0.005)", ParamRange{1e-06, 0.1},
              [](BenchCase& c, const std::string& v) { c.run.dt = parse_param_double("dt", v); });
    add_param("skin", "r_c", "neighbor-list skin (0.3)", ParamRange{0.0, 5.0},
              [](BenchCase& c, const std::string& v) { c.run.skin = parse_param_double("skin", v); });
    add_param("integrator", "", "vv (velocity Verlet) or gw (Groot-Warren) (vv)",
              [](BenchCase& c, const std::string& v) { c.run.integrator = parse_integrator(v); });
    add_param("seed", "", "seed of the initial configuration (12345)",
              [f](BenchCase& c, const std::string& v) { f(c).seed = parse_param_uint("seed", v); });
  }

  std::string summary() const override {
    return "dpd-fluid's fluid between slit walls (wall force, bounce-back), driven along x";
  }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> v;
    for (uint64_t n : {32768ull, 262144ull, 1048576ull}) {
      ChannelCase s;
      s.slit.fluid = presets::tang_dpd_fluid(3.0, n);
      s.slit.fluid.seed = 12345;
      set_edge(s, std::cbrt(static_cast<double>(n) / 3.0));
      BenchCase c = make_case(s, n == 32768ull);
      c.run.dt = 0.005;
      c.run.skin = 0.3;
      c.run.rebuild_every = 0;
      v.push_back(std::move(c));
    }
    return v;
  }

  double particle_count(const BenchCase& c) const override {
    const auto& s = params_of<ChannelCase>(c).slit;
    return std::round(s.fluid.rho * s.fluid.lx * s.fluid.ly * s.height);
  }

  void validate(const BenchCase& c) const override {
    const auto& s = params_of<ChannelCase>(c);
    s.slit.fluid.validate();
    c.run.validate();
    if (c.run.integrator != Integrator::velocity_verlet && c.run.integrator != Integrator::groot_warren)
      throw_input_error("integrator=", to_string(c.run.integrator), " is not provided for dpd-channel (its ",
                        "thermostat is the DPD pair force and the walls'): use vv or gw");
    require_used(c, "wall_speed", s.slit.wall_force || s.slit.bounce_back,
                 "with the wall force or bounce-back (specular walls exert no shear)");
    const double rc = s.slit.fluid.rcut;
    if (s.slit.height < 2.0 * rc)
      throw_input_error("dpd-channel L = ", s.slit.height, " is too small: the slit must be at least 2 r_c = ",
                        2.0 * rc, " high");
    check_list_step(c, s.slit.fluid.kT, s.slit.fluid.mass, rc);
  }

  io::H5mdUnits trajectory_units() const override {
    return io::reduced_units("DPD units: length r_c, energy kT, mass m, time r_c sqrt(m/kT)");
  }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& s = params_of<ChannelCase>(c);
    std::ostringstream os;
    os << "rho=" << format_number(s.slit.fluid.rho) << "/rc=" << format_number(s.slit.fluid.rcut)
       << "/s=" << format_number(s.slit.fluid.s) << "/L=" << format_number(s.slit.height)
       << "/g=" << format_number(s.g);
    if (!s.slit.wall_force) os << "/wall_force=0";
    if (!s.slit.bounce_back) os << "/bounce=0";
    if (s.slit.wall_speed != 0.0) os << "/wall_speed=" << format_number(s.slit.wall_speed);
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& s = params_of<ChannelCase>(c);
    const DpdFluidParams& f = s.slit.fluid;
    return {{"rho", f.rho},          {"a", f.a},
            {"gamma", f.gamma},      {"kT", f.kT},
            {"rc", f.rcut},          {"s", f.s},
            {"mass", f.mass},        {"seed", f.seed},
            {"L", s.slit.height},    {"g", s.g},
            {"wall_speed", s.slit.wall_speed},
            {"wall_force", s.slit.wall_force},
            {"bounce_back", s.slit.bounce_back},
            {"dt", c.run.dt},        {"skin", c.run.skin},
            {"integrator", to_string(c.run.integrator)},
            {"box", {box[0], box[1], box[2]}}};
  }

  std::vector<VariantDefault> variant_defaults() const override {
    return {
        // dpd-fluid's mixed default less fuse=on (the walls' force kernel
        // runs after the pair kernel, so the second half-step cannot be
        // fused into it). Measured against Variant{} and dpd-fluid at the
        // same N in one call (results/walls/h200-2026-11-29); the
        // dpd-slit-poiseuille long form passes with exactly these axes.
        {"", "cuda", Precision::mixed, "precision=mixed,nlist=half,reorder=morton2,sort=100,pow=fast,noise=fp32",
         "H200, N = 262144 / 1M: 5472 / 1481 TPS (3372 / 832 with Variant{}; dpd-fluid 6277 / 1628); "
         "results/walls/h200-2026-11-29; gates: dpd-slit-poiseuille long form (this variant), GPU tests"},
    };
  }

  double initial_kT(const BenchCase& c) const override { return params_of<ChannelCase>(c).slit.fluid.kT; }

  std::string setup(const BenchCase& c) const override {
    const auto& s = params_of<ChannelCase>(c);
    const DpdFluidParams& f = s.slit.fluid;
    std::ostringstream os;
    os << "rho=" << exact_number(f.rho) << " a=" << exact_number(f.a) << " gamma=" << exact_number(f.gamma)
       << " kT=" << exact_number(f.kT) << " rc=" << exact_number(f.rcut) << " s=" << exact_number(f.s)
       << " m=" << exact_number(f.mass) << " L=" << exact_number(s.slit.height) << " g=" << exact_number(s.g)
       << " wall_speed=" << exact_number(s.slit.wall_speed) << " wall_force=" << s.slit.wall_force
       << " bounce=" << s.slit.bounce_back << " init_seed=" << f.seed;
    return os.str() + run_setup(c.run);
  }

  System make_system(const BenchCase& c) const override {
    const auto& s = params_of<ChannelCase>(c);
    System sys = make_dpd_slit(s.slit);
    sys.body_force.g = {s.g, 0.0, 0.0};
    return sys;
  }

 private:
  // The slit builder reads lx, ly and the height; lz = height keeps the
  // fluid parameters whole for their own checks.
  static void set_edge(ChannelCase& s, double l) {
    s.slit.fluid.lx = s.slit.fluid.ly = s.slit.fluid.lz = s.slit.height = l;
    s.slit.fluid.n = 0;
  }
};

MESO_REGISTER_WORKLOAD(DpdChannel);

}  // namespace
}  // namespace meso::bench
