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

// The case column: the table then fits 100 columns with its verdict.
constexpr int kNameColumns = 42;

// A name that fits the column: its end, where the sizes that tell cases apart are.
std::string shown(const std::string& name) {
  return name.size() > std::size_t(kNameColumns) ? "..." + name.substr(name.size() - (kNameColumns - 3)) : name;
}

// A case name without its variant (workload/kind/backend/VARIANT/params...).
std::string without_variant(const std::string& name) {
  std::size_t cut = 0;
  for (int k = 0; k < 3 && cut != std::string::npos; ++k) cut = name.find('/', cut == 0 ? 0 : cut + 1);
  const std::size_t end = cut == std::string::npos ? cut : name.find('/', cut + 1);
  return end == std::string::npos ? name : name.substr(0, cut) + name.substr(end);
}

// The benchmark results of `doc` by the key they are matched on.
std::map<std::string, nlohmann::json> cases_by_key(const nlohmann::json& doc, const std::string& path,
                                                   bool across_variants) {
  std::map<std::string, nlohmann::json> out;
  std::map<std::string, std::string> full;
  for (const auto& r : doc["results"]) {
    const std::string name = r.value("name", "");
    const std::string key = across_variants ? without_variant(name) : name;
    if (!full.emplace(key, name).second)
      throw_input_error("compare: '", path, "': cases '", excerpt(full[key]), "' and '", excerpt(name),
                        "' differ only in their variant: --across-variants cannot tell them apart");
    out[key] = r;
  }
  return out;
}

// How far a run's repeats spread: (max - min) / median, in percent (0 below 2 repeats).
double spread_percent(std::vector<double> x) {
  if (x.size() < 2) return 0.0;
  std::sort(x.begin(), x.end());
  const double median = x.size() % 2 ? x[x.size() / 2] : 0.5 * (x[x.size() / 2 - 1] + x[x.size() / 2]);
  return median > 0.0 ? 100.0 * (x.back() - x.front()) / median : 0.0;
}

struct Verdict {
  std::string word;    // "", "faster", "REGRESSION" or "inconclusive"
  std::string reason;  // why inconclusive
};

// A change beyond the threshold is a verdict only when the U test rejects at
// alpha and the change exceeds the runs' own spread.
Verdict judge(double change, double p, double spread, std::size_t fewest_repeats, const CompareOptions& o) {
  if (std::fabs(change) <= o.threshold_percent) return {};
  if (std::isnan(p)) return {"inconclusive", "fewer than 3 repeats a side, no U test (run --repeats 5)"};
  if (p >= o.alpha)
    return {"inconclusive", "p(U) = " + fmt("%.3f", p) + " >= alpha " + fmt("%g", o.alpha) +
                                (fewest_repeats < 5 ? " (more repeats: run --repeats 5 or more)" : "")};
  if (std::fabs(change) <= spread)
    return {"inconclusive", "the change is within the repeats' spread of " + fmt("%.1f", spread) + "%"};
  return {change < 0.0 ? "REGRESSION" : "faster", ""};
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
  if (!(o.alpha > 0.0 && o.alpha < 1.0))
    throw_input_error("compare: --alpha = ", o.alpha, " is invalid: a significance level, above 0 and below 1");
  return compare_results(load(o.a), load(o.b), o);
}

int compare_results(const nlohmann::json& A, const nlohmann::json& B, const CompareOptions& o) {
  if (kind(A) != kind(B))
    throw_input_error("compare: '", o.a, "' is a ", kind(A), " result and '", o.b, "' a ", kind(B),
                      " result; compare like with like");
  int regressions = 0, inconclusive = 0, only = 0, common = 0;
  if (kind(A) == "benchmark") {
    const auto a = cases_by_key(A, o.a, o.across_variants), b = cases_by_key(B, o.b, o.across_variants);
    std::printf("%-*s %10s %10s %6s %7s %6s  %s\n", kNameColumns, "case", "TPS A", "TPS B", "B/A", "change", "p(U)",
                "verdict");
    std::vector<std::string> reasons;
    for (const auto& [name, ra] : a) {
      const auto it = b.find(name);
      if (it == b.end()) {
        std::printf("%-*s only in A\n", kNameColumns, shown(name).c_str());
        ++only;
        continue;
      }
      const double ta = number(ra, "tps_median", name, o.a, 0.0), tb = number(it->second, "tps_median", name, o.b, 0.0);
      if (!(ta > 0.0)) throw_input_error("compare: case '", excerpt(name), "' in '", o.a, "' has no positive tps_median");
      ++common;
      const std::vector<double> xa = repeats(ra, name, o.a), xb = repeats(it->second, name, o.b);
      const double ratio = tb / ta, change = 100.0 * (ratio - 1.0);
      const double p = mann_whitney_p(xa, xb);
      const Verdict v =
          judge(change, p, std::max(spread_percent(xa), spread_percent(xb)), std::min(xa.size(), xb.size()), o);
      regressions += v.word == "REGRESSION";
      if (v.word == "inconclusive") {
        ++inconclusive;
        reasons.push_back(shown(name) + ": " + v.reason);
      }
      std::printf("%-*s %10s %10s %6.3f %+6.1f%% %6s%s%s\n", kNameColumns, shown(name).c_str(),
                  fmt(ta >= 100.0 ? "%.1f" : "%.4g", ta).c_str(), fmt(tb >= 100.0 ? "%.1f" : "%.4g", tb).c_str(), ratio,
                  change, std::isnan(p) ? "n/a" : fmt("%.3f", p).c_str(), v.word.empty() ? "" : "  ", v.word.c_str());
    }
    for (const auto& [name, rb] : b)
      if (!a.count(name)) {
        std::printf("%-*s only in B\n", kNameColumns, shown(name).c_str());
        ++only;
      }
    if (!reasons.empty()) std::printf("\ninconclusive (beyond %.1f%%, but not told from noise):\n", o.threshold_percent);
    for (const auto& r : reasons) std::printf("  %s\n", r.c_str());
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
  std::printf("\n%d regression(s) beyond %.1f%% at alpha %.3g%s%s\n", regressions, o.threshold_percent, o.alpha,
              inconclusive ? (", " + std::to_string(inconclusive) + " inconclusive").c_str() : "",
              only ? (", " + std::to_string(only) + " case(s) in one file only").c_str() : "");
  return regressions ? kExitRegression : 0;
}

}  // namespace meso::bench
