// mdscf-dppc: the DPPC bilayer in water of the hybrid particle-field MD-SCF
// model (GALAMOST; docs/reference.md, "DPPC / water hybrid particle-field
// model"; meso/systems/dppc.hpp has the units): 528 DPPC + 14000 W in 13 x 13 x 14 nm
// at 323 K, Langevin thermostat; dt = 0.03 ps (GALAMOST's), a drag of 1/ps.
// `replicate` k tiles the bilayer plane k x k: k = 7 is the ~1M-bead system
// (996,464 beads; GALAMOST measured 1,048,576).
#include <algorithm>
#include <sstream>

#include "../workload.hpp"
#include "meso/systems/dppc.hpp"
#include "meso/core/error.hpp"
#include "meso/core/mdscf_field.hpp"

namespace meso::bench {
namespace {

struct DppcCase {
  DppcBilayerParams dppc;
  uint32_t replicate = 1;

  // The bilayer with the replication applied.
  DppcBilayerParams tiled() const {
    DppcBilayerParams p = dppc;
    p.lipids *= replicate * replicate;
    p.waters *= uint64_t(replicate) * replicate;
    p.lx *= replicate;
    p.ly *= replicate;
    return p;
  }
};

class MdscfDppc final : public Workload {
 public:
  MdscfDppc() : Workload("mdscf-dppc", "step") {
    auto d = [](BenchCase& c) -> DppcBilayerParams& { return params_of<DppcCase>(c).dppc; };
    add_param("lipids", "", "DPPC molecules of the tile (528)", [d](BenchCase& c, const std::string& v) {
      d(c).lipids = static_cast<uint32_t>(parse_param_uint("lipids", v));
    });
    add_param("waters", "", "water beads of the tile (14000)",
              [d](BenchCase& c, const std::string& v) { d(c).waters = parse_param_uint("waters", v); });
    add_param("replicate", "", "k: the tile repeated k x k in the bilayer plane (1; 7 is ~1M beads)",
              [](BenchCase& c, const std::string& v) {
                params_of<DppcCase>(c).replicate = static_cast<uint32_t>(parse_param_uint("replicate", v));
              });
    add_param("lx", "nm", "tile edge along x (13)", ParamRange{2.0, 1000.0},
              [d](BenchCase& c, const std::string& v) { d(c).lx = parse_param_double("lx", v); });
    add_param("ly", "nm", "tile edge along y (13)", ParamRange{2.0, 1000.0},
              [d](BenchCase& c, const std::string& v) { d(c).ly = parse_param_double("ly", v); });
    add_param("lz", "nm", "box edge along the normal z (14)", ParamRange{4.0, 1000.0},
              [d](BenchCase& c, const std::string& v) { d(c).lz = parse_param_double("lz", v); });
    add_param("kelvin", "K", "temperature of the start and of the thermostat (323)", ParamRange{200.0, 500.0},
              [d](BenchCase& c, const std::string& v) {
                d(c).kelvin = parse_param_double("kelvin", v);
                c.run.kT = DppcUnits::kT(d(c).kelvin);
              });
    add_param("grid", "nm", "target spacing of the density grid (0.65)", ParamRange{0.1, 5.0},
              [d](BenchCase& c, const std::string& v) { d(c).grid_spacing = parse_param_double("grid", v); });
    add_param("sigma", "nm", "width of the Gaussian filter of the densities; 0: none (0.5)", ParamRange{0.0, 5.0},
              [d](BenchCase& c, const std::string& v) { d(c).filter_sigma = parse_param_double("sigma", v); });
    add_param("update", "steps", "steps between updates of the field (10)", [d](BenchCase& c, const std::string& v) {
      d(c).update_every = static_cast<uint32_t>(parse_param_uint("update", v));
    });
    add_param("kappa", "mol/kJ", "compressibility of the field (0.05)", ParamRange{0.0001, 10.0},
              [d](BenchCase& c, const std::string& v) { d(c).kappa = parse_param_double("kappa", v); });
    add_param("rho0", "1/nm^3", "reference bead density (8.86)", ParamRange{1.0, 100.0},
              [d](BenchCase& c, const std::string& v) { d(c).rho0 = parse_param_double("rho0", v); });
    add_param("dt", "ps", "time step (0.03)", ParamRange{0.0001, 1.0},
              [](BenchCase& c, const std::string& v) { c.run.dt = DppcUnits::from_ps(parse_param_double("dt", v)); });
    add_param("gamma", "1/ps", "Langevin drag rate of the thermostat (1)", ParamRange{0.0, 1000.0}, [](BenchCase& c, const std::string& v) {
      c.run.gamma = parse_param_double("gamma", v) * DppcUnits::time_ps();
    });
    add_param("seed", "", "seed of the initial configuration (12345)",
              [d](BenchCase& c, const std::string& v) { d(c).seed = parse_param_uint("seed", v); });
    add_param("shift", "", "random shift of the density grid at every update, 0 or 1 (1)",
              [d](BenchCase& c, const std::string& v) { d(c).grid_shift = parse_param_flag("shift", v); });
  }

  std::string summary() const override {
    return "DPPC bilayer in water, MD-SCF particle-field model (GALAMOST): 528 DPPC + 14000 W";
  }

  std::vector<BenchCase> cases() const override { return {bilayer(1, true), bilayer(7, false)}; }

  std::vector<VariantDefault> variant_defaults() const override {
    return {
        // On the GPU (bonded forces and the MD-SCF field, no lists): mixed
        // precision and the atomic scatter of the density, faster than
        // GALAMOST's per-vertex gather at both sizes (fp64 atomics are
        // native on sm_90; the gather's cell sort costs more than the
        // atomics save). Gate: the dppc-density long form with this variant
        // (H100, results/dppc), GPU tests against the reference for both
        // density variants and every precision.
        {"", "cuda", Precision::mixed, "precision=mixed,density=scatter",
         "H100: 20k beads 24001 TPS (gather 19944), 996k beads 3449 TPS (gather 3290); results/dppc; "
         "gates: dppc-density long form (this variant), GPU tests; its short form on a GPU fails its "
         "profiles' chi^2 in every variant tried (results/validation/gates-h200-2026-11-29e)"},
        {"", "cuda", Precision::double_, "precision=double,density=scatter",
         "H100: 20k beads 23393 TPS (gather 19549), 996k beads 2825 TPS (gather 2703); results/dppc; "
         "gates: dppc-density long form in mixed, GPU tests (double against the reference)"},
    };
  }

  double particle_count(const BenchCase& c) const override {
    const DppcBilayerParams p = params_of<DppcCase>(c).tiled();
    return static_cast<double>(uint64_t(p.lipids) * 12 + p.waters);
  }

  void validate(const BenchCase& c) const override {
    const auto& d = params_of<DppcCase>(c);
    if (d.replicate == 0) throw_input_error("--param replicate=0 is invalid: it must be >= 1");
    d.tiled().validate();
    c.run.validate();
    // No list to outrun; a step that moves a bead more than a tenth of the
    // grid spacing (or of a bond) resolves neither the field nor the bonds.
    check_step_length(c.run.dt, DppcUnits::kT(d.dppc.kelvin), 1.0, 0.1 * std::min(d.dppc.grid_spacing, 0.37),
                      "a tenth of the grid spacing or of the shortest bond");
  }

  std::string name_parameters(const BenchCase& c) const override {
    const DppcBilayerParams p = params_of<DppcCase>(c).tiled();
    uint32_t nx = 0, ny = 0, nz = 0;
    MdscfField::grid_for(Box(p.lx, p.ly, p.lz), p.grid_spacing, nx, ny, nz);
    std::ostringstream os;
    os << "lipids=" << p.lipids << "/W=" << p.waters << "/grid=" << nx << 'x' << ny << 'x' << nz
       << "/update=" << p.update_every;
    if (!p.grid_shift) os << "/shift=0";
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& dc = params_of<DppcCase>(c);
    const DppcBilayerParams d = dc.tiled();
    const RunParams& run = c.run;
    uint32_t gx = 0, gy = 0, gz = 0;
    MdscfField::grid_for(Box(d.lx, d.ly, d.lz), d.grid_spacing, gx, gy, gz);
    const double rho = particle_count(c) / (d.lx * d.ly * d.lz);  // mean bead density (nm^-3)
    return {{"pair_style", "none"}, {"model", "DPPC/water MD-SCF (docs/reference.md)"}, {"rho", rho},
            {"units", DppcUnits::describe()}, {"lipids", d.lipids}, {"waters", d.waters},
            {"replicate", dc.replicate}, {"kelvin", d.kelvin}, {"kT", DppcUnits::kT(d.kelvin)},
            {"grid", {gx, gy, gz}}, {"grid_spacing_target_nm", d.grid_spacing},
            {"filter_sigma_nm", d.filter_sigma}, {"update_every", d.update_every}, {"grid_shift", d.grid_shift},
            {"kappa_mol_per_kj", d.kappa}, {"rho0_per_nm3", d.rho0}, {"seed", d.seed}, {"dt", run.dt},
            {"dt_ps", run.dt * DppcUnits::time_ps()}, {"integrator", to_string(run.integrator)},
            {"langevin_gamma", run.gamma}, {"box", {box[0], box[1], box[2]}}};
  }

  double initial_kT(const BenchCase& c) const override { return DppcUnits::kT(params_of<DppcCase>(c).dppc.kelvin); }

  std::string setup(const BenchCase& c) const override {
    const DppcBilayerParams d = params_of<DppcCase>(c).tiled();
    std::ostringstream os;
    os << "dppc lipids=" << d.lipids << " waters=" << d.waters << " L=" << exact_number(d.lx) << 'x'
       << exact_number(d.ly) << 'x' << exact_number(d.lz) << " K=" << exact_number(d.kelvin)
       << " grid=" << exact_number(d.grid_spacing) << " sigma=" << exact_number(d.filter_sigma)
       << " update=" << d.update_every << " kappa=" << exact_number(d.kappa) << " rho0=" << exact_number(d.rho0)
       << " shift=" << d.grid_shift << " init_seed=" << d.seed;
    return os.str() + run_setup(c.run);
  }

  System make_system(const BenchCase& c) const override { return make_dppc_bilayer(params_of<DppcCase>(c).tiled()); }

  // The MD-SCF field of the last update is not in the checkpoint: a
  // continued run would recompute it at its first step, not at the last
  // update, and would not be the uninterrupted run.
  std::string restart_refusal() const override {
    return "checkpoints do not hold the MD-SCF field grid yet, so the continued run would not be the "
           "uninterrupted one; run it in one piece (--checkpoint still saves the state)";
  }
  std::string decomposition_refusal() const override {
    return "bonded forces and the MD-SCF field run on one rank";
  }
  std::string topology_refusal() const override {
    return "it builds the bonds and angles of its DPPC lipids itself";
  }
  io::H5mdUnits trajectory_units() const override { return DppcUnits::trajectory_units(); }

 private:
  BenchCase bilayer(uint32_t replicate, bool in_default) const {
    DppcCase d;
    d.replicate = replicate;
    d.dppc.seed = 12345;
    BenchCase c = make_case(d, in_default);
    c.run.integrator = Integrator::langevin;
    c.run.dt = DppcUnits::from_ps(0.03);
    c.run.gamma = 1.0 * DppcUnits::time_ps();  // 1/ps in engine units (mass 1)
    c.run.kT = DppcUnits::kT(d.dppc.kelvin);
    c.run.skin = 0.0;  // no lists
    return c;
  }
};

MESO_REGISTER_WORKLOAD(MdscfDppc);

}  // namespace
}  // namespace meso::bench
