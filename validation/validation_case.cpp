#include "meso/validation/validation_case.hpp"

#include <cmath>
#include <algorithm>
#include <stdexcept>

#include "meso/dppc.hpp"
#include "meso/error.hpp"

namespace meso::validation {

Result run_dpd_temperature(const Context& ctx);  // dpd-temperature/dpd_temperature.cpp
Result run_nve_drift_shift(const Context& ctx);  // nve-drift/nve_drift.cpp
Result run_nve_drift_xplor(const Context& ctx);
Result analyse_nve_drift_shift(const Context& ctx, const nlohmann::json& data);
Result analyse_nve_drift_xplor(const Context& ctx, const nlohmann::json& data);
Result run_poiseuille_viscosity(const Context& ctx);  // poiseuille-viscosity/
Result run_poiseuille_transient(const Context& ctx);  // poiseuille-transient/
Result analyse_poiseuille_transient(const Context& ctx, const nlohmann::json& data);
Result run_srd_momentum(const Context& ctx);  // srd-momentum/
Result run_srd_viscosity(const Context& ctx);  // srd-viscosity/
Result run_dppc_density(const Context& ctx);  // dppc-density/
Result run_vesicle_formation(const Context& ctx);  // vesicle-formation/
Result run_living_polymerization(const Context& ctx);  // living-polymerization/
Result run_ibi_melt(const Context& ctx);               // ibi-melt/
Result run_table_melt(const Context& ctx);             // table-melt/
Result run_polymer_hydrodynamics(const Context& ctx);  // polymer-hydrodynamics/
Result analyse_polymer_hydrodynamics(const Context& ctx, const nlohmann::json& data);
Result run_nve_drift_rigid(const Context& ctx);  // nve-drift-rigid/
Result run_nve_drift_rigid_ssd(const Context& ctx);
Result analyse_nve_drift_rigid(const Context& ctx, const nlohmann::json& data);
Result run_rotational_equipartition(const Context& ctx);  // rotational-equipartition/
Result run_janus_assembly(const Context& ctx);              // janus-assembly/
Result run_ssd_water(const Context& ctx);                   // ssd-water/

const char* to_string(Form f) { return f == Form::short_form ? "short" : "long"; }

const std::vector<Case>& all_cases() {
  static const std::vector<Case> cases = {
      {"dpd-temperature",
       "Groot & Warren, J. Chem. Phys. 107, 4423 (1997): DPD fluid rho = 3, a = 25, gamma = 4.5, kT = 1",
       run_dpd_temperature},
      {"nve-drift-shift",
       "Anderson, Lorenz & Travesset, J. Comput. Phys. 227, 5342 (2008), sec. 8.2, Table 2: LJ "
       "N = 5000, rho = 0.4, r_cut = 2.5, shifted",
       run_nve_drift_shift,
       {"runs: independent runs", "thermalize: Nose-Hoover steps before NVE",
        "long_steps: NVE steps of the drift run"},
       analyse_nve_drift_shift,
       true},
      {"nve-drift-xplor",
       "Anderson, Lorenz & Travesset, J. Comput. Phys. 227, 5342 (2008), sec. 8.2, Table 2: LJ "
       "N = 5000, rho = 0.4, r_cut = 2.5, XPLOR r_on = 1.5",
       run_nve_drift_xplor,
       {"runs: independent runs", "thermalize: Nose-Hoover steps before NVE",
        "long_steps: NVE steps of the drift run"},
       analyse_nve_drift_xplor,
       true},
      {"srd-momentum",
       "Howard, Panagiotopoulos & Nikoubashman, Comput. Phys. Commun. 230, 10 (2018): SRD solvent "
       "a = 1, m = 1, kT = 1, alpha = 130 deg, dt_c = 0.1, rho = 10, random grid shift",
       run_srd_momentum,
       {"L: box edge in cells", "collisions: collisions of each run"}},
      {"srd-viscosity",
       "Kikuchi, Pooley, Ryder & Yeomans, J. Chem. Phys. 119, 6388 (2003); Gompper, Ihle, Kroll & Winkler, "
       "Adv. Polym. Sci. 221, 1 (2009): SRD kinetic theory with random shift; reverse Poiseuille flow of "
       "the benchmark solvent (alpha = 130 deg, dt_c = 0.1, rho = 10, cell thermostat)",
       run_srd_viscosity,
       {"runs: independent runs", "production: averaging time per run", "equilibration: time from rest",
        "cross: box edge across the gradient (y, z) in cells"}},
      {"dppc-density",
       "Zhu et al. (GALAMOST), J. Comput. Chem. 34, 2197 (2013), MD-SCF validation; HylleraasMD DPPC "
       "example parameters (docs/reference.md); Kucerka et al. BBA 1808, 2761 (2011): D_HH = 3.83 nm at 323 K",
       run_dppc_density,
       {"equilibrate: equilibration (ps)", "production: averaging time (ps)", "update: steps between field updates",
        "compare: 0 skips the CPU comparison run of a GPU backend", "shift: 0 keeps the grid fixed"},
       {},
       false,
       DppcUnits::trajectory_units()},
      {"poiseuille-viscosity",
       "Backer et al., J. Chem. Phys. 122, 154503 (2005); Tang & Karniadakis, CPC 185, 2809 (2014) "
       "sec. 4.2: reverse Poiseuille flow, sigma = 4.5, kT = 0.5, a = 0, rho = 6",
       run_poiseuille_viscosity,
       {"runs: independent runs", "production: averaging time per run", "equilibration: time from rest"}},
      {"poiseuille-transient",
       "Tang & Karniadakis, CPC 185, 2809 (2014) sec. 4.2 Eq. 10; Sigalotti et al., JCP 191, 622 "
       "(2003): start-up of double Poiseuille flow, rho = 5, a = 15, sigma = 3, kT = 1",
       run_poiseuille_transient,
       {"runs: transient repeats", "max_time: last published time profiled (long-form units)",
        "steady_runs: runs of the steady viscosity measurement",
        "steady_production: averaging time per steady run"},
       analyse_poiseuille_transient},
      {"vesicle-formation",
       "Tang & Karniadakis, CPC 185, 2809 (2014) sec. 4.5: BBBAABBB chains at 10% in DPD solvent, rho = 5, "
       "sigma = 3, gamma = 4.5, K = 80, r0 = 0.38",
       run_vesicle_formation,
       {"N: beads", "time: run time of each seed", "runs: seeds"}},
      {"polymer-hydrodynamics",
       "Howard et al., CPC 230, 10 (2018) sec. 4.3; Huang et al., Macromolecules 43, 10107 (2010); "
       "Duenweg & Kremer, J. Chem. Phys. 99, 6983 (1993): R_g ~ N^0.588, D ~ N^-0.59 (Zimm), N^-1 (Rouse)",
       run_polymer_hydrodynamics,
       {"chains: factor on every run's chain count", "time: production time per run",
        "equilibration: equilibration time per run"},
       analyse_polymer_hydrodynamics},
      {"living-polymerization",
       "GALAMOST stochastic chain growth (Liu et al.): living polymerization, all initiators active from t = 0, "
       "constant reaction probability: Poisson chain growth (dispersity 1 + 1/DP) and the rate equation",
       run_living_polymerization,
       {"initiators: active ends per run (20 monomers each)", "runs: independent runs",
        "P: reaction probability per attempt", "period: steps between attempts", "dt: time step"}},
      {"ibi-melt",
       "Reith, Puetz & Mueller-Plathe, J. Comput. Chem. 24, 1624 (2003); GALAMOST's numerical potentials "
       "(Zhu et al., J. Comput. Chem. 34, 2197 (2013)): IBI of a bead-spring melt's pair, bond and angle "
       "potentials recovers its distributions",
       run_ibi_melt,
       {"chains: chains of 10 beads", "samples: configurations a run", "equilibrate: steps before sampling",
        "iterations: IBI corrections", "alpha: fraction of each correction",
        "pair_floor: g above which the pair potential is corrected"}},
      {"table-melt",
       "GALAMOST's numerical potentials (Zhu et al., J. Comput. Chem. 34, 2197 (2013)), validated on the GPU "
       "against a CPU code's distributions: the tabulated melt's g(r), bonds and angles against the CPU "
       "reference's",
       run_table_melt,
       {"chains: chains of 10 beads", "runs: runs of each set", "samples: configurations a run",
        "bond_k_scale: the tested set's bond constant over the reference's (1)"}},
      {"nve-drift-rigid",
       "Anderson, Lorenz & Travesset, J. Comput. Phys. 227, 5342 (2008), sec. 8.2 (protocol and bound); "
       "Miller et al., J. Chem. Phys. 116, 8649 (2002) (NO_SQUISH): Gay-Berne GB(3, 5, 2, 1) liquid, "
       "rho = 0.30, kT = 2",
       run_nve_drift_rigid,
       {"runs: independent runs", "long_steps: NVE steps of the drift run", "N: ellipsoids",
        "dt_factor: dt over the model's"},
       analyse_nve_drift_rigid,
       true},
      {"nve-drift-rigid-ssd",
       "Anderson, Lorenz & Travesset, J. Comput. Phys. 227, 5342 (2008), sec. 8.2 (protocol and bound); "
       "Miller et al., J. Chem. Phys. 116, 8649 (2002) (NO_SQUISH): SSD/RF water (Fennell & Gezelter, "
       "J. Chem. Phys. 120, 9175 (2004)), 0.997 g/cm^3, 298 K, dt = 2 fs",
       run_nve_drift_rigid_ssd,
       {"runs: independent runs", "long_steps: NVE steps of the drift run", "N: molecules",
        "dt_factor: dt over the model's", "switch_order: the switches' polynomial, 5 (quintic, the gate's) or 3 (cubic, as published)",
        "switch_scale: a factor (0, 1] on the switches' widths"},
       analyse_nve_drift_rigid,
       true},
      {"rotational-equipartition",
       "equipartition of kinetic energy: T_rot = T_trans = kT; Gay-Berne GB(3, 5, 2, 1) liquid, rho = 0.30, "
       "kT = 2, Langevin then NVE",
       run_rotational_equipartition,
       {"sample: steps sampled under Langevin and again in NVE"}},
      {"janus-assembly",
       "GALAMOST's soft triblock Janus particles (Zhu et al., J. Comput. Chem. 34, 2197 (2013)): a^R = 396, "
       "a^A = 132, theta_m = 65 deg, nu = 0.5, rho = 3, kT = 1, leapfrog with Berendsen; the patch axes align "
       "and the patches face as in the model's ordered columnar and body-centred tetragonal phases",
       run_janus_assembly,
       {"L: box edge", "time: run time per seed", "runs: independent seeds", "dt: time step (0.005)",
        "langevin: 1 for Langevin (gamma 4.5, gamma_r 1) instead of the leapfrog"}},
      {"ssd-water",
       "Fennell & Gezelter, J. Chem. Phys. 120, 9175 (2004): SSD/RF at 0.997 g/cm^3 and 298 K, the O-O "
       "coordination number n_C = 4.4 and D = 2.32(6) x 10^-5 cm^2/s",
       run_ssd_water,
       {"N: molecules", "equilibrate: Langevin time before sampling, ps", "sample: NVE time sampled, ps",
        "blocks: blocks of the NVE run for D", "fit_to: the longest lag of the MSD fit, ps"}},
  };
  return cases;
}

double knob(const Context& ctx, const std::string& key, double fallback) {
  const auto it = ctx.params.find(key);
  return it == ctx.params.end() ? fallback : it->second;
}

RunRange shard_runs(const Context& ctx, int runs) {
  const int k = ctx.shard_index, n = ctx.shard_count;
  if (n < 1 || k < 0 || k >= n)
    throw_input_error("--shard ", k, "/", n, " is invalid: it must be I/N with 0 <= I < N");
  if (n > runs)
    throw_input_error("--shard ", k, "/", n, " is invalid: the case has ", runs,
                      " repeats, fewer than the ", n, " shards");
  // Even split, the first runs % n shards one repeat longer.
  const int base = runs / n, extra = runs % n;
  RunRange r;
  r.first = k * base + std::min(k, extra);
  r.last = r.first + base + (k < extra ? 1 : 0);
  return r;
}

std::vector<double> thin_series(const std::vector<double>& v, std::size_t max_points) {
  if (v.size() <= max_points) return v;
  std::vector<double> out;
  const std::size_t stride = (v.size() + max_points - 1) / max_points;
  for (std::size_t i = 0; i < v.size(); i += stride) out.push_back(v[i]);
  return out;
}

bool past_time_limit(const Context& ctx) {
  return ctx.stop_at && std::chrono::steady_clock::now() >= *ctx.stop_at;
}

nlohmann::json run_repeats(const Context& ctx, int runs, const RepeatFn& one, bool& stopped) {
  const RunRange range = shard_runs(ctx, runs);
  const nlohmann::json* before = ctx.resume ? &ctx.resume->at("per_run") : nullptr;
  nlohmann::json out = nlohmann::json::array();
  bool progressed = false;
  stopped = false;
  for (int r = range.first; r < range.last; ++r) {
    const uint64_t seed = ctx.seed + static_cast<uint64_t>(r);
    const nlohmann::json* from = nullptr;
    if (before)
      for (const auto& rec : *before)
        if (rec.at("run").get<int>() == r) from = &rec;
    if (from && !from->value("incomplete", false)) {
      out.push_back(*from);
      continue;
    }
    if (stopped || (progressed && past_time_limit(ctx))) {
      stopped = true;
      out.push_back(from ? *from : nlohmann::json{{"run", r}, {"seed", seed}, {"incomplete", true}});
      continue;
    }
    out.push_back(one(r, seed, from));
    stopped = out.back().value("incomplete", false);
    progressed = true;
  }
  return out;
}

Result shard_result(const Context& ctx, std::string name, nlohmann::json data) {
  Result r;
  r.name = std::move(name);
  r.quantity = "shard " + std::to_string(ctx.shard_index) + "/" + std::to_string(ctx.shard_count) +
               ": repeats only; `mesobench validate --merge` evaluates the gates";
  r.partial = true;
  r.data = std::move(data);
  return r;
}


}  // namespace meso::validation
