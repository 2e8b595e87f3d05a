// ssd-water: Soft Sticky Dipole water in its reaction-field form (SSD/RF,
// Fennell & Gezelter, J. Chem. Phys. 120, 9175 (2004); Liu & Ichiye 1996),
// the rigid water of the coarse-grained lipid MD paper (Shkurti et al.: SSD
// water integrated as a rigid body with three moments of inertia). OpenMD's
// parameters (meso/physics/ssd_water.hpp): one site per molecule, LJ
// sigma = 3.019 A, eps = 0.152 kcal/mol, dipole 2.48 D with a reaction
// field (eps_rf = 80), the sticky term v0 = 3.90 kcal/mol, switched cutoff
// 7.7-9 A. 0.997 g/cm^3 at 298.15 K, Langevin with 1 ps damping, dt = 2 fs,
// skin 1 A. Units: A, kcal/mol, amu (48.888 fs per time unit). Cases: 64000
// and 1M molecules (the sizes).
#include <sstream>

#include "../tune.hpp"
#include "../workload.hpp"
#include "meso/core/error.hpp"
#include "meso/systems/water.hpp"

namespace meso::bench {
namespace {

// Langevin drags for a damping time (ps): translation m / t, rotation the
// mean moment of inertia over t.
void set_damping(BenchCase& c, const SsdWaterParams& w, double ps) {
  const double t = ps * 1000.0 / water_units::kTimeFs;
  c.run.gamma = w.mass / t;
  c.run.gamma_r = (w.inertia.x + w.inertia.y + w.inertia.z) / 3.0 / t;
}

class SsdWater final : public Workload {
 public:
  SsdWater() : Workload("ssd-water", "step") {
    auto w = [](BenchCase& c) -> SsdWaterParams& { return params_of<SsdWaterParams>(c); };
    add_param("N", "molecules", "molecule count (64000)",
              [w](BenchCase& c, const std::string& v) { w(c).n = parse_param_uint("N", v); });
    add_param("density", "g/cm^3", "mass density (0.997)", ParamRange{0.5, 1.5},
              [w](BenchCase& c, const std::string& v) { w(c).density = parse_param_double("density", v); });
    add_param("T", "K", "initial and thermostat temperature (298.15)", ParamRange{200.0, 500.0},
              [w](BenchCase& c, const std::string& v) {
                w(c).temperature = parse_param_double("T", v);
                c.run.kT = w(c).kT();
              });
    add_param("dt", "fs", "time step (2)", ParamRange{0.01, 5.0}, [](BenchCase& c, const std::string& v) {
      c.run.dt = parse_param_double("dt", v) / water_units::kTimeFs;
    });
    add_param("skin", "A", "neighbor-list skin (1)", ParamRange{0.0, 5.0},
              [](BenchCase& c, const std::string& v) { c.run.skin = parse_param_double("skin", v); });
    add_param("integrator", "", "langevin or nve (langevin; both rotate the molecules)",
              [](BenchCase& c, const std::string& v) { c.run.integrator = parse_integrator(v); });
    add_param("damping", "ps", "Langevin damping time of translation and rotation (1)", ParamRange{0.01, 1000.0},
              [w](BenchCase& c, const std::string& v) { set_damping(c, w(c), parse_param_double("damping", v)); });
    add_param("seed", "", "seed of the orientations, velocities and angular momenta (12345)",
              [w](BenchCase& c, const std::string& v) { w(c).seed = parse_param_uint("seed", v); });
  }

  std::string summary() const override {
    return "SSD/RF rigid water (OpenMD's parameters), 0.997 g/cm^3, 298 K, Langevin, dt = 2 fs";
  }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> out;
    for (const uint64_t n : {64000ull, 1000000ull}) {
      SsdWaterParams w;
      w.n = n;
      w.seed = 12345;
      BenchCase c = make_case(w, false);
      c.run.dt = 2.0 / water_units::kTimeFs;
      c.run.skin = 1.0;
      c.run.integrator = Integrator::langevin;
      c.run.kT = w.kT();
      set_damping(c, w, 1.0);
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
    // On the GPU: 8 lanes a molecule (tpp); in mixed over the tiled
    // builder's lists, 3.6% faster than the ballot lists at N = 64000 and 1M
    // alike (2283 against 2204 and 174.8 against 168.7 TPS; 16 lanes won at
    // 64000 only), in double over the ballot lists, which the tiled ones did
    // not beat at 64000 (1453 against 1491). Each alternated twice in one
    // call (results/orientation/defaults-h200).
    return {
        {"", "cuda", Precision::mixed, "precision=mixed,nlist=tiled,tpp=8",
         "H200, N = 64000 / 1M: 2283 / 174.8 TPS (ballot lists: 2204 / 168.7); gates: ssd-water, "
         "nve-drift-rigid-ssd and rotational-equipartition short forms on the GPU with this variant, GPU tests"},
        {"", "cuda", Precision::double_, "precision=double,tpp=8",
         "H200, N = 64000 / 1M: 1500 / 120.4 TPS (tpp=1: 1343 / 115.3; nlist=tiled at 64000: 1453 against "
         "1491); gates (gb-liquid): the short forms on the GPU with this variant, GPU tests"},
    };
  }

  double particle_bytes() const override { return Workload::particle_bytes() + 4 * 8 + 3 * 3 * 8; }
  double particle_count(const BenchCase& c) const override { return double(params_of<SsdWaterParams>(c).n); }

  void validate(const BenchCase& c) const override {
    const auto& w = params_of<SsdWaterParams>(c);
    w.validate(c.run.skin);
    c.run.validate();
    if (c.run.integrator != Integrator::langevin && c.run.integrator != Integrator::nve)
      throw_input_error("integrator=", to_string(c.run.integrator),
                        " is not provided for ssd-water: orientational particles run with langevin or nve");
    require_used(c, "damping", c.run.integrator == Integrator::langevin, "with integrator=langevin");
    check_list_step(c, w.kT(), w.mass, w.ssd.rcut);
  }

  std::string decomposition_refusal() const override { return "orientational particles run on one rank"; }

  io::H5mdUnits trajectory_units() const override {
    return io::reduced_units("real units: length A, energy kcal/mol, mass amu, time 48.888 fs");
  }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& w = params_of<SsdWaterParams>(c);
    std::ostringstream os;
    os << "density=" << format_number(w.density) << "/T=" << format_number(w.temperature) << "/N=" << w.n;
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& w = params_of<SsdWaterParams>(c);
    const RunParams& run = c.run;
    return {{"pair_style", "ssd"}, {"model", "SSD/RF"}, {"density_g_cm3", w.density},
            {"temperature_K", w.temperature}, {"sigma_A", w.ssd.sigma}, {"epsilon_kcal_mol", w.ssd.epsilon},
            {"dipole_D", w.ssd.mu}, {"v0_kcal_mol", w.ssd.v0}, {"w0", w.ssd.w0}, {"r_sw_A", w.ssd.rsw},
            {"rc_A", w.ssd.rcut}, {"eps_rf", w.ssd.eps_rf}, {"mass_amu", w.mass},
            {"inertia_amu_A2", {w.inertia.x, w.inertia.y, w.inertia.z}}, {"seed", w.seed},
            {"dt_fs", run.dt * water_units::kTimeFs}, {"skin_A", run.skin}, {"integrator", to_string(run.integrator)},
            {"gamma", run.gamma}, {"gamma_r", run.gamma_r}, {"box", {box[0], box[1], box[2]}}};
  }

  double initial_kT(const BenchCase& c) const override { return params_of<SsdWaterParams>(c).kT(); }

  std::string setup(const BenchCase& c) const override {
    const auto& w = params_of<SsdWaterParams>(c);
    std::ostringstream os;
    os << "N=" << w.n << " density=" << exact_number(w.density) << " T=" << exact_number(w.temperature)
       << " model=SSD/RF init_seed=" << w.seed << " gamma_r=" << exact_number(c.run.gamma_r);
    return os.str() + run_setup(c.run);
  }

  System make_system(const BenchCase& c) const override { return make_ssd_water(params_of<SsdWaterParams>(c)); }
};

MESO_REGISTER_WORKLOAD(SsdWater);

}  // namespace
}  // namespace meso::bench
