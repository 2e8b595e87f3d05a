// vesicle-formation: the triblock chains of dpd-vesicle (Tang & Karniadakis,
// CPC 185, 2809 (2014), sec. 4.5) assemble from a random start. The short
// form (CPU, CI) checks that the chains aggregate; the long form (a GPU)
// that in each of three seeds a closed vesicle forms by a stated time, its
// lumen persists over the last five frames, and the lumen is wider than the
// bilayer around it is thick; it reports the bilayer thickness and area per
// chain. README.md beside this file states the box, the times and the
// bounds, and where they came from.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "meso/analysis/morphology.hpp"
#include "meso/run/progress.hpp"
#include "meso/run/simulation.hpp"
#include "meso/validation/validation_case.hpp"
#include "meso/systems/vesicle.hpp"

namespace meso::validation {

namespace {

struct Run {
  uint64_t seed = 0;
  std::vector<double> time, fraction;
  std::vector<uint32_t> micelles, sheets, vesicles;
  Morphology last;
  uint64_t n = 0;
};

Run run_one(const Context& ctx, const VesicleParams& v, const RunParams& rp, double t_end, double every_t) {
  Simulation sim(ctx.registry->create(ctx.backend, ctx.variant), make_dpd_vesicle(v), rp);
  MorphologyParams m;
  m.chains = v.chains();
  m.chain_length = v.chain_length();
  Run r;
  r.seed = v.seed;
  r.n = v.n;
  const auto every = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(every_t / rp.dt)));
  const auto total = static_cast<uint64_t>(std::llround(t_end / rp.dt));
  char what[64];
  std::snprintf(what, sizeof what, "vesicle-formation seed %llu", static_cast<unsigned long long>(v.seed));
  progress::begin(what, total);
  // Samples every `every` steps from the start, the last one at t_end
  // whatever the rounding of the interval.
  for (uint64_t done = 0, step = 0;; done += step) {
    if (step) sim.run(step);
    const Morphology g = analyse_morphology(sim.system().box, sim.particles(), m);
    r.time.push_back(double(done) * rp.dt);
    r.fraction.push_back(g.chain_fraction());
    r.micelles.push_back(g.micelles);
    r.sheets.push_back(g.sheets);
    r.vesicles.push_back(g.vesicles);
    r.last = g;
    if (done >= total) break;
    step = std::min(every, total - done);
  }
  return r;
}

// The diameter of the sphere of the largest lumen's volume.
double lumen_diameter(const Aggregate& g) { return 2.0 * std::cbrt(3.0 * g.lumen_volume / (4.0 * std::numbers::pi)); }

// The frames at the end over which a lumen must persist (t = 1600-2000 in
// the long form's 21 frames).
constexpr std::size_t kPersistFrames = 5;

nlohmann::json to_json(const Run& r) {
  nlohmann::json ves = nlohmann::json::array();
  for (const Aggregate& g : r.last.aggregates)
    if (g.kind == AggregateKind::vesicle)
      ves.push_back({{"chains", g.chains}, {"beads", g.beads}, {"lumens", g.pockets}, {"radius", g.radius},
                     {"thickness", g.thickness}, {"extent", g.extent}, {"area_per_chain", g.area_per_chain},
                     {"lumen_volume", g.lumen_volume}, {"lumen_diameter", lumen_diameter(g)}});
  return {{"seed", r.seed},         {"N", r.n},
          {"time", r.time},         {"chain_fraction", r.fraction},
          {"micelles", r.micelles}, {"sheets", r.sheets},
          {"vesicles", r.vesicles}, {"final_vesicles", ves}};
}

}  // namespace

Result run_vesicle_formation(const Context& ctx) {
  const bool is_long = ctx.form == Form::long_form;
  VesicleParams v;
  // The long form's box and time come from a pilot (README.md): 131072
  // beads (L = 29.7) held two lumens at t = 600 and three to six from
  // t = 1200 on; t = 2000 leaves room for a slower seed.
  v.n = static_cast<uint64_t>(knob(ctx, "N", is_long ? 131072 : 12000));
  // The negative control: B beads as soluble as the solvent (a_BS = a_SS).
  v.a_bs = knob(ctx, "a_bs", v.a_bs);
  RunParams rp;
  rp.dt = 0.01;
  rp.skin = 0.3;
  rp.integrator = Integrator::velocity_verlet;
  const double t_end = knob(ctx, "time", is_long ? 2000.0 : 20.0);
  const int runs = static_cast<int>(knob(ctx, "runs", is_long ? 3 : 1));
  const double every = t_end / 20.0;
  std::vector<Run> done;
  for (int k = 0; k < runs; ++k) {
    VesicleParams s = v;
    // The long form's seeds start one past --seed: the pilot ran seed 1.
    s.seed = ctx.seed + uint64_t(k) + (is_long ? 1 : 0);
    RunParams r = rp;
    r.seed = static_cast<uint32_t>(s.seed);
    done.push_back(run_one(ctx, s, r, t_end, every));
  }
  Result r;
  r.name = "vesicle-formation";
  nlohmann::json list = nlohmann::json::array();
  for (const Run& x : done) list.push_back(to_json(x));
  r.data = {{"form", to_string(ctx.form)}, {"time_end", t_end}, {"runs", list},
            {"concentration", v.concentration}, {"rho", v.rho}};
  if (!is_long) {
    // The chains leave the solvent: 0.23-0.29 of them sit in chance
    // clusters of 30 B beads at the random start, 0.68-0.77 in aggregates
    // at t = 20 (seeds 1-3 on the CPU, README.md); the bound lies between,
    // about twice the chance level.
    const Run& x = done.front();
    r.quantity = "fraction of the chains in aggregates of >= 30 B beads at t = " + std::to_string(int(t_end)) +
                 " (N = " + std::to_string(v.n) + ")";
    r.measured = x.fraction.back();
    r.reference = 0.55;
    r.tolerance = 0.0;
    r.rule = "chain fraction >= 0.55 (0.23-0.29 at the random start; README.md)";
    r.passed = r.measured >= r.reference;
    return r;
  }
  // Each seed must hold a closed vesicle at t_end whose lumen persisted
  // over the last frames and is at least as wide as its bilayer is thick
  // (README.md: a pocket trapped inside an aggregate is smaller). The
  // thickness is the lumen's wall's (analyse_morphology); until 2026-11-29
  // it was the spread of the whole aggregate, `extent` in the JSON, which
  // failed vesicles fused with others (README.md).
  int with = 0;
  double thick = 0.0, area = 0.0;
  int nves = 0;
  nlohmann::json per_seed = nlohmann::json::array();
  for (const Run& x : done) {
    const std::size_t from = x.vesicles.size() > kPersistFrames ? x.vesicles.size() - kPersistFrames : 0;
    const bool persists = std::all_of(x.vesicles.begin() + std::ptrdiff_t(from), x.vesicles.end(),
                                      [](uint32_t v) { return v > 0; });
    bool wide = false;
    for (const Aggregate& g : x.last.aggregates)
      if (g.kind == AggregateKind::vesicle) {
        thick += g.thickness;
        area += g.area_per_chain;
        ++nves;
        wide = wide || lumen_diameter(g) >= g.thickness;
      }
    const bool closed = x.vesicles.back() > 0;
    if (closed && persists && wide) ++with;
    per_seed.push_back({{"seed", x.seed}, {"closed", closed}, {"persists", persists}, {"lumen_wider", wide}});
  }
  r.quantity = "runs with a lasting vesicle at the stated time (of " + std::to_string(runs) + ")";
  r.measured = with;
  r.reference = runs;
  r.tolerance = 0.0;
  r.rule = "every seed holds >= 1 closed vesicle (a solvent pocket the bulk cannot reach) at t_end, a lumen in "
           "each of the last 5 frames, and a vesicle whose lumen's diameter is at least its bilayer thickness";
  r.passed = with == runs;
  r.data["gates"] = per_seed;
  if (nves) {
    r.data["bilayer_thickness_mean"] = thick / nves;
    r.data["area_per_chain_mean"] = area / nves;
  }
  return r;
}

MESO_REGISTER_VALIDATION_CASE({
    .name = "vesicle-formation",
    // Its simulations are the dpd-vesicle amphiphiles.
    .workload = "dpd-vesicle",
    .source = "Tang & Karniadakis, CPC 185, 2809 (2014) sec. 4.5: BBBAABBB chains at 10% in DPD solvent, "
              "rho = 5, sigma = 3, gamma = 4.5, K = 80, r0 = 0.38",
    .run = run_vesicle_formation,
    .knobs = {"N: beads", "time: run time of each seed", "runs: seeds",
              "a_bs: the B-solvent repulsion (120; the negative control's)"},
    // a_BS = 15 makes the B blocks soluble: 0.08 of the chains in
    // aggregates at t = 20 against the gate's 0.55 (CPU, seed 1, README.md),
    // and no vesicle. The correct model has 0.56-0.65 aggregated already at
    // t = 4 and soluble blocks stay near the start's chance level: CI runs
    // the control to t = 4, a fifth of the short form.
    .controls = {{.name = "a-bs-15",
                  .what = "a_BS = 15: soluble B blocks (no aggregation, no vesicle)",
                  .params = {{"a_bs", 15.0}},
                  .short_params = {{"time", 4.0}}}}});

}  // namespace meso::validation
