// `mesobench report DIR [-o OUT]`: turns a results directory into figures and
// one Markdown page linking them, by running scripts/report_results.py (the
// matplotlib scripts) with python3. What the figures show and which files
// feed each is documented in docs/results.md.
#pragma once

#include <string>

namespace meso::bench {

struct ReportOptions {
  std::string dir;
  std::string out = "mesobench-report";
  bool force = false;  // replace an earlier report whose report.json or files it did not write as they are
};

// Exit codes: 0 written; 2 (input error, thrown as InputError) when DIR does
// not exist or holds no results, when OUT is an unrelated non-empty
// directory, or when python3 or matplotlib is missing; the script's own
// code otherwise.
int cmd_report(const ReportOptions& o);

}  // namespace meso::bench
