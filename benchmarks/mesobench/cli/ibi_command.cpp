// `mesobench ibi`: iterative Boltzmann inversion of one pair potential from a
// target g(r) (meso/tables/ibi.hpp, docs/tables.md), or with bond and angle targets
// of a bead-spring melt's pair, bond and angle potentials together
// (ibi_melt_mode.cpp). A one-type fluid of --n
// particles at --rho runs Langevin dynamics at --kT with the tabulated
// potential, on any backend; each iteration samples g(r), prints its
// integrated difference from the target and corrects the potential. The last
// potential is written as a table file (read back before the command ends),
// every iteration's g(r) and V(r) to --json (kind "ibi"; scripts/plot_ibi.py
// draws them).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <vector>

#include "../backends.hpp"
#include "../output_paths.hpp"
#include "../progress_line.hpp"
#include "../report.hpp"
#include "../workload.hpp"
#include "command.hpp"
#include "ibi_options.hpp"
#include "meso/core/error.hpp"
#include "meso/tables/ibi.hpp"
#include "meso/core/init.hpp"
#include "meso/io/durable_file.hpp"
#include "meso/run/provenance.hpp"
#include "meso/analysis/rdf.hpp"
#include "meso/run/simulation.hpp"
#include "options.hpp"

namespace meso::bench {
namespace {

class IbiCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* c = app.add_subcommand("ibi", "Iterative Boltzmann inversion of a pair potential from a target g(r)");
    target_opt_ = c->add_option("--target", o_.target, "The target g(r): lines 'r g', bins from r = 0 (docs/tables.md)")
                      ->check(CLI::ExistingFile);
    output_opt_ =
        c->add_option("-o,--output", o_.output, "The final potential as a table file (LAMMPS's pair_style table)")
            ->check(kFileName);
    c->add_option("--melt-targets", o_.melt_targets,
                  "Sample the analytic melt's targets into PREFIX.{g,bond,angle}.txt")
        ->check(kFileName)
        ->excludes(target_opt_)
        ->excludes(output_opt_);
    c->add_option("--rho", o_.rho, "Number density of the fluid")->required()->check(kFinite)->check(
        CLI::Range(1e-6, 100.0));
    c->add_option("--kT", o_.kT, "Temperature (default 1)")->check(kFinite)->check(CLI::Range(1e-6, 1e6));
    n_opt_ = c->add_option("--n", o_.n, "Particles of the fluid (default 2000)")->check(count_in(10, uint64_t{1} << 22));
    c->add_option("--bond-target", o_.bond_target, "A melt's bond lengths: lines 'r P' (docs/tables.md)")
        ->check(CLI::ExistingFile);
    c->add_option("--angle-target", o_.angle_target, "A melt's angles: lines 'theta_degrees P'")
        ->check(CLI::ExistingFile);
    melt_only_ = {
        c->add_option("--bond-output", o_.bond_output, "The melt's bond table (LAMMPS's bond_style table)")
            ->check(kFileName),
        c->add_option("--angle-output", o_.angle_output, "The melt's angle table (LAMMPS's angle_style table)")
            ->check(kFileName),
        c->add_option("--chains", o_.chains, "Chains of the melt (default 100)")->check(count_in(1, 1u << 22)),
        c->add_option("--chain-length", o_.chain_length, "Beads a chain of the melt (default 10)")
            ->check(count_in(3, 1u << 20))};
    c->add_option("--iterations", o_.iterations, "IBI corrections (default 5; one more run measures the last)")
        ->check(count_in(0, 1000));
    alpha_opt_ = c->add_option("--alpha", o_.alpha,
                               "Fraction of kT ln(g / g_target) a step (default 1; a melt: 0.5)")
        ->check(kFinite)
        ->check(CLI::Range(1e-3, 1.0));
    c->add_option("--equilibrate", o_.equilibrate, "Steps before sampling, each iteration (default 2000)")
        ->check(count_in(0, 1000000000));
    c->add_option("--samples", o_.samples, "Configurations averaged into g(r) (default 200)")
        ->check(count_in(1, 1000000));
    c->add_option("--every", o_.every, "Steps between samples (default 20)")->check(count_in(1, 1000000));
    c->add_option("--dt", o_.dt, "Time step (default 0.005)")->check(kFinite)->check(CLI::Range(1e-6, 1.0));
    c->add_option("--gamma", o_.gamma, "Langevin friction (default 1)")->check(kFinite)->check(CLI::Range(1e-6, 1e6));
    c->add_option("--seed", o_.seed, "Seed of positions, velocities and noise (default 1)")
        ->check(count_in(0, UINT32_MAX));
    c->add_option("--keyword", o_.keyword, "The table's keyword (default IBI)");
    c->add_option("--points", o_.points, "Table points on the r^2 grid in the runs (default 1000)")
        ->check(count_in(4, 10000000));
    c->add_option("--json", o_.json, "Every iteration's g(r), V(r) and difference, with provenance")
        ->check(kFileName);
    add_backend_variant_options(c);
    add_progress_options(c, progress_);
    return c;
  }

  int run(const CommandContext& ctx) override {
    o_.n_given = n_opt_->count() > 0;
    o_.alpha_given = alpha_opt_->count() > 0;
    check_ibi_run(o_, !o_.melt_targets.empty() || !o_.bond_target.empty() || !o_.angle_target.empty());
    if (!o_.melt_targets.empty()) return write_melt_targets(o_, progress_, ctx);
    if (o_.target.empty() || o_.output.empty()) throw_input_error("ibi needs --target and -o (or --melt-targets)");
    if (!o_.bond_target.empty() || !o_.angle_target.empty()) return run_ibi_melt(o_, progress_, ctx);
    for (const CLI::Option* opt : melt_only_)
      if (opt->count() > 0)
        throw_input_error(opt->get_name(), " is the melt's: give --bond-target and --angle-target too");
    PathPlan plan;
    plan.read("--target", o_.target);
    plan.write("--output", o_.output);
    plan.write("--json", o_.json);
    plan.check();
    if (o_.keyword.empty() || o_.keyword.find_first_of(" \t#") != std::string::npos)
      throw_input_error("--keyword '", o_.keyword, "' must be one word without '#'");
    const Rdf target = read_rdf_file(o_.target);
    const double r_max = target.r.back() + 0.5 * target.bin_width;
    LjLiquidParams lp;
    lp.n = o_.n;
    lp.rho = o_.rho;
    lp.kT = o_.kT;
    lp.rcut = r_max;
    lp.seed = o_.seed;
    System sys = make_lj_liquid(lp);  // positions and velocities; the pair style is replaced
    if (r_max > 0.5 * sys.box.min_length())
      throw_input_error("--n ", o_.n, " at --rho ", o_.rho, " makes a box of ", sys.box.min_length(),
                        ", less than twice the target's r_max ", r_max, ": use --n of at least ",
                        static_cast<uint64_t>(std::ceil(o_.rho * std::pow(2.0 * r_max, 3))));
    sys.emplace_pair_style<TabulatedPairs>(std::vector<PairPotentialTable>{}, PairTable<int32_t>(1, 0));
    const RunParams rp = ibi_langevin(o_);
    const std::string backend = ctx.registry.resolve(o_.backend);
    const Variant variant = Variant::parse(o_.variant);
    const Provenance prov = collect_provenance();
    print_provenance_header(prov, backend);
    const ProgressScope progress(progress_.quiet, progress_.progress_interval);
    BinnedPotential v = potential_of_mean_force(target, o_.kT);
    nlohmann::json iterations = nlohmann::json::array();
    std::cout << "iteration  integrated |g - g_target| / g_target\n";
    for (int it = 0; it <= o_.iterations; ++it) {
      sys.pair.as<TabulatedPairs>().tables = {pair_table_from_ibi(o_.keyword, v, o_.points)};
      Simulation sim(ctx.registry.create(backend, variant), sys, rp);
      sim.run(o_.equilibrate);
      Rdf g;
      for (uint64_t k = 0; k < o_.samples; ++k) {
        sim.run(o_.every);
        const Rdf one = compute_rdf(sys.box, sim.particles(), r_max, static_cast<int>(target.r.size()));
        if (g.r.empty()) g = one, std::fill(g.g.begin(), g.g.end(), 0.0);
        for (std::size_t b = 0; b < g.g.size(); ++b) g.g[b] += one.g[b] / static_cast<double>(o_.samples);
      }
      const double d = rdf_difference(g, target);
      std::printf("%9d  %.5f\n", it, d);
      std::fflush(stdout);
      iterations.push_back({{"iteration", it}, {"difference", d}, {"g", g.g}, {"v", v.v}});
      if (it < o_.iterations) ibi_update(v, g, target, o_.kT, o_.alpha);
    }
    // The table of the last potential (the one the last run measured), read
    // back as any run would read it before anything is written: a table the
    // reader refuses is never left behind.
    std::ostringstream table;
    table << "# mesobench ibi: " << o_.iterations << " iterations from " << o_.target << " (rho " << o_.rho
          << ", kT " << o_.kT << "); last |g - g_target| / g_target = "
          << iterations.back()["difference"].get<double>() << "\n";
    write_ibi_table(table, o_.keyword, v, o_.points);
    std::istringstream written(table.str());
    read_pair_tables(written, o_.output);
    nlohmann::json doc;
    if (!o_.json.empty()) {
      doc = result_document("ibi", prov);
      doc["target"] = o_.target;
      doc["table"] = o_.output;
      doc["backend"] = backend;
      doc["variant"] = variant.to_string();
      doc["parameters"] = {{"rho", o_.rho}, {"kT", o_.kT}, {"N", o_.n}, {"alpha", o_.alpha},
                           {"equilibrate", o_.equilibrate}, {"samples", o_.samples}, {"every", o_.every},
                           {"dt", o_.dt}, {"gamma", o_.gamma}, {"seed", o_.seed}};
      doc["r"] = target.r;
      doc["g_target"] = target.g;
      doc["iterations"] = iterations;
    }
    io::write_file_durably(o_.output, table.str());
    if (!o_.json.empty()) write_json_atomically(o_.json, doc);
    std::cout << "\nwrote " << o_.output << (o_.json.empty() ? "" : "\nwrote " + o_.json) << '\n';
    return 0;
  }

 private:
  void add_backend_variant_options(CLI::App* c) {
    c->add_option("--backend", o_.backend, "Backend: auto (best present), cpu, cuda");
    c->add_option("--variant", o_.variant, "Variant axes (as for run)");
  }
  IbiOptions o_;
  ProgressOptions progress_;
  CLI::Option* n_opt_ = nullptr;
  CLI::Option* alpha_opt_ = nullptr;
  CLI::Option* target_opt_ = nullptr;
  CLI::Option* output_opt_ = nullptr;
  std::vector<CLI::Option*> melt_only_;
};

}  // namespace

void check_ibi_run(const IbiOptions& o, bool melt) {
  const RunParams rp = ibi_langevin(o);
  rp.validate();
  check_step_length(o.dt, o.kT, 1.0, 0.5 * rp.skin, "half the neighbor-list skin");
  // table-melt's rho range (workloads/table_melt.cpp)
  if (melt && !(o.rho >= 0.01 && o.rho <= 10.0))
    throw_input_error("--rho ", o.rho, " is outside 0.01 .. 10, the densities table-melt runs a melt's tables at");
}

std::unique_ptr<Command> make_ibi_command() { return std::make_unique<IbiCommand>(); }

}  // namespace meso::bench
