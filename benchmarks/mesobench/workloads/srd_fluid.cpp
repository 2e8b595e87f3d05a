// srd-fluid: Howard et al.'s SRD benchmark solvent (CPC 2018; docs/reference.md,
// "SRD / MPCD"): a = 1, m = 1, kT = 1, alpha = 130 deg, dt_c = 0.1, rho = 10,
// grid shift; L = 50 (1.25M particles, one GPU of their weak scaling) and
// L = 100. One timed step is one collision period (stream, sort when due,
// collide); sorting every 25 collisions is the variant reorder=cell,sort=25.
// With walls=slit the same N sits between slit walls (docs/walls.md): an
// L x L x L slit in a box one cell taller on each side, bounce-back and
// virtual particles, driven along x by g: the cost of the walls against the
// periodic fluid at the same N. srd-channel is that slit by default, driven
// by g = 0.0005 (u_max = g L^2 / (8 nu) = 0.18 sqrt(kT/m) at L = 50). With
// shear_rate the periodic fluid is sheared by Lees-Edwards images
// (docs/walls.md), started on the shear profile: the cost of the sheared
// faces against the periodic fluid.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "../memory_estimate.hpp"
#include "../workload.hpp"
#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/core/presets.hpp"

namespace meso::bench {
namespace {

// The solvent's box and its collision parameters.
struct SrdCase {
  SrdFluidParams srd;
  MpcdParams solvent;
  bool slit = false;  // walls=slit: solvent.wall.h is set from L when the solvent is made
};

// The periodic solvent (srd-fluid), or the slit by default (srd-channel).
class SrdFluid : public Workload {
 public:
  SrdFluid() : SrdFluid("srd-fluid", false) {}

 protected:
  SrdFluid(const char* name, bool channel) : Workload(name, "collide"), channel_(channel) {
    auto s = [](BenchCase& c) -> SrdCase& { return params_of<SrdCase>(c); };
    add_param("L", "a", "cubic box edge in cells (50)", ParamRange{2.0, 10000.0},
              [s](BenchCase& c, const std::string& v) { s(c).srd.L = parse_param_double("L", v); });
    add_param("N", "particles", "the cubic box of whole cells nearest to N particles at rho (sets L)",
              [s](BenchCase& c, const std::string& v) {
                // N = rho L^3 only approximately; the run reports the N it made.
                const double n = static_cast<double>(parse_param_uint("N", v));
                require_positive("N", n);
                require_positive("rho", s(c).srd.rho);
                s(c).srd.L = std::max(2.0, std::round(std::cbrt(n / s(c).srd.rho)));
              });
    add_param("rho", "1/a^3", "particles per cell (10)", ParamRange{1.0, 1000.0},
              [s](BenchCase& c, const std::string& v) { s(c).srd.rho = parse_param_double("rho", v); });
    add_param("kT", "energy", "temperature: the start, the AT rule, the cell thermostat (1)", ParamRange{0.01, 100.0},
              [s](BenchCase& c, const std::string& v) { s(c).solvent.kT = parse_param_double("kT", v); });
    add_param("angle", "degrees", "SRD rotation angle (130)", ParamRange{1.0, 180.0},
              [s](BenchCase& c, const std::string& v) { s(c).solvent.angle_deg = parse_param_double("angle", v); });
    add_param("dt", "time", "collision period dt_c (0.1)", ParamRange{0.0001, 10.0},
              [s](BenchCase& c, const std::string& v) { s(c).solvent.dt = parse_param_double("dt", v); });
    add_param("rule", "", "collision rule: srd or at (Andersen thermostat) (srd)",
              [s](BenchCase& c, const std::string& v) { s(c).solvent.rule = parse_mpcd_rule(v); });
    add_param("thermostat", "", "Maxwell-Boltzmann cell thermostat of the srd rule, 0 or 1 (0)",
              [s](BenchCase& c, const std::string& v) {
                s(c).solvent.thermostat = parse_param_flag("thermostat", v);
              });
    add_param("shift", "", "random grid shift every collision, 0 or 1 (1)",
              [s](BenchCase& c, const std::string& v) { s(c).solvent.grid_shift = parse_param_flag("shift", v); });
    add_param("walls", "", channel ? "none (periodic) or slit: walls normal to z, L cells apart (slit)"
                                   : "none (periodic) or slit: walls normal to z, L cells apart (none)",
              [s](BenchCase& c, const std::string& v) {
                if (v != "none" && v != "slit")
                  throw_input_error("walls = '", v, "' is unknown: allowed values are none, slit");
                s(c).slit = v == "slit";
              });
    add_param("g", "a/time^2", channel ? "body force per mass along x, with walls=slit (0.0005)"
                                       : "body force per mass along x, with walls=slit (0)",
              ParamRange{-10.0, 10.0},
              [s](BenchCase& c, const std::string& v) {
                s(c).solvent.body_force.g = {parse_param_double("g", v), 0.0, 0.0};
              });
    add_param("virtual", "", "virtual particles in the cells the walls cut, 0 or 1 (1)",
              [s](BenchCase& c, const std::string& v) {
                s(c).solvent.wall.virtual_particles = parse_param_flag("virtual", v);
              });
    add_param("wall_speed", "a/time", "the upper wall's speed along x, the lower's is minus it (0)",
              ParamRange{-10.0, 10.0}, [s](BenchCase& c, const std::string& v) {
                s(c).solvent.wall.speed = parse_param_double("wall_speed", v);
              });
    add_param("shear_rate", "1/time", "Lees-Edwards shear u_x = rate z, from that profile (0: none)",
              ParamRange{-10.0, 10.0}, [s](BenchCase& c, const std::string& v) {
                s(c).solvent.shear.rate = parse_param_double("shear_rate", v);
              });
    add_param("seed", "", "seed of the initial state and of the collisions (12345)",
              [s](BenchCase& c, const std::string& v) {
                s(c).srd.seed = parse_param_uint("seed", v);
                s(c).solvent.seed = static_cast<uint32_t>(s(c).srd.seed);
              });
  }

  std::string summary() const override {
    if (channel_) return "srd-fluid's solvent between slit walls (bounce-back, virtual particles), driven along x";
    return "SRD solvent of Howard et al. (CPC 2018): rho = 10, kT = 1, 130 deg, dt_c = 0.1";
  }

  const char* step_unit() const override { return "collisions"; }
  std::string topology_refusal() const override { return "it is an MPCD solvent without MD particles to bond"; }
  double particle_bytes() const override { return kMpcdParticleBytes; }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> v;
    for (double L : {10.0, 50.0, 100.0}) {
      SrdCase s;
      s.srd.L = L;
      s.srd.rho = 10.0;
      s.srd.seed = 12345;
      s.solvent = presets::howard_srd_solvent(12345);
      if (channel_) {
        if (L > 50.0) continue;
        s.slit = true;
        s.solvent.body_force.g = {0.0005, 0.0, 0.0};
      }
      v.push_back(make_case(s, L == 10.0));
    }
    return v;
  }

  std::vector<VariantDefault> variant_defaults() const override {
    return {
        // On the GPU: mixed precision (fp32 positions and velocities, the
        // fixed-point cell sums exact in either) and the solvent sorted into
        // cell order every 25 collisions. Sorting only permutes storage: the
        // collisions are bitwise the same (MpcdGpu.ReproducibleAndSortNeutral).
        // Gates: the srd-momentum and srd-viscosity long forms in mixed and
        // in double (PASS, H200, results/srd), GPU tests against the reference.
        {"", "cuda", Precision::mixed, "precision=mixed,reorder=cell,sort=25",
         "H200, L = 50: 10814 collisions/s (7704 unsorted, 8482 sort=5, 10039 sort=100; double sort=25 "
         "7874); results/srd; gates: srd-momentum and srd-viscosity long forms in mixed, GPU tests"},
        {"", "cuda", Precision::double_, "precision=double,reorder=cell,sort=25",
         "H200, L = 50: 7874 collisions/s; results/srd; gates: srd-momentum and srd-viscosity long forms in "
         "double, GPU tests"},
    };
  }

  double particle_count(const BenchCase& c) const override {
    const auto& s = params_of<SrdCase>(c).srd;
    return std::round(s.rho * s.L * s.L * s.L);
  }

  std::string size_text(const BenchCase& c) const override {
    const auto& s = params_of<SrdCase>(c).srd;
    std::ostringstream os;
    os << Workload::size_text(c) << " (rho = " << s.rho << ", L = " << s.L << ")";
    return os.str();
  }

  void validate(const BenchCase& c) const override {
    const auto& s = params_of<SrdCase>(c);
    s.solvent.validate();
    require_used(c, "angle", s.solvent.rule == MpcdRule::srd, "with rule=srd (the AT rule draws new velocities)");
    require_used(c, "thermostat", s.solvent.rule == MpcdRule::srd, "with rule=srd");
    require_positive("L", s.srd.L);
    require_positive("rho", s.srd.rho);
    for (const char* key : {"g", "virtual", "wall_speed"}) require_used(c, key, s.slit, "with walls=slit");
    if (s.slit) slit_params(s).validate();
    check_step_length(s.solvent.dt, s.solvent.kT, s.solvent.mass, 0.5 * s.srd.L, "half the box");
  }

  io::H5mdUnits trajectory_units() const override {
    return io::reduced_units("SRD units: length a (the cell edge), energy kT, mass m, time a sqrt(m/kT)");
  }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& s = params_of<SrdCase>(c);
    return "rule=" + std::string(to_string(s.solvent.rule)) + "/rho=" + format_number(s.srd.rho) +
           "/L=" + format_number(s.srd.L) + (s.slit ? "/walls=slit" : "") +
           (s.solvent.shear.active() ? "/shear_rate=" + format_number(s.solvent.shear.rate) : "");
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& s = params_of<SrdCase>(c);
    const MpcdParams& m = s.solvent;
    return {{"solvent", "mpcd"}, {"rule", to_string(m.rule)}, {"L", s.srd.L}, {"rho", s.srd.rho},
            {"a", m.cell_size}, {"mass", m.mass}, {"kT", m.kT}, {"angle_deg", m.angle_deg}, {"dt", m.dt},
            {"grid_shift", m.grid_shift}, {"thermostat", m.thermostat}, {"seed", s.srd.seed},
            {"box", {box[0], box[1], box[2]}}, {"walls", s.slit ? "slit" : "none"},
            {"g", m.body_force.g.x}, {"virtual_particles", m.wall.virtual_particles},
            {"wall_speed", m.wall.speed}, {"shear_rate", m.shear.rate}};
  }

  double initial_kT(const BenchCase& c) const override { return params_of<SrdCase>(c).solvent.kT; }

  std::string setup(const BenchCase& c) const override {
    const auto& s = params_of<SrdCase>(c);
    const MpcdParams& m = s.solvent;
    std::ostringstream os;
    os << "L=" << exact_number(s.srd.L) << " rho=" << exact_number(s.srd.rho) << " a=" << exact_number(m.cell_size)
       << " m=" << exact_number(m.mass) << " kT=" << exact_number(m.kT) << " angle=" << exact_number(m.angle_deg)
       << " dt=" << exact_number(m.dt) << " shift=" << m.grid_shift << " thermostat=" << m.thermostat
       << " rule=" << to_string(m.rule) << " seed=" << m.seed << " init_seed=" << s.srd.seed;
    if (s.slit)
      os << " walls=slit g=" << exact_number(m.body_force.g.x) << " virtual=" << m.wall.virtual_particles
         << " wall_speed=" << exact_number(m.wall.speed);
    if (m.shear.active()) os << " shear_rate=" << exact_number(m.shear.rate);
    return os.str();
  }

  // The solvent alone: a step of its Simulation is one collision period.
  SimulationSetup make_setup(const BenchCase& c) const override {
    const auto& s = params_of<SrdCase>(c);
    if (s.slit) return {std::nullopt, {}, make_srd_slit(slit_geometry(s), slit_params(s))};
    // srd-channel's default g drives the slit only (walls=none: no flow).
    MpcdParams periodic = s.solvent;
    periodic.body_force = {};
    MpcdSystem fluid = make_srd_fluid(s.srd, periodic);
    // Sheared: started on the steady profile u_x = gdot z (docs/walls.md).
    for (std::size_t i = 0; i < fluid.particles.size(); ++i)
      fluid.particles.velocity[i].x += periodic.shear.rate * fluid.particles.position[i].z;
    return {std::nullopt, {}, std::move(fluid)};
  }
  // Each rank places its own solvent particles (place_stratified) and draws
  // their velocities with the momentum and temperature summed over the ranks;
  // the slit is built whole (its particles lie between the walls only).
  SimulationSetup make_setup_by_rank(const BenchCase& c) const override {
    const SrdCase sc = params_of<SrdCase>(c);
    if (sc.slit) return make_setup(c);
    if (sc.solvent.shear.active())
      throw_input_error("srd-fluid with shear_rate = ", sc.solvent.shear.rate,
                        " runs on one rank (Lees-Edwards is not decomposed yet)");
    uint64_t n = 0;
    MpcdParams periodic = sc.solvent;
    periodic.body_force = {};
    SimulationSetup s{std::nullopt, {}, srd_fluid_parameters(sc.srd, periodic, n)};
    s.solvent_count = n;
    s.solvent_owned = [sc, n](const Domain& d, const std::function<double(double)>& sum) {
      ParticleData<double> p = place_stratified(n, 1, sc.srd.seed, d);
      draw_maxwell_boltzmann(p, {sc.solvent.mass}, sc.solvent.kT, sc.srd.seed, n, sum);
      return p;
    };
    return s;
  }
  double time_step(const BenchCase& c) const override { return params_of<SrdCase>(c).solvent.dt; }
  Box box(const BenchCase& c) const override {
    const auto& s = params_of<SrdCase>(c);
    const double l = s.srd.L * s.solvent.cell_size;
    return Box(l, l, s.slit ? l + 2.0 * s.solvent.cell_size : l);
  }

 private:
  bool channel_;

  // walls=slit: an L x L x L slit (make_srd_slit adds a cell above and below).
  static SrdSlitParams slit_geometry(const SrdCase& s) {
    SrdSlitParams f;
    f.lx = f.ly = f.height = s.srd.L;
    f.rho = s.srd.rho;
    f.seed = s.srd.seed;
    return f;
  }
  // The solvent's parameters with the walls the slit will have, for the
  // checks before a run.
  static MpcdParams slit_params(const SrdCase& s) {
    MpcdParams m = s.solvent;
    m.wall.h = 0.5 * s.srd.L * m.cell_size;
    m.wall.density = s.srd.rho;
    return m;
  }
};

class SrdChannel final : public SrdFluid {
 public:
  SrdChannel() : SrdFluid("srd-channel", true) {}
};

MESO_REGISTER_WORKLOAD(SrdFluid);
MESO_REGISTER_WORKLOAD(SrdChannel);

}  // namespace
}  // namespace meso::bench
