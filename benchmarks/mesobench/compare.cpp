#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "meso/core/error.hpp"
#include "meso/io/input_file.hpp"
#include "report.hpp"

namespace meso::bench {

namespace {

nlohmann::json load(const std::string& path) {
  std::ifstream in = io::open_input_file(path, "compare: result file");
  return read_results(in, path);
}

std::string kind(const nlohmann::json& j) { return j.contains("results") ? "benchmark" : "validation"; }

// A number field of case `name` in `path`, or InputError naming both.
double number(const nlohmann::json& c, const char* field, const std::string& name, const std::string& path,
              double fallback) {
  if (!c.contains(field)) return fallback;
  if (!c[field].is_number())
    throw_input_error("compare: case '", excerpt(name), "' in '", path, "': \"", field, "\" is ", excerpt(c[field].dump()),
                      ", not a number");
  return c[field].get<double>();
}

// The verdict of validation case `name` in `path`: absent is not passed, and
// anything but true or false is refused (json's value() would throw a
// type_error, an internal error, on "passed": 0.001).
bool passed(const nlohmann::json& c, const std::string& name, const std::string& path) {
  if (!c.contains("passed")) return false;
  if (!c["passed"].is_boolean())
    throw_input_error("compare: case '", excerpt(name), "' in '", path, "': \"passed\" is ",
                      excerpt(c["passed"].dump()), ", not true or false");
  return c["passed"].get<bool>();
}

std::vector<double> repeats(const nlohmann::json& r, const std::string& name, const std::string& path) {
  std::vector<double> v;
  if (r.contains("tps") && r["tps"].is_array())
    for (const auto& x : r["tps"]) {
      if (!x.is_number())
        throw_input_error("compare: case '", excerpt(name), "' in '", path, "': \"tps\" holds ", excerpt(x.dump()),
                          ", not a number");
      v.push_back(x.get<double>());
    }
  return v;
}

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

}  // namespace

double mann_whitney_p(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n1 = x.size(), n2 = y.size();
  if (n1 < 3 || n2 < 3) return std::numeric_limits<double>::quiet_NaN();
  std::vector<std::pair<double, int>> all;
  for (double v : x) all.emplace_back(v, 0);
  for (double v : y) all.emplace_back(v, 1);
  std::sort(all.begin(), all.end());
  // Mid-ranks for ties, and the tie correction sum (t^3 - t).
  const std::size_t n = all.size();
  double r1 = 0.0, ties = 0.0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && all[j].first == all[i].first) ++j;
    const double rank = 0.5 * double(i + 1 + j);  // mean of ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k)
      if (all[k].second == 0) r1 += rank;
    const double t = double(j - i);
    ties += t * t * t - t;
    i = j;
  }
  const double u1 = r1 - double(n1) * double(n1 + 1) / 2.0;
  const double mu = double(n1) * double(n2) / 2.0;
  const double N = double(n);
  const double var = double(n1) * double(n2) / 12.0 * ((N + 1.0) - ties / (N * (N - 1.0)));
  if (!(var > 0.0)) return 1.0;  // every value equal
  const double z = (std::fabs(u1 - mu) - 0.5) / std::sqrt(var);
  return std::min(1.0, std::erfc(std::max(z, 0.0) / std::sqrt(2.0)));
}

// A result file, checked before anything is compared: compare must never
// pass silently (a CI gate on it would pass with nothing compared).
nlohmann::json read_results(std::istream& in, const std::string& path) {
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw_input_error("compare: '", path, "' is not valid JSON (", excerpt(e.what(), 200), ")");
  }
  // One document: a second one (two results concatenated) would be ignored.
  in >> std::ws;
  if (in.peek() != std::char_traits<char>::eof())
    throw_input_error("compare: '", path, "' holds more than one JSON document (more text after the first, at byte ",
                      static_cast<long long>(in.tellg()), "): give one result file");
  if (!j.is_object() || !(j.contains("results") || j.contains("cases")))
    throw_input_error("compare: '", path,
                      "' is neither a benchmark result (\"results\") nor a validation result (\"cases\")");
  const char* list = j.contains("results") ? "results" : "cases";
  const std::string kind = j.contains("results") ? "benchmark" : "validation";
  if (j.contains("kind") && !(j["kind"].is_string() && j["kind"].get<std::string>() == kind))
    throw_input_error("compare: '", path, "': \"kind\" is ", excerpt(j["kind"].dump()), " but the file holds \"", list,
                      "\" (kind \"", kind, "\")");
  if (j.contains("schema_version") &&
      !(j["schema_version"].is_number_integer() && j["schema_version"].get<int64_t>() >= 1 &&
        j["schema_version"].get<int64_t>() <= kResultsSchemaVersion))
    throw_input_error("compare: '", path, "': \"schema_version\" ", excerpt(j["schema_version"].dump()),
                      " is not one this mesobench reads (1 .. ", kResultsSchemaVersion, ")");
  const nlohmann::json& v = j[list];
  if (!v.is_array() || v.empty())
    throw_input_error("compare: '", path, "': \"", list, "\" holds no case: nothing to compare");
  std::map<std::string, int> seen;
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (!v[k].is_object() || !v[k].contains("name") || !v[k]["name"].is_string() ||
        v[k]["name"].get<std::string>().empty())
      throw_input_error("compare: '", path, "': ", list, "[", k, "] has no \"name\"");
    if (seen[v[k]["name"].get<std::string>()]++)
      throw_input_error("compare: '", path, "': case '", excerpt(v[k]["name"].get<std::string>()),
                        "' appears twice");
  }
  return j;
}

int cmd_compare(const CompareOptions& o) {
  // A percent drop of the median: above 100 no regression could count.
  if (!(o.threshold_percent >= 0.0 && o.threshold_percent <= 100.0))
    throw_input_error("compare: --threshold = ", o.threshold_percent,
                      " is invalid: a percent drop of the median TPS, 0 to 100");
  return compare_results(load(o.a), load(o.b), o);
}

int compare_results(const nlohmann::json& A, const nlohmann::json& B, const CompareOptions& o) {
  if (kind(A) != kind(B))
    throw_input_error("compare: '", o.a, "' is a ", kind(A), " result and '", o.b, "' a ", kind(B),
                      " result; compare like with like");
  int regressions = 0, only = 0, common = 0;
  if (kind(A) == "benchmark") {
    std::map<std::string, nlohmann::json> a, b;
    for (const auto& r : A["results"]) a[r.value("name", "")] = r;
    for (const auto& r : B["results"]) b[r.value("name", "")] = r;
    std::printf("%-60s %12s %12s %8s %8s %7s\n", "case", "TPS A", "TPS B", "B/A", "change", "p(U)");
    for (const auto& [name, ra] : a) {
      const auto it = b.find(name);
      if (it == b.end()) {
        std::printf("%-60s only in A\n", name.c_str());
        ++only;
        continue;
      }
      const double ta = number(ra, "tps_median", name, o.a, 0.0), tb = number(it->second, "tps_median", name, o.b, 0.0);
      if (!(ta > 0.0)) throw_input_error("compare: case '", excerpt(name), "' in '", o.a, "' has no positive tps_median");
      ++common;
      const double ratio = tb / ta, change = 100.0 * (ratio - 1.0);
      const double p = mann_whitney_p(repeats(ra, name, o.a), repeats(it->second, name, o.b));
      const bool regressed = change < -o.threshold_percent;
      regressions += regressed;
      std::string shown = name.size() > 60 ? "..." + name.substr(name.size() - 57) : name;
      std::printf("%-60s %12.1f %12.1f %8.3f %+7.1f%% %7s%s\n", shown.c_str(), ta, tb, ratio, change,
                  std::isnan(p) ? "n/a" : fmt("%.3f", p).c_str(), regressed ? "  REGRESSION" : "");
    }
    for (const auto& [name, rb] : b)
      if (!a.count(name)) {
        std::printf("%-60s only in B\n", name.c_str());
        ++only;
      }
  } else {
    std::map<std::string, nlohmann::json> a, b;
    for (const auto& c : A["cases"]) a[c.value("name", "")] = c;
    for (const auto& c : B["cases"]) b[c.value("name", "")] = c;
    std::printf("%-28s %14s %14s %6s %6s\n", "case", "measured A", "measured B", "A", "B");
    for (const auto& [name, ca] : a) {
      const auto it = b.find(name);
      if (it == b.end()) {
        std::printf("%-28s only in A\n", name.c_str());
        ++only;
        continue;
      }
      ++common;
      const bool pa = passed(ca, name, o.a), pb = passed(it->second, name, o.b);
      const bool regressed = pa && !pb;
      regressions += regressed;
      std::printf("%-28s %14.6g %14.6g %6s %6s%s\n", name.c_str(), number(ca, "measured", name, o.a, 0.0),
                  number(it->second, "measured", name, o.b, 0.0), pa ? "PASS" : "FAIL", pb ? "PASS" : "FAIL",
                  regressed ? "  REGRESSION" : "");
    }
    for (const auto& [name, cb] : b)
      if (!a.count(name)) {
        std::printf("%-28s only in B\n", name.c_str());
        ++only;
      }
  }
  if (common == 0)
    throw_input_error("compare: '", o.a, "' and '", o.b, "' have no case in common: nothing was compared");
  std::printf("\n%d regression(s) beyond %.1f%%%s\n", regressions, o.threshold_percent,
              only ? (", " + std::to_string(only) + " case(s) in one file only").c_str() : "");
  return regressions ? kExitRegression : 0;
}

}  // namespace meso::bench
