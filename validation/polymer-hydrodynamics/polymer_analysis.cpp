// The gates of polymer-hydrodynamics from its repeats' records (a run's own,
// or the shards' joined by --merge): README.md beside this file states them.
#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <string>

#include "meso/core/error.hpp"
#include "meso/systems/polymer_solution.hpp"
#include "meso/validation/polymer_fits.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::validation {

namespace {

nlohmann::json gate(const std::string& quantity, double measured, double se, double reference, double tol,
                    double se_limit, bool& passed) {
  const bool ok = std::fabs(measured - reference) <= tol && se <= se_limit;
  passed = passed && ok;
  return {{"quantity", quantity}, {"measured", measured}, {"se", se}, {"reference", reference},
          {"tolerance", tol}, {"se_limit", se_limit}, {"passed", ok}};
}

std::vector<double> minus(std::vector<double> v) {
  for (double& x : v) x = -x;
  return v;
}

std::vector<double> values(const nlohmann::json& r, const char* key) { return r.at(key).get<std::vector<double>>(); }

// nu from R_g^2 = A N^(2 nu) (1 + c N^-delta), delta = 0.528 (Clisby, Phys.
// Rev. Lett. 104, 055702 (2010)), or the reason no admissible law fits.
struct CorrectedNu {
  bool ok = false;
  CorrectedPowerFit fit;
  std::string why;
  double nu() const { return ok ? 0.5 * fit.exponent : std::nan(""); }
  double se() const { return ok ? 0.5 * fit.se : std::nan(""); }
  nlohmann::json json(const std::vector<double>& n) const {
    if (!ok) return {{"N", n}, {"error", why}};
    return {{"N", n}, {"nu", nu()}, {"se", se()}, {"correction", fit.correction}, {"delta", fit.delta},
            {"chi2", fit.chi2}, {"dof", fit.dof}};
  }
};
constexpr double kCorrectionExponent = 0.528;
CorrectedNu corrected_nu(const std::vector<double>& n, const std::vector<MeanSem>& rg2) {
  CorrectedNu c;
  try {
    c.fit = corrected_power_fit(n, rg2, kCorrectionExponent);
    c.ok = true;
  } catch (const InputError& e) {
    c.why = e.what();
  }
  return c;
}

}  // namespace

Result analyse_polymer_hydrodynamics(const Context&, const nlohmann::json& data) {
  const nlohmann::json& per_run = data.at("per_run");
  if (per_run.size() != data.at("runs").get<std::size_t>())
    throw_input_error("polymer-hydrodynamics: ", per_run.size(), " repeats recorded, ",
                      data.at("runs").get<std::size_t>(), " expected (a shard missing from --merge?)");
  const bool is_long = data.at("form").get<std::string>() == "long";
  const double eta = data.at("eta_srd_theory").get<double>();
  const double kT = 1.0;

  // Statics: R_g^2 per chain length, each dynamics' repeat a mean over its
  // chains, the repeats of a length (Langevin and SRD sample the same
  // equilibrium, with different spreads) joined by inverse variance.
  std::map<uint32_t, std::pair<double, double>> rg2_by_n;  // sum of w x, sum of w
  for (const auto& r : per_run) {
    const MeanSem m = mean_sem(values(r, "rg2"));
    const double w = 1.0 / (m.sem * m.sem);
    auto& acc = rg2_by_n[r.at("N").get<uint32_t>()];
    acc.first += w * m.mean, acc.second += w;
  }
  std::vector<double> ns_all, rg_all, ns_fit;
  std::vector<MeanSem> rg_fit, rg2_all, rg2_fit;
  for (const auto& [n, acc] : rg2_by_n) {
    const MeanSem s{acc.first / acc.second, 1.0 / std::sqrt(acc.second)};
    const MeanSem rg{std::sqrt(s.mean), s.sem / (2.0 * std::sqrt(s.mean))};
    ns_all.push_back(n);
    rg_all.push_back(rg.mean);
    rg2_all.push_back(s);
    if (n <= 40) ns_fit.push_back(n), rg_fit.push_back(rg), rg2_fit.push_back(s);
  }
  // The effective exponent of a plain power law, and nu from R_g^2 with the
  // leading correction to scaling (README.md, "The exponent nu").
  const PowerFit flory = power_fit(ns_fit, rg_fit);
  const CorrectedNu nu_all = corrected_nu(ns_all, rg2_all);  // the gate's: every length run
  const CorrectedNu nu_fit = corrected_nu(ns_fit, rg2_fit);  // N <= 40 alone, reported

  // Dynamics: D per chain length, Langevin and SRD (box-corrected).
  std::vector<double> ns_rouse, ns_zimm;
  std::vector<MeanSem> d_rouse, d_zimm;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : per_run) {
    const auto n = r.at("N").get<uint32_t>();
    const bool srd = r.at("dynamics").get<std::string>() == "srd";
    MeanSem d = mean_sem(values(r, "D"));
    const double d_box = d.mean;
    const double correction = srd ? periodic_box_correction(kT, eta, r.at("L").get<double>()) : 0.0;
    d.mean += correction;
    const MeanSem rg2 = mean_sem(values(r, "rg2")), rh_inv = mean_sem(values(r, "rh_inv"));
    const double rh = 1.0 / rh_inv.mean;
    nlohmann::json j = {{"N", n}, {"dynamics", srd ? "srd" : "langevin"}, {"chains", r.at("chains")},
                        {"L", r.at("L")}, {"rg2", rg2.mean}, {"rg2_sem", rg2.sem}, {"rh", rh},
                        {"D_box", d_box}, {"D", d.mean}, {"D_sem", d.sem}};
    if (srd) {
      // Kirkwood's non-draining D = kT / (6 pi eta R_h), and Zimm's from R_g.
      j["box_correction"] = correction;
      j["D_kirkwood"] = kT / (6.0 * std::numbers::pi * eta * rh);
      j["D_zimm_rg"] = zimm_diffusion(kT, eta, std::sqrt(rg2.mean));
      if (n <= 40) ns_zimm.push_back(n), d_zimm.push_back(d);
    } else {
      j["D_rouse"] = kT / (data.at("gamma").get<double>() * n);
      if (n <= 40) ns_rouse.push_back(n), d_rouse.push_back(d);
    }
    runs.push_back(j);
  }
  auto negated = [](PowerFit f) {
    f.exponent = -f.exponent;
    return f;
  };

  Result res;
  res.name = "polymer-hydrodynamics";
  bool passed = true, ungated = true;
  nlohmann::json gates = nlohmann::json::array();
  // The bands are the issue's. Each exponent's standard error must be at
  // most a third of its band (long form), so that the band tests the
  // physics and not the noise; the short form's shorter runs get half.
  const double se_share = is_long ? 1.0 / 3.0 : 0.5;
  // nu over every length the form runs (10-80 in the long form, N = 80 under
  // Langevin only), and the corrected law must describe them: chi^2 below
  // its 1% point (Wilson-Hilferty; 6.59 for the long form's one degree of
  // freedom). The short form reports nu without gating it: its runs are too
  // short for SE <= 0.015 (README.md).
  bool nu_ok = true;
  nlohmann::json nu_gate = gate("nu: R_g^2 ~ N^(2 nu) (1 + c N^-0.528), every N", nu_all.nu(), nu_all.se(), 0.588,
                                0.03, 0.03 * se_share, nu_ok);
  const double k = std::max(nu_all.fit.dof, 1), h = 2.0 / (9.0 * k);
  const double chi2_limit = k * std::pow(1.0 - h + 2.3263 * std::sqrt(h), 3);
  const bool chi2_ok = nu_all.ok && (nu_all.fit.dof == 0 || nu_all.fit.chi2 <= chi2_limit);
  nu_gate["chi2"] = nu_all.ok ? nu_all.fit.chi2 : std::nan("");
  nu_gate["dof"] = nu_all.fit.dof;
  nu_gate["chi2_limit"] = chi2_limit;
  nu_gate["nu_effective"] = flory.exponent;  // the plain power law's over N = 10-40, not gated
  nu_gate["passed"] = nu_ok && chi2_ok;
  bool& nu_counts_in = is_long ? passed : ungated;
  nu_counts_in = nu_counts_in && nu_ok && chi2_ok;
  if (!is_long) nu_gate["gated"] = false;
  gates.push_back(nu_gate);
  const PowerFit rouse = negated(power_fit(ns_rouse, d_rouse));
  gates.push_back(gate("nu_D, Langevin (Rouse): D ~ N^-nu_D, N = 10-40", rouse.exponent, rouse.se, 1.0, 0.1,
                       0.1 * se_share, passed));
  PowerFit zimm;
  if (is_long) {
    zimm = negated(power_fit(ns_zimm, d_zimm));
    gates.push_back(gate("nu_D, SRD (Zimm): D + 2.837 kT/(6 pi eta L) ~ N^-nu_D, N = 10-40", zimm.exponent,
                         zimm.se, 0.59, 0.08, 0.08 / 3.0, passed));
  }
  const PowerFit& shown = is_long ? zimm : rouse;
  res.quantity = is_long ? "Zimm exponent nu_D of the chains' diffusion in the SRD solvent"
                         : "Rouse exponent nu_D of the Langevin chains' diffusion";
  res.measured = shown.exponent;
  res.uncertainty = shown.se;
  res.reference = is_long ? 0.59 : 1.0;
  res.tolerance = is_long ? 0.08 : 0.1;
  res.rule = std::string(is_long ? "|nu - 0.588| <= 0.03 (corrected to scaling); " : "") +
             "|nu_D - 1| <= 0.1 (Langevin)" +
             std::string(is_long ? "; |nu_D - 0.59| <= 0.08 (SRD, box-corrected)" : "") +
             "; SE <= " + (is_long ? "a third" : "half") + " of each band (README.md)";
  res.passed = passed;
  res.data = data;
  std::vector<double> d_rouse_mean, d_zimm_mean;
  for (const MeanSem& d : d_rouse) d_rouse_mean.push_back(d.mean);
  for (const MeanSem& d : d_zimm) d_zimm_mean.push_back(d.mean);
  res.data["analysis"] = {
      {"runs", runs},
      {"nu", {{"N", ns_fit}, {"nu", flory.exponent}, {"se", flory.se}, {"prefactor", flory.prefactor}}},
      {"nu_corrected", nu_fit.json(ns_fit)},
      {"nu_corrected_all", nu_all.json(ns_all)},
      {"rg_local_exponents", {{"N", ns_all}, {"nu", local_exponents(ns_all, rg_all)}}},
      {"rouse_local_nu_d", minus(local_exponents(ns_rouse, d_rouse_mean))},
      {"zimm_local_nu_d", ns_zimm.size() > 1 ? minus(local_exponents(ns_zimm, d_zimm_mean)) : std::vector<double>{}}};
  res.data["gates"] = gates;
  return res;
}

}  // namespace meso::validation
