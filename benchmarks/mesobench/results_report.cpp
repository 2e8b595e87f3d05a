#include "results_report.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <vector>

#include "meso/core/error.hpp"

namespace meso::bench {
namespace {

namespace fs = std::filesystem;

// The scripts of the source tree this binary was built from; MESO_SCRIPTS_DIR
// overrides it (an installed copy, or a test of other scripts).
std::string scripts_dir() {
  if (const char* env = std::getenv("MESO_SCRIPTS_DIR"); env && *env) return env;
  return MESO_SCRIPTS_DIR;
}

bool is_result_file(const fs::path& p) {
  const std::string name = p.filename().string();
  auto ends = [&](const std::string& s) { return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0; };
  return ends(".json") || ends(".json.xz") || ends(".json.gz");
}

bool holds_results(const fs::path& dir) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && is_result_file(it->path())) return true;
  return false;
}

// Runs argv (argv[0] looked up on PATH) and returns its exit code; -1 when
// it could not be started.
int run_program(const std::vector<std::string>& args, bool silent) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (silent) {
      std::freopen("/dev/null", "w", stdout);
      std::freopen("/dev/null", "w", stderr);
    }
    ::execvp(argv[0], argv.data());
    std::_Exit(127);
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

int cmd_report(const ReportOptions& o) {
  const fs::path dir(o.dir);
  if (!fs::exists(dir)) throw_input_error("report: results directory '", o.dir, "' does not exist");
  if (!fs::is_directory(dir)) throw_input_error("report: '", o.dir, "' is not a directory");
  if (!holds_results(dir))
    throw_input_error("report: '", o.dir, "' holds no results (no *.json or *.json.xz file below it)");
  // What -o may be (new, empty, or an earlier report, whose files alone are
  // replaced) is decided by the script, which also serves users directly.
  if (o.out.empty()) throw_input_error("report: -o '' is invalid: give an output directory");
  const std::string script = scripts_dir() + "/report_results.py";
  if (!fs::exists(script)) throw_input_error("report: the report script '", script, "' is missing (MESO_SCRIPTS_DIR)");
  const int probe = run_program({"python3", "-c", "import matplotlib, numpy"}, true);
  if (probe == 127 || probe < 0)
    throw_input_error("report: python3 is not on PATH; scripts/install-deps.sh installs it with matplotlib");
  if (probe != 0)
    throw_input_error("report: python3 cannot import matplotlib and numpy; scripts/install-deps.sh installs them");
  std::vector<std::string> args{"python3", script, o.dir, "-o", o.out};
  if (o.force) args.push_back("--force");
  const int rc = run_program(args, false);
  if (rc < 0) throw std::runtime_error("report: could not start python3");
  return rc;
}

}  // namespace meso::bench
