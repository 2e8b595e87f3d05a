// `mesobench ibi` with --bond-target and --angle-target: the pair, bond and
// angle potentials of a bead-spring melt by iterative Boltzmann inversion,
// all three corrected from each run (meso/tables/ibi_melt.hpp, docs/tables.md).
// The melt of --chains x --chain-length beads at --rho starts as random
// walks of the bond target's mean length, relaxed under a soft repulsion
// (a = 25 kT, r_c = 1), harmonic bonds of that length (k = 100 kT) and
// weak harmonic angles (k = 1 kT) about the angle target's mean; each iteration
// then runs the tables from the last configuration.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numbers>
#include <sstream>

#include "../backends.hpp"
#include "../output_paths.hpp"
#include "../progress_line.hpp"
#include "../report.hpp"
#include "ibi_options.hpp"
#include "meso/core/error.hpp"
#include "meso/tables/ibi_melt.hpp"
#include "meso/io/durable_file.hpp"
#include "meso/run/provenance.hpp"
#include "meso/run/simulation.hpp"

namespace meso::bench {
namespace {

// The soft relaxation of the random walks before the first iteration.
constexpr double kRelaxA = 25.0, kRelaxBondK = 100.0, kRelaxAngleK = 1.0;

double mean_of(const BondedDistribution& d) {
  double m = 0.0;
  for (std::size_t i = 0; i < d.x.size(); ++i) m += d.x[i] * d.p[i] * d.dx;
  return m;
}

nlohmann::json distribution_json(const BondedDistribution& d, double scale) {
  std::vector<double> x(d.x.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = d.x[i] * scale;
  return {{"x", x}, {"p_target", d.p}};
}

// "x y" lines at 17 significant digits, as the target readers read them.
void write_columns(const std::string& path, const std::string& head, const std::vector<double>& x,
                   const std::vector<double>& y, double x_scale, double y_scale) {
  std::ostringstream out;
  out << head;
  char buf[80];
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.17g %.17g\n", written_value(x[i] * x_scale), written_value(y[i] * y_scale));
    out << buf;
  }
  io::write_file_durably(path, out.str());
}

}  // namespace

int write_melt_targets(const IbiOptions& o, const ProgressOptions& progress_options, const CommandContext& ctx) {
  if (o.n_given) throw_input_error("--n is the fluid's: a melt has --chains x --chain-length beads");
  for (const auto& [name, value] : {std::pair<const char*, const std::string&>{"--bond-target", o.bond_target},
                                    {"--angle-target", o.angle_target},
                                    {"--bond-output", o.bond_output},
                                    {"--angle-output", o.angle_output},
                                    {"--json", o.json}})
    if (!value.empty()) throw_input_error(name, " belongs to the IBI loop, not to --melt-targets");
  const std::string g_path = o.melt_targets + ".g.txt", bond_path = o.melt_targets + ".bond.txt",
                    angle_path = o.melt_targets + ".angle.txt";
  PathPlan plan;
  plan.write("--melt-targets (g)", g_path);
  plan.write("--melt-targets (bonds)", bond_path);
  plan.write("--melt-targets (angles)", angle_path);
  plan.check();
  BeadSpringMeltParams mp;  // the analytic model's defaults (meso/tables/ibi_melt.hpp)
  mp.chains = o.chains;
  mp.chain_length = o.chain_length;
  mp.rho = o.rho;
  mp.kT = o.kT;
  mp.seed = o.seed;
  const System melt = make_bead_spring_melt(mp);
  MeltSampling s;  // the analytic melt's bins: g(r) to 1.5, bonds 0.3-1.1, angles 0-180 degrees
  s.equilibrate = o.equilibrate;
  s.samples = o.samples;
  s.every = o.every;
  if (s.r_max > 0.5 * melt.box.min_length())
    throw_input_error("--chains ", o.chains, " x --chain-length ", o.chain_length, " at --rho ", o.rho,
                      " make a box of ", melt.box.min_length(), ", less than twice g(r)'s r_max ", s.r_max);
  const RunParams rp = ibi_langevin(o);
  const std::string backend = ctx.registry.resolve(o.backend);
  const Variant variant = Variant::parse(o.variant);
  const Provenance prov = collect_provenance();
  print_provenance_header(prov, backend);
  const ProgressScope progress(progress_options.quiet, progress_options.progress_interval);
  const MeltDistributions d = sample_melt(
      melt, rp, [&] { return ctx.registry.create(backend, variant); },
      chain_of_tag(o.chains, o.chain_length), s);
  char head[400];
  std::snprintf(head, sizeof head,
                "# mesobench ibi --melt-targets: %u chains of %u beads at rho %g, kT %g, a %g,\n"
                "# bonds k %g r0 %g, angles k %g theta0 %g; %llu samples %llu steps apart after %llu\n"
                "# (%s, seed %llu, %s)\n",
                mp.chains, mp.chain_length, mp.rho, mp.kT, mp.a, mp.bond_k, mp.bond_r0, mp.angle_k,
                mp.angle_theta0, static_cast<unsigned long long>(s.samples), static_cast<unsigned long long>(s.every),
                static_cast<unsigned long long>(s.equilibrate), backend.c_str(),
                static_cast<unsigned long long>(o.seed), prov.git_commit.c_str());
  write_columns(g_path, std::string(head) + "# r g(r), intermolecular\n", d.pair.r, d.pair.g, 1.0, 1.0);
  write_columns(bond_path, std::string(head) + "# r P(r)\n", d.bond.x, d.bond.p, 1.0, 1.0);
  write_columns(angle_path, std::string(head) + "# theta (degrees) P(theta) (per radian)\n", d.angle.x, d.angle.p,
                180.0 / std::numbers::pi, 1.0);
  std::cout << "wrote " << g_path << "\nwrote " << bond_path << "\nwrote " << angle_path << '\n';
  return 0;
}

int run_ibi_melt(const IbiOptions& o, const ProgressOptions& progress_options, const CommandContext& ctx) {
  if (o.bond_target.empty() || o.angle_target.empty())
    throw_input_error("a melt needs both --bond-target and --angle-target");
  if (o.bond_output.empty() || o.angle_output.empty())
    throw_input_error("a melt writes --bond-output and --angle-output beside -o: give both");
  if (o.n_given)
    throw_input_error("--n is the fluid's: a melt has --chains x --chain-length beads (", o.chains, " x ",
                      o.chain_length, ")");
  PathPlan plan;
  plan.read("--target", o.target);
  plan.read("--bond-target", o.bond_target);
  plan.read("--angle-target", o.angle_target);
  plan.write("--output", o.output);
  plan.write("--bond-output", o.bond_output);
  plan.write("--angle-output", o.angle_output);
  plan.write("--json", o.json);
  plan.check();
  if (o.keyword.empty() || o.keyword.find_first_of(" \t#") != std::string::npos)
    throw_input_error("--keyword '", o.keyword, "' must be one word without '#'");
  MeltDistributions target;
  target.pair = read_rdf_file(o.target);
  target.bond = read_bonded_distribution_file(o.bond_target, TableKind::bond);
  target.angle = read_bonded_distribution_file(o.angle_target, TableKind::angle);

  BeadSpringMeltParams mp;
  mp.chains = o.chains;
  mp.chain_length = o.chain_length;
  mp.rho = o.rho;
  mp.kT = o.kT;
  mp.a = kRelaxA * o.kT;
  mp.bond_k = kRelaxBondK * o.kT;
  mp.bond_r0 = mean_of(target.bond);
  mp.angle_k = kRelaxAngleK * o.kT;
  mp.angle_theta0 = mean_of(target.angle) * 180.0 / std::numbers::pi;
  mp.seed = o.seed;
  System melt = make_bead_spring_melt(mp);
  const double r_max = target.pair.r.back() + 0.5 * target.pair.bin_width;
  if (r_max > 0.5 * melt.box.min_length())
    throw_input_error("--chains ", o.chains, " x --chain-length ", o.chain_length, " at --rho ", o.rho,
                      " make a box of ", melt.box.min_length(), ", less than twice the target's r_max ", r_max,
                      ": use at least ", static_cast<uint64_t>(std::ceil(o.rho * std::pow(2.0 * r_max, 3))),
                      " beads");
  MeltSampling s;
  s.equilibrate = o.equilibrate;
  s.samples = o.samples;
  s.every = o.every;
  s.r_max = r_max;
  s.pair_bins = static_cast<int>(target.pair.r.size());
  // The histograms' ranges: the targets' bins (the readers allow their ends
  // 1e-6 of a bin beyond 0 and 180 degrees).
  s.bond_lo = std::max(0.0, target.bond.x.front() - 0.5 * target.bond.dx);
  s.bond_hi = target.bond.x.back() + 0.5 * target.bond.dx;
  s.bond_bins = static_cast<int>(target.bond.x.size());
  s.angle_lo = std::max(0.0, target.angle.x.front() - 0.5 * target.angle.dx);
  s.angle_hi = std::min(std::numbers::pi, target.angle.x.back() + 0.5 * target.angle.dx);
  s.angle_bins = static_cast<int>(target.angle.x.size());

  const RunParams rp = ibi_langevin(o);
  const std::string backend = ctx.registry.resolve(o.backend);
  const Variant variant = Variant::parse(o.variant);
  auto make_backend = [&] { return ctx.registry.create(backend, variant); };
  const Provenance prov = collect_provenance();
  print_provenance_header(prov, backend);
  const ProgressScope progress(progress_options.quiet, progress_options.progress_interval);
  {
    Simulation relax(make_backend(), melt, rp);
    relax.run(o.equilibrate);
    melt.particles = relax.particles();
  }
  const std::vector<uint32_t> molecule = chain_of_tag(o.chains, o.chain_length);
  // Half of each correction unless told: the pair, bond and angle
  // corrections of a melt act on each other (validation/ibi-melt/README.md).
  const double alpha = o.alpha_given ? o.alpha : 0.5;
  MeltPotentials v = melt_potentials_of_mean_force(target, o.kT);
  nlohmann::json iterations = nlohmann::json::array();
  std::cout << "iteration     g(r)    bonds   angles  (integrated |P - P_target| / P_target)\n";
  for (int it = 0; it <= o.iterations; ++it) {
    const MeltDistributions got =
        sample_melt(with_melt_tables(melt, v, o.points), rp, make_backend, molecule, s, &melt.particles);
    const MeltDifference d = melt_difference(got, target);
    std::printf("%9d  %7.5f  %7.5f  %7.5f\n", it, d.pair, d.bond, d.angle);
    std::fflush(stdout);
    iterations.push_back({{"iteration", it},
                          {"difference", d.pair},
                          {"g", got.pair.g},
                          {"v", v.pair.v},
                          {"bond", {{"difference", d.bond}, {"p", got.bond.p}, {"v", v.bond.v}}},
                          {"angle", {{"difference", d.angle}, {"p", got.angle.p}, {"v", v.angle.v}}}});
    if (it < o.iterations) ibi_update(v, got, target, o.kT, alpha);
  }
  // The tables of the last potentials (those the last run measured), each
  // read back as a run would read it before any is written: a table the
  // readers refuse is never left behind, nor one of three.
  std::ostringstream pair, bond, angle;
  char head[200];
  std::snprintf(head, sizeof head, "# mesobench ibi: a melt of %u x %u at rho %g, kT %g; %d iterations\n", o.chains,
                o.chain_length, o.rho, o.kT, o.iterations);
  pair << head;
  write_ibi_table(pair, o.keyword, v.pair, o.points, kMeltTableRIn);
  bond << head;
  write_bonded_ibi_table(bond, o.keyword, TableKind::bond, v.bond, o.points);
  angle << head;
  write_bonded_ibi_table(angle, o.keyword, TableKind::angle, v.angle, o.points);
  {
    std::istringstream p(pair.str()), b(bond.str()), a(angle.str());
    read_pair_tables(p, o.output);
    read_bonded_tables(b, o.bond_output, TableKind::bond);
    read_bonded_tables(a, o.angle_output, TableKind::angle);
  }
  nlohmann::json doc;
  if (!o.json.empty()) {
    doc = result_document("ibi", prov);
    doc["target"] = o.target;
    doc["table"] = o.output;
    doc["backend"] = backend;
    doc["variant"] = variant.to_string();
    doc["parameters"] = {{"rho", o.rho},       {"kT", o.kT},         {"N", mp.beads()},
                         {"chains", o.chains}, {"chain_length", o.chain_length},
                         {"alpha", alpha},     {"equilibrate", o.equilibrate},
                         {"samples", o.samples}, {"every", o.every}, {"dt", o.dt},
                         {"gamma", o.gamma},   {"seed", o.seed}};
    doc["r"] = target.pair.r;
    doc["g_target"] = target.pair.g;
    doc["melt"] = {{"bond_target", o.bond_target},     {"angle_target", o.angle_target},
                   {"bond_table", o.bond_output},      {"angle_table", o.angle_output},
                   {"bond", distribution_json(target.bond, 1.0)},
                   {"angle", distribution_json(target.angle, 180.0 / std::numbers::pi)}};
    doc["iterations"] = iterations;
  }
  io::write_file_durably(o.output, pair.str());
  io::write_file_durably(o.bond_output, bond.str());
  io::write_file_durably(o.angle_output, angle.str());
  if (!o.json.empty()) write_json_atomically(o.json, doc);
  std::cout << "\nwrote " << o.output << "\nwrote " << o.bond_output << "\nwrote " << o.angle_output
            << (o.json.empty() ? "" : "\nwrote " + o.json) << '\n';
  return 0;
}

}  // namespace meso::bench
