#include "report.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "meso/error.hpp"
#include "meso/io/durable_file.hpp"

namespace meso::bench {

nlohmann::json to_json(const Provenance& p) {
  return {{"git_commit", p.git_commit}, {"compiler", p.compiler},     {"build_type", p.build_type},
          {"cpu_model", p.cpu_model},   {"cpu_threads", p.cpu_threads}, {"gpu_model", p.gpu_model},
          {"gpu_driver", p.gpu_driver}, {"date_utc", p.date_utc},     {"hostname", p.hostname},
          {"mesobench_version", p.version}};
}

nlohmann::json result_document(const char* kind, const Provenance& p) {
  return {{"kind", kind}, {"schema_version", kResultsSchemaVersion}, {"provenance", to_json(p)}};
}

nlohmann::json to_json(const BenchResult& r) {
  const auto& f = r.bench.fluid;
  const auto& run = r.bench.run;
  nlohmann::json params;
  if (r.bench.mpcd) {
    const auto& m = r.bench.solvent;
    params = {{"solvent", "mpcd"}, {"rule", to_string(m.rule)}, {"L", r.bench.srd.L},
              {"rho", r.bench.srd.rho}, {"a", m.cell_size}, {"mass", m.mass}, {"kT", m.kT},
              {"angle_deg", m.angle_deg}, {"dt", m.dt}, {"grid_shift", m.grid_shift},
              {"thermostat", m.thermostat}, {"seed", r.bench.srd.seed},
              {"box", {r.box[0], r.box[1], r.box[2]}}};
  } else if (r.bench.style == PairStyle::none) {
    const DppcBilayerParams d = r.bench.dppc_params();
    uint32_t gx = 0, gy = 0, gz = 0;
    MdscfField::grid_for(Box(d.lx, d.ly, d.lz), d.grid_spacing, gx, gy, gz);
    const double rho = double(r.n) / (d.lx * d.ly * d.lz);  // mean bead density (nm^-3)
    params = {{"pair_style", "none"}, {"model", "DPPC/water MD-SCF (REFERENCES.md)"}, {"rho", rho},
              {"units", DppcUnits::describe()}, {"lipids", d.lipids}, {"waters", d.waters},
              {"replicate", r.bench.replicate}, {"kelvin", d.kelvin}, {"kT", DppcUnits::kT(d.kelvin)},
              {"grid", {gx, gy, gz}}, {"grid_spacing_target_nm", d.grid_spacing},
              {"filter_sigma_nm", d.filter_sigma}, {"update_every", d.update_every}, {"grid_shift", d.grid_shift}, {"kappa_mol_per_kj", d.kappa},
              {"rho0_per_nm3", d.rho0}, {"seed", d.seed}, {"dt", run.dt}, {"dt_ps", run.dt * DppcUnits::time_ps()},
              {"integrator", to_string(run.integrator)}, {"langevin_gamma", run.gamma},
              {"box", {r.box[0], r.box[1], r.box[2]}}};
  } else if (r.bench.style == PairStyle::lj) {
    const auto& l = r.bench.lj;
    params = {{"pair_style", "lj"}, {"rho", l.density()}, {"packing_fraction", l.packing_fraction},
              {"kT", l.kT}, {"epsilon", l.epsilon}, {"sigma", l.sigma}, {"rc", l.rcut},
              {"mode", to_string(l.mode)}, {"mass", l.mass}, {"seed", l.seed}, {"dt", run.dt},
              {"skin", run.skin}, {"rebuild_every", run.rebuild_every},
              {"integrator", to_string(run.integrator)}, {"thermostat_kT", run.kT}, {"tau", run.tau},
              {"box", {r.box[0], r.box[1], r.box[2]}}};
    if (l.mode == physics::LjMode::xplor) params["ron"] = l.ron;
  } else params = {{"rho", f.rho},   {"a", f.a},          {"gamma", f.gamma},
                           {"kT", f.kT},     {"rc", f.rcut},      {"s", f.s},
                           {"mass", f.mass}, {"seed", f.seed},    {"dt", run.dt},
                           {"skin", run.skin}, {"rebuild_every", run.rebuild_every},
                           {"integrator", to_string(run.integrator)},
                           {"box", {r.box[0], r.box[1], r.box[2]}}};
  if (r.bench.style == PairStyle::dpd && run.integrator == Integrator::groot_warren) params["lambda"] = run.lambda;
  if (r.bench.style == PairStyle::dpd && f.types > 1) params["types"] = f.types;
  return {{"name", r.name},
          {"workload", r.bench.workload},
          {"kernel", r.bench.kernel},
          {"backend", r.backend},
          {"variant_requested", r.variant_requested},
          {"variant_default", r.variant_default},
          {"variant_given", r.variant_given},
          {"variant", r.variant_effective},
          {"variant_ignored_axes", r.variant_ignored},
          {"N", r.n},
          {"parameters", params},
          {"steps_per_repeat", r.steps_per_repeat},
          {"repeats", r.tps.size()},
          {"tps", r.tps},
          {"tps_median", r.tps_median},
          {"tps_min", r.tps_min},
          {"tps_max", r.tps_max},
          {"mps_median", r.mps_median},
          {"setup_seconds", r.setup_seconds},
          {"neighbor_list",
           {{"builds", r.neighbors.builds},
            {"dangerous_builds", r.neighbors.dangerous_builds},
            {"capacity", r.neighbors.capacity},
            {"max_neighbors", r.neighbors.max_neighbors},
            {"mean_neighbors", r.neighbors.mean_neighbors}}},
          {"final_thermo",
           {{"step", r.final_thermo.step},
            {"temperature", r.final_thermo.temperature},
            {"pressure", r.final_thermo.pressure},
            {"potential_energy_per_particle",
             r.final_thermo.potential_energy / static_cast<double>(r.n)}}},
          {"device", r.device}};
}

void print_table(const std::vector<BenchResult>& results) {
  std::size_t w = 4;
  for (const auto& r : results) w = std::max(w, r.name.size());
  std::cout << std::left << std::setw(static_cast<int>(w)) << "name" << "  " << std::setw(7)
            << "backend" << std::right << std::setw(10) << "N" << std::setw(12) << "TPS"
            << std::setw(21) << "TPS min..max" << std::setw(11) << "MPS/s" << '\n';
  std::cout << std::string(w + 63, '-') << '\n';
  for (const auto& r : results) {
    std::ostringstream spread;
    spread << std::fixed << std::setprecision(1) << r.tps_min << ".." << r.tps_max;
    std::cout << std::left << std::setw(static_cast<int>(w)) << r.name << "  " << std::setw(7)
              << r.backend << std::right << std::setw(10) << r.n << std::fixed
              << std::setprecision(1) << std::setw(12) << r.tps_median << std::setw(21)
              << spread.str() << std::setprecision(2) << std::setw(11) << r.mps_median << '\n';
  }
  std::cout.unsetf(std::ios::floatfield);
}

void write_json_atomically(const std::string& path, const nlohmann::json& doc) {
  io::write_file_durably(path, doc.dump(2) + "\n");
}

}  // namespace meso::bench
