// `mesobench compare A.json B.json [--threshold P]`: per-case comparison of
// two result files (Google Benchmark's tools/compare.py for mesobench's JSON).
//
// Benchmark results ({"results": [...]}, from `run`): cases matched by name
// (with --across-variants, by name without its variant part), the ratio of
// median steps per second B / A, the change in percent, and a two-sided
// Mann-Whitney U test on the repeats (normal approximation with tie
// correction; "n/a" below 3 repeats a side). A change beyond P percent is a
// verdict only when the data can tell it from noise: REGRESSION (or faster)
// when the U test rejects at alpha and the change exceeds the larger spread
// (max - min over the median) of the two runs' repeats; otherwise
// "inconclusive", with the reason. Only a REGRESSION counts for the exit code:
// two runs of one build on a shared machine differ by more than 5% at times,
// by load, not by code.
// Validation results ({"cases": [...]}, from `validate`): the measured value
// of each case in A and B and its verdict; PASS in A and FAIL in B is a
// regression. Cases present in one file only are listed, not counted.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace meso::bench {

struct CompareOptions {
  std::string a, b;
  double threshold_percent = 5.0;
  double alpha = 0.05;           // the U test's significance level
  bool across_variants = false;  // match benchmark cases by name without the variant
};

// Exit code when at least one case regressed significantly beyond the threshold.
constexpr int kExitRegression = 4;

// Prints the table; returns 0, or kExitRegression. Unreadable or
// unrecognised files are input errors naming the file.
int cmd_compare(const CompareOptions& o);

// The checks cmd_compare makes of one file, on its text (`path` names it in
// the messages): InputError unless it is a JSON object with a non-empty
// "results" or "cases" list of uniquely named cases, a matching "kind" and
// a "schema_version" this mesobench reads.
nlohmann::json read_results(std::istream& in, const std::string& path);
// The comparison of two documents read_results accepted (o.a and o.b name
// them): prints the table, returns 0 or kExitRegression.
int compare_results(const nlohmann::json& A, const nlohmann::json& B, const CompareOptions& o);

// Two-sided p-value of the Mann-Whitney U test of samples x and y (normal
// approximation with continuity and tie correction); NaN when either has
// fewer than 3 values.
double mann_whitney_p(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace meso::bench
