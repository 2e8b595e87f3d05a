// table-melt: GALAMOST's numerical potentials at work (Zhu et al., J.
// Comput. Chem. 34, 2197 (2013): a coarse-grained melt of 50-monomer chains
// whose pair, bond and angle potentials are all tables, the double over
// single precision speed ratio 0.34-0.38). Our melt is the bead-spring melt
// of the IBI loop (meso/tables/ibi_melt.hpp) with chains of 50 beads: rho = 3, the
// soft repulsion a = 25 kT (r_c = 1) on the r^2 grid, harmonic bonds (k =
// 100, r0 = 0.7) and angles (k = 5, 120 degrees) on their grids, 1000 points
// each (meso/systems/melt_tables.hpp); Langevin (gamma = 1, kT = 1), dt = 0.005,
// skin 0.3. `--param pair_table=P --param bond_table=B --param
// angle_table=A` run the tables `mesobench ibi` wrote instead.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <vector>

#include "../tune.hpp"
#include "../workload.hpp"
#include "meso/core/error.hpp"
#include "meso/io/checkpoint_file.hpp"
#include "meso/systems/melt_tables.hpp"

namespace meso::bench {
namespace {

// FNV-1a 64 of a file's bytes, in hex, so that a checkpoint knows the tables
// it ran with: the setup names the files, and a file edited between a run
// and its --restart would otherwise continue with other forces unnoticed.
std::string file_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "unreadable";
  uint64_t h = io::fnv1a64(nullptr, 0);
  std::vector<char> buf(1 << 16);
  while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0)
    h = io::fnv1a64(buf.data(), static_cast<std::size_t>(in.gcount()), h);
  std::ostringstream os;
  os << std::hex << std::setw(16) << std::setfill('0') << h;
  return os.str();
}

class TableMelt final : public Workload {
 public:
  TableMelt() : Workload("table-melt", "step") {
    auto g = [](BenchCase& c) -> TableMeltParams& { return params_of<TableMeltParams>(c); };
    add_param("N", "beads", "beads in all: N / length chains (10000, 100000, 1000000)",
              [g](BenchCase& c, const std::string& v) {
                const uint64_t n = parse_param_uint("N", v), m = g(c).melt.chain_length;
                if (n == 0 || n % m != 0 || n / m > 0xffffffffull)
                  throw_input_error("--param N=", v, " is invalid: a positive multiple of the chain length ", m);
                g(c).melt.chains = static_cast<uint32_t>(n / m);
              });
    add_param("length", "beads", "beads a chain (50); set it before N", ParamRange{3.0, 1e6},
              [g](BenchCase& c, const std::string& v) {
                const uint64_t n = g(c).melt.beads();
                const auto m = static_cast<uint32_t>(parse_param_uint("length", v));
                g(c).melt.chain_length = m;
                g(c).melt.chains = static_cast<uint32_t>(std::max<uint64_t>(1, n / m));
              });
    add_param("rho", "1/r_c^3", "bead density (3)", ParamRange{0.01, 10.0},
              [g](BenchCase& c, const std::string& v) { g(c).melt.rho = parse_param_double("rho", v); });
    add_param("a", "kT", "soft repulsion of the analytic pair table (25)", ParamRange{0.0, 1000.0},
              [g](BenchCase& c, const std::string& v) { g(c).melt.a = parse_param_double("a", v); });
    add_param("points", "", "grid points of each analytic table (1000)", ParamRange{2.0, 1e7},
              [g](BenchCase& c, const std::string& v) { g(c).points = parse_param_uint("points", v); });
    add_param("pair_table", "", "pair table file (r^2 grid; with bond_table and angle_table)",
              [g](BenchCase& c, const std::string& v) { g(c).files.pair = v; });
    add_param("bond_table", "", "bond table file (LAMMPS bond_style table)",
              [g](BenchCase& c, const std::string& v) { g(c).files.bond = v; });
    add_param("angle_table", "", "angle table file (LAMMPS angle_style table)",
              [g](BenchCase& c, const std::string& v) { g(c).files.angle = v; });
    add_param("keyword", "", "the three files' table keyword (IBI, what mesobench ibi writes)",
              [g](BenchCase& c, const std::string& v) { g(c).files.keyword = v; });
    add_param("dt", "tau", "time step (0.005)", ParamRange{1e-06, 0.05},
              [](BenchCase& c, const std::string& v) { c.run.dt = parse_param_double("dt", v); });
    add_param("skin", "r_c", "neighbor-list skin (0.3)", ParamRange{0.0, 5.0},
              [](BenchCase& c, const std::string& v) { c.run.skin = parse_param_double("skin", v); });
    add_param("gamma", "m/tau", "Langevin drag (1)", ParamRange{0.01, 1000.0},
              [](BenchCase& c, const std::string& v) { c.run.gamma = parse_param_double("gamma", v); });
    add_param("seed", "", "seed of the chains' random walks and the velocities (1)",
              [g](BenchCase& c, const std::string& v) { g(c).melt.seed = parse_param_uint("seed", v); });
  }

  std::string summary() const override {
    return "melt of 50-bead chains, pair, bond and angle potentials all tabulated (GALAMOST)";
  }

  // The autotuner's settings on the GPU: the list kinds the table-melt gate
  // passed with in each precision (the default's and Variant{}'s ballot
  // lists, which win in double at N = 10^4), then the sort period, which
  // changes no pair the forces see. The default is timed first.
  std::vector<TuneSpace> tune_spaces() const override {
    const TuneSetting sort{"sort", {"50", "100", "200"}};
    return {{"cuda", Precision::mixed, {{"nlist", {"tiled", "ballot"}}, sort},
             "nlist=tiled and ballot: the table-melt gate's long form with each"},
            {"cuda", Precision::double_, {{"nlist", {"atomic", "ballot"}}, sort},
             "nlist=atomic and ballot: the table-melt gate's long form with each"}};
  }

  std::vector<VariantDefault> variant_defaults() const override {
    // On the GPU: Morton order with the tiled builder in fp32 storage and the
    // atomic one in fp64 (the fp64 tile leaves few blocks per SM, as for
    // lj-liquid). Measured against Variant{} (ballot, no reordering) in one
    // run, with the table-melt gate's long form on each: docs/tables.md.
    return {
        {"", "cuda", Precision::mixed, "precision=mixed,nlist=tiled,reorder=morton2,sort=100",
         "H200, N = 10^4-10^6 against nlist=ballot and atomic (results/tables/table-melt-defaults-h200); gate: "
         "table-melt long form with this variant"},
        {"", "cuda", Precision::single, "precision=single,nlist=tiled,reorder=morton2,sort=100",
         "H200, N = 10^4-10^6 against nlist=ballot and atomic (results/tables/table-melt-defaults-h200); "
         "mixed's axes (fp32 storage and lists alike)"},
        {"", "cuda", Precision::double_, "precision=double,nlist=atomic,reorder=morton2,sort=100",
         "H200, N = 10^4-10^6 against nlist=ballot and tiled (results/tables/table-melt-defaults-h200); gate: "
         "table-melt long form with this variant"},
    };
  }

  std::vector<BenchCase> cases() const override {
    std::vector<BenchCase> out;
    for (const uint32_t chains : {200u, 2000u, 20000u}) {
      TableMeltParams p;
      p.melt.chain_length = 50;
      p.melt.chains = chains;
      BenchCase c = make_case(p, false);
      c.run.dt = 0.005;
      c.run.skin = 0.3;
      c.run.integrator = Integrator::langevin;
      c.run.kT = p.melt.kT;
      c.run.gamma = 1.0;
      out.push_back(c);
    }
    return out;
  }

  double particle_count(const BenchCase& c) const override {
    return static_cast<double>(params_of<TableMeltParams>(c).melt.beads());
  }

  void validate(const BenchCase& c) const override {
    const auto& p = params_of<TableMeltParams>(c);
    p.validate();
    c.run.validate();
    if (c.run.integrator != Integrator::langevin)
      throw_input_error("integrator=", to_string(c.run.integrator),
                        " is not provided for table-melt: its thermostat is Langevin (the IBI loop's)");
    require_used(c, "a", p.files.empty(), "without table files (it sets the analytic pair table)");
    require_used(c, "points", p.files.empty(), "without table files (a file keeps its own points)");
    require_used(c, "keyword", !p.files.empty(), "with table files");
    check_list_step(c, p.melt.kT, 1.0, p.melt.rcut);
  }

  std::string topology_refusal() const override { return "table-melt builds its own chains' bonds and angles"; }
  std::vector<std::pair<std::string, std::string>> input_files(const BenchCase& c) const override {
    const auto& f = params_of<TableMeltParams>(c).files;
    return {{"--param pair_table", f.pair}, {"--param bond_table", f.bond}, {"--param angle_table", f.angle}};
  }
  std::string decomposition_refusal() const override {
    return "tabulated bonds and angles run on one rank";
  }

  io::H5mdUnits trajectory_units() const override {
    return io::reduced_units("DPD units: length r_c, energy kT, mass m, time r_c sqrt(m/kT)");
  }

  std::string name_parameters(const BenchCase& c) const override {
    const auto& p = params_of<TableMeltParams>(c);
    std::ostringstream os;
    os << "rho=" << format_number(p.melt.rho) << "/M=" << p.melt.chain_length << "/N=" << p.melt.beads();
    return os.str();
  }

  nlohmann::json parameters_json(const BenchCase& c, const double box[3]) const override {
    const auto& p = params_of<TableMeltParams>(c);
    const BeadSpringMeltParams& m = p.melt;
    nlohmann::json tables = p.files.empty()
                                ? nlohmann::json{{"source", "analytic"}, {"points", p.points}, {"a", m.a}}
                                : nlohmann::json{{"source", "files"},      {"pair", p.files.pair},
                                                 {"bond", p.files.bond},   {"angle", p.files.angle},
                                                 {"keyword", p.files.keyword}};
    return {{"pair_style", "table"},   {"chains", m.chains},         {"chain_length", m.chain_length},
            {"rho", m.rho},            {"kT", m.kT},                 {"rc", m.rcut},
            {"bond_k", m.bond_k},      {"bond_r0", m.bond_r0},       {"angle_k", m.angle_k},
            {"angle_theta0", m.angle_theta0}, {"tables", tables},   {"seed", m.seed},
            {"dt", c.run.dt},          {"skin", c.run.skin},         {"integrator", to_string(c.run.integrator)},
            {"gamma", c.run.gamma},    {"box", {box[0], box[1], box[2]}}};
  }

  double initial_kT(const BenchCase& c) const override { return params_of<TableMeltParams>(c).melt.kT; }

  std::string setup(const BenchCase& c) const override {
    const auto& p = params_of<TableMeltParams>(c);
    const BeadSpringMeltParams& m = p.melt;
    std::ostringstream os;
    os << "chains=" << m.chains << " M=" << m.chain_length << " rho=" << exact_number(m.rho)
       << " kT=" << exact_number(m.kT) << " rc=" << exact_number(m.rcut) << " bond=" << exact_number(m.bond_k)
       << ',' << exact_number(m.bond_r0) << " angle=" << exact_number(m.angle_k) << ','
       << exact_number(m.angle_theta0) << " init_seed=" << m.seed;
    if (p.files.empty())
      os << " tables=analytic a=" << exact_number(m.a) << " points=" << p.points;
    else
      os << " tables=" << p.files.pair << ',' << p.files.bond << ',' << p.files.angle << ':' << p.files.keyword
         << " fnv1a64=" << file_digest(p.files.pair) << ',' << file_digest(p.files.bond) << ','
         << file_digest(p.files.angle);
    return os.str() + run_setup(c.run);
  }

  System make_system(const BenchCase& c) const override { return make_table_melt(params_of<TableMeltParams>(c)); }
};

MESO_REGISTER_WORKLOAD(TableMelt);

}  // namespace
}  // namespace meso::bench
