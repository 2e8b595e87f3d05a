// `mesobench morphology TRAJ.h5`: what the chains of a dpd-vesicle
// trajectory have assembled into, frame by frame (meso/analysis/morphology.hpp):
// aggregates, micelles, sheets and closed vesicles with their radii and
// bilayer thickness, as a table and (--json) a result file the figures read.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "../output_paths.hpp"
#include "../report.hpp"
#include "command.hpp"
#include "meso/core/error.hpp"
#include "meso/io/durable_file.hpp"
#include "meso/io/h5md.hpp"
#include "meso/analysis/morphology.hpp"
#include "meso/run/provenance.hpp"
#include "options.hpp"

namespace meso::bench {
namespace {

class MorphologyCommand final : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* m = app.add_subcommand("morphology", "Micelles, sheets and vesicles per frame of a trajectory");
    m->add_option("trajectory", path_, "H5MD file written by `mesobench run --trajectory`")
        ->required()
        ->check(CLI::ExistingFile);
    m->add_option("--json", json_, "Write every frame's aggregates to this file")->check(kFileName);
    m->add_option("--concentration", concentration_, "Fraction of the beads in chains (dpd-vesicle's c)")
        ->check(kFinite)
        ->check(CLI::Range(0.0, 1.0));
    m->add_option("--chain-length", p_.chain_length, "Beads a chain (tags: chains first)")
        ->check(count_in(1, 100000));
    m->add_option("--hydrophobic", p_.hydrophobic_type, "Species of the aggregating beads (B: 1)")
        ->check(count_in(0, INT32_MAX));
    m->add_option("--solvent", p_.solvent_type, "Species of the solvent (S: 2)")->check(count_in(0, INT32_MAX));
    m->add_option("--link", p_.link, "Hydrophobic beads closer than this are one aggregate (r_c)")
        ->check(kFinite)
        ->check(CLI::PositiveNumber);
    m->add_option("--min-beads", p_.min_beads, "Smaller clusters are free chains")->check(count_in(1, UINT32_MAX));
    m->add_option("--voxel", p_.voxel, "Voxel edge of the flood fill")->check(kFinite)->check(CLI::PositiveNumber);
    m->add_flag("--dilate", p_.dilate, "Mark the 26 neighbours of a hydrophobic bead's voxel too");
    m->add_option("--beads-csv", beads_,
                  "Write the last frame's hydrophobic beads to this CSV file (pictures)")
        ->check(kFileName);
    return m;
  }

  int run(const CommandContext&) override {
    // Neither output may be the trajectory (by identity: a link or a hard
    // link to it too) nor the other output (output_paths.hpp).
    PathPlan plan;
    plan.read("trajectory", path_);
    plan.write("--json", json_);
    plan.write("--beads-csv", beads_);
    plan.check();
    const io::H5mdData first = io::read_h5md_frame(path_, 0);
    const std::size_t frames = first.step.size(), n = first.position.size();
    p_.chains = static_cast<uint64_t>(std::llround(concentration_ * double(n) / double(p_.chain_length)));
    p_.validate();
    std::printf("%10s %12s %6s %8s %6s %8s %8s %9s %9s\n", "step", "time", "aggr", "micelles", "sheets",
                "vesicles", "chains", "R_ves", "thick");
    nlohmann::json rows = nlohmann::json::array();
    std::string beads;  // the CSV, written with the JSON once every frame is analysed
    for (std::size_t f = 0; f < frames; ++f) {
      const io::H5mdData d = f == 0 ? first : io::read_h5md_frame(path_, f);
      const Box box(d.edges.x, d.edges.y, d.edges.z);
      ParticleData<double> p;
      p.resize(d.position.size());
      for (std::size_t i = 0; i < d.position.size(); ++i) {
        p.position[i] = d.position[i];
        p.type[i] = static_cast<uint32_t>(d.species[i]);
        p.tag[i] = static_cast<uint32_t>(i);
      }
      const Morphology m = analyse_morphology(box, p, p_);
      double r = 0.0, t = 0.0;
      nlohmann::json aggr = nlohmann::json::array();
      for (const Aggregate& g : m.aggregates) {
        nlohmann::json a = {{"kind", to_string(g.kind)}, {"beads", g.beads}, {"chains", g.chains},
                            {"spans", g.spans}};
        if (g.kind == AggregateKind::vesicle) {
          a["lumens"] = g.pockets;
          a["radius"] = g.radius;
          a["thickness"] = g.thickness;
          a["extent"] = g.extent;
          a["lumen_volume"] = g.lumen_volume;
          a["area_per_chain"] = g.area_per_chain;
          a["centre"] = {g.centre.x, g.centre.y, g.centre.z};
          r += g.radius;
          t += g.thickness;
        }
        aggr.push_back(a);
      }
      const uint32_t ves = uint32_t(std::count_if(m.aggregates.begin(), m.aggregates.end(),
                                                  [](const Aggregate& g) { return g.kind == AggregateKind::vesicle; }));
      if (ves) r /= ves, t /= ves;
      if (f + 1 == frames && !beads_.empty()) beads = beads_csv(box, p);
      std::printf("%10lld %12.3f %6zu %8u %6u %8u %8.3f %9.3f %9.3f\n", (long long)d.step[f], d.time[f],
                  m.aggregates.size(), m.micelles, m.sheets, m.vesicles, m.chain_fraction(), r, t);
      rows.push_back({{"step", d.step[f]},        {"time", d.time[f]},          {"micelles", m.micelles},
                      {"sheets", m.sheets},       {"vesicles", m.vesicles},     {"chains", m.chains},
                      {"chains_aggregated", m.chains_aggregated},               {"aggregates", aggr}});
    }
    // Both files are written to their temporaries before either replaces
    // anything: a failure leaves no output and every earlier file as it was.
    std::optional<io::OutputFile> csv_out, json_out;
    if (!beads_.empty()) csv_out.emplace(beads_).write(beads);
    if (!json_.empty()) {
      nlohmann::json doc = result_document("morphology", collect_provenance());
      doc["trajectory"] = path_;
      doc["parameters"] = {{"hydrophobic_type", p_.hydrophobic_type}, {"solvent_type", p_.solvent_type},
                           {"chain_length", p_.chain_length},         {"chains", p_.chains},
                           {"link", p_.link},                         {"min_beads", p_.min_beads},
                           {"voxel", p_.voxel},                       {"dilate", p_.dilate},
                           {"min_pocket_solvent", p_.min_pocket_solvent},
                           {"flat", p_.flat}};
      doc["frames"] = rows;
      json_out.emplace(json_).write(doc.dump(2) + "\n");
    }
    for (std::optional<io::OutputFile>* out : {&csv_out, &json_out})
      if (*out) {
        (*out)->commit();
        std::cout << "wrote " << (*out)->path() << '\n';
      }
    return 0;
  }

 private:
  // The last frame's hydrophobic beads: the box, a header, "x,y,z" rows.
  std::string beads_csv(const Box& box, const ParticleData<double>& p) const {
    const Vec3d L = box.lengths();
    char line[128];
    std::snprintf(line, sizeof line, "# box %.9g %.9g %.9g\nx,y,z\n", L.x, L.y, L.z);
    std::string out = line;
    for (std::size_t i = 0; i < p.n_local; ++i)
      if (p.type[i] == p_.hydrophobic_type) {
        std::snprintf(line, sizeof line, "%.5f,%.5f,%.5f\n", p.position[i].x, p.position[i].y, p.position[i].z);
        out += line;
      }
    return out;
  }

  std::string path_, json_, beads_;
  double concentration_ = 0.10;
  MorphologyParams p_;
};

}  // namespace

std::unique_ptr<Command> make_morphology_command() { return std::make_unique<MorphologyCommand>(); }

}  // namespace meso::bench
