#include "report.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "meso/core/error.hpp"
#include "meso/io/durable_file.hpp"

namespace meso::bench {

nlohmann::json to_json(const Provenance& p) {
  return {{"git_commit", p.git_commit}, {"compiler", p.compiler},     {"build_type", p.build_type},
          {"cpu_model", p.cpu_model},   {"cpu_threads", p.cpu_threads}, {"gpu_model", p.gpu_model},
          {"gpu_driver", p.gpu_driver}, {"date_utc", p.date_utc},     {"hostname", p.hostname},
          {"mesobench_version", p.version}, {"diagnostics", p.diagnostics}};
}

nlohmann::json result_document(const char* kind, const Provenance& p) {
  return {{"kind", kind}, {"schema_version", kResultsSchemaVersion}, {"provenance", to_json(p)}};
}

nlohmann::json to_json(const BenchResult& r) {
  const nlohmann::json params = r.bench.parameters_json(r.box);
  return {{"name", r.name},
          {"workload", r.bench.workload_name()},
          {"kernel", r.bench.kernel()},
          {"backend", r.backend},
          {"variant_requested", r.variant_requested},
          {"variant_default", r.variant_default},
          {"variant_given", r.variant_given},
          {"variant", r.variant_effective},
          {"variant_ignored_axes", r.variant_ignored},
          {"variant_tuned", r.variant_tuned},
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
            {"mean_neighbors", r.neighbors.mean_neighbors},
            {"prunes", r.neighbors.prunes},
            {"outer_capacity", r.neighbors.outer_capacity}}},
          {"final_thermo",
           {{"step", r.final_thermo.step},
            {"temperature", r.final_thermo.temperature},
            {"pressure", r.final_thermo.pressure},
            {"potential_energy_per_particle",
             r.final_thermo.potential_energy / static_cast<double>(r.n)}}},
          {"device", r.device}};
}

void print_table(const std::vector<BenchResult>& results) {
  // 100 columns: the case's label (BenchCase::label; the full name is in
  // the JSON), then the figures. A label wider than its column gets a line
  // of its own, the figures the next.
  constexpr std::size_t kFigures = 54, kWidth = 100;
  std::size_t w = 4;
  for (const auto& r : results) w = std::max(w, r.label.size());
  w = std::min(w, kWidth - kFigures);
  std::cout << std::left << std::setw(static_cast<int>(w)) << "case" << "  " << std::setw(7) << "backend"
            << std::right << std::setw(9) << "N" << std::setw(9) << "TPS" << std::setw(19) << "TPS min..max"
            << std::setw(8) << "MPS/s" << '\n';
  std::cout << std::string(w + kFigures, '-') << '\n';
  for (const auto& r : results) {
    std::string label = r.label;
    if (label.size() > w) {
      std::cout << (label.size() <= kWidth ? label : label.substr(0, kWidth - 1) + "~") << '\n';
      label.clear();
    }
    std::ostringstream spread;
    spread << std::fixed << std::setprecision(1) << r.tps_min << ".." << r.tps_max;
    std::cout << std::left << std::setw(static_cast<int>(w)) << label << "  " << std::setw(7) << r.backend
              << std::right << std::setw(9) << r.n << std::fixed << std::setprecision(1) << std::setw(9)
              << r.tps_median << std::setw(19) << spread.str() << std::setprecision(2) << std::setw(8)
              << r.mps_median << '\n';
  }
  std::cout.unsetf(std::ios::floatfield);
}

void print_provenance_header(const Provenance& p, const std::string& backend) {
  auto cut = [](std::string s) { return s.size() <= 100 ? s : s.substr(0, 99) + "~"; };
  std::cout << cut("mesobench " + p.version + " (" + p.git_commit + ", " + p.build_type + ")  backend " + backend)
            << '\n'
            << cut("CPU: " + p.cpu_model + " x" + std::to_string(p.cpu_threads) +
                   " threads  GPU: " + (p.gpu_model.empty() ? "none" : p.gpu_model))
            << "\n\n";
}

void write_json_atomically(const std::string& path, const nlohmann::json& doc) {
  io::write_file_durably(path, doc.dump(2) + "\n");
}

}  // namespace meso::bench
