// Result output: a fixed-width table on stdout and JSON files with provenance.
// JSON is written to a temporary file and renamed into place, so a failed or
// interrupted run never leaves a half-written result.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meso/run/provenance.hpp"
#include "runner.hpp"

namespace meso::bench {

// The version of docs/results.schema.json that the files written here follow.
constexpr int kResultsSchemaVersion = 1;

nlohmann::json to_json(const Provenance& p);
// What every result file starts with: its kind ("benchmark", "validation";
// docs/results.md), the schema version and the provenance.
nlohmann::json result_document(const char* kind, const Provenance& p);
nlohmann::json to_json(const BenchResult& r);

void print_table(const std::vector<BenchResult>& results);
// What ran where, before the results of `run` and `validate`: the version,
// commit and build, the backend, the CPU and the GPU (two lines of at most
// 100 columns).
void print_provenance_header(const Provenance& p, const std::string& backend);

// Writes `doc` to `path` durably (io::write_file_durably: a temporary file,
// fsync, rename). Check the path first with output_paths.hpp.
void write_json_atomically(const std::string& path, const nlohmann::json& doc);

}  // namespace meso::bench
