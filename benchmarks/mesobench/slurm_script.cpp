#include "slurm_script.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <vector>

#include "case_filter.hpp"
#include "meso/core/error.hpp"
#include "meso/io/durable_file.hpp"
#include "scale_launch.hpp"

namespace fs = std::filesystem;

namespace meso::bench {
namespace {

constexpr const char* kTimeFormats = "formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S (e.g. 00:30:00, 1-12)";

// An argument of an #SBATCH line: sbatch splits those lines at blanks,
// takes "..." as one argument, a backslash as an escape and an unquoted #
// as the start of a comment.
std::string sbatch_quote(const std::string& s) {
  if (plain_word(s)) return s;
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\' || ch == '#') q += '\\';
    q += ch;
  }
  return q + "\"";
}

// A file name for Slurm's --output: % starts a replacement pattern there.
std::string slurm_file_name(const std::string& path) {
  std::string out;
  for (char ch : path) out += ch == '%' ? std::string("%%") : std::string(1, ch);
  return out;
}

std::string describe_char(char ch) {
  if (ch == '\n') return "a newline";
  if (ch == '\r') return "a carriage return";
  if (ch == ' ') return "a space";
  if (ch == '\t') return "a tab";
  if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return "a control character";
  return std::string("'") + ch + "'";
}

struct Script {
  std::string name, text;
};

}  // namespace

void check_slurm_time(const std::string& option, const std::string& value) {
  auto refuse = [&](const std::string& why) {
    throw_input_error(option, " '", shown_value(value, 40), "' is not a Slurm time limit:\n  ", why, "; ",
                      kTimeFormats);
  };
  if (value.empty()) refuse("it is empty");
  if (const std::size_t bad = value.find_first_not_of("0123456789:-"); bad != std::string::npos)
    refuse("it holds " + describe_char(value[bad]));
  std::string rest = value;
  bool days = false;
  if (const std::size_t dash = value.find('-'); dash != std::string::npos) {
    days = true;
    rest = value.substr(dash + 1);
    if (dash == 0 || dash > 8 || value.find_first_not_of("0123456789") < dash)
      refuse("the days before '-' are not a number");
  }
  std::vector<std::string> fields;
  std::stringstream ss(rest);
  for (std::string f; std::getline(ss, f, ':');) fields.push_back(f);
  if (!rest.empty() && rest.back() == ':') fields.push_back("");
  if (fields.empty() || fields.size() > 3) refuse("it has " + std::to_string(fields.size()) + " fields");
  // The fields' names, by their count; every field after the first, and
  // every field after days, has a range.
  static const std::vector<std::string> plain[] = {{"minutes"}, {"minutes", "seconds"},
                                                   {"hours", "minutes", "seconds"}};
  static const std::vector<std::string> with_days[] = {{"hours"}, {"hours", "minutes"},
                                                       {"hours", "minutes", "seconds"}};
  const std::vector<std::string>& names = (days ? with_days : plain)[fields.size() - 1];
  bool all_zero = days ? value.substr(0, value.find('-')).find_first_not_of('0') == std::string::npos : true;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (f.empty() || f.size() > 8 || f.find_first_not_of("0123456789") != std::string::npos)
      refuse("the " + names[i] + " '" + shown_value(f, 12) + "' are not a number");
    const long v = std::stol(f);
    const long limit = names[i] == "hours" ? 24 : 60;
    if ((i > 0 || days) && v >= limit)
      refuse("the " + names[i] + " " + f + " are not below " + std::to_string(limit));
    all_zero = all_zero && v == 0;
  }
  if (all_zero) refuse("it is zero");
}

void check_slurm_name(const std::string& option, const std::string& value) {
  const std::size_t bad = value.find_first_not_of(
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,");
  if (bad != std::string::npos)
    throw_input_error(option, " '", shown_value(value, 40), "' is not a Slurm name:\n  it holds ",
                      describe_char(value[bad]), "; letters, digits and _ - . , only");
  if (value.size() > 200)
    throw_input_error(option, " '", shown_value(value, 40), "' is not a Slurm name:\n  ", value.size(),
                      " characters long; at most 200");
}

void write_slurm(const ScaleOptions& o) {
  check_slurm_time("--time", o.time_limit);
  check_slurm_name("--partition", o.partition);
  check_slurm_name("--account", o.account);
  const fs::path abs_dir = fs::absolute(o.emit_dir).lexically_normal();
  if (std::any_of(o.emit_dir.begin(), o.emit_dir.end(),
                  [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f; }) ||
      std::any_of(abs_dir.native().begin(), abs_dir.native().end(),
                  [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f; }))
    throw_input_error("--emit slurm '", shown_value(o.emit_dir), "': the path holds a control character (a newline?)");

  // The launcher of the points: srun, or mpirun (--mpirun's words, then
  // -np R, then --mpirun-args' words, as a local sweep starts them). An
  // --mpirun or --mpirun-args the scripts would not use is refused.
  if (o.mpirun_given && o.launcher != "mpirun")
    throw_input_error("--mpirun and --mpirun-args start the points of a local sweep, or of the scripts with ",
                      "--launcher mpirun:\n  the scripts start them with ", o.launcher, "; add --launcher mpirun");
  const std::vector<std::string> mpirun = split_words("--mpirun", o.mpirun);
  const std::vector<std::string> mpirun_args = split_words("--mpirun-args", o.mpirun_args);
  if (o.launcher == "mpirun" && mpirun.empty())
    throw_input_error("--mpirun is empty: give the MPI launcher, e.g. --mpirun mpirun");
  auto launch = [&](int r) -> std::vector<std::string> {
    if (o.launcher == "srun") return {"srun", "--ntasks=" + std::to_string(r)};
    std::vector<std::string> words = mpirun;
    words.insert(words.end(), {"-np", std::to_string(r)});
    words.insert(words.end(), mpirun_args.begin(), mpirun_args.end());
    return words;
  };

  const bool gpu = o.backend == "cuda";
  const int gpt = o.gpus_per_task >= 0 ? o.gpus_per_task : (gpu ? 1 : 0);
  std::vector<Script> scripts;
  std::ostringstream all;
  all << "#!/bin/bash\n# Submits every point of the sweep, then the summary once they ended.\n"
      << "# Written by: mesobench scale --emit slurm " << shell_quote(o.emit_dir) << "\nset -euo pipefail\n"
      << "cd \"$(dirname \"$0\")\"\njobs=()\n";
  for (int r : o.ranks) {
    const int tpn = o.tasks_per_node > 0 ? o.tasks_per_node : (gpu ? std::min(r, 4) : r);
    const int nodes = (r + tpn - 1) / tpn;
    const std::string name = "point-r" + std::to_string(r);
    const std::string json_path = (abs_dir / (name + ".json")).string();
    std::ostringstream f;
    f << "#!/bin/bash\n"
      << "#SBATCH --job-name=" << sbatch_quote("mesobench-" + o.mode + "-" + o.workload + "-r" + std::to_string(r))
      << "\n#SBATCH --nodes=" << nodes << "\n"
      << "#SBATCH --ntasks=" << r << "\n"
      << "#SBATCH --ntasks-per-node=" << std::min(r, tpn) << "\n";
    if (gpt > 0) f << "#SBATCH --gpus-per-task=" << gpt << "\n";
    if (o.cpus_per_task > 0) f << "#SBATCH --cpus-per-task=" << o.cpus_per_task << "\n";
    f << "#SBATCH --time=" << sbatch_quote(o.time_limit) << "\n"
      << "#SBATCH --output=" << sbatch_quote(slurm_file_name((abs_dir / (name + ".out")).string())) << "\n";
    if (!o.partition.empty()) f << "#SBATCH --partition=" << sbatch_quote(o.partition) << "\n";
    if (!o.account.empty()) f << "#SBATCH --account=" << sbatch_quote(o.account) << "\n";
    f << "# " << o.mode << " scaling of " << o.workload << ": " << r << " ranks, N = " << point_n(o, r) << "\n"
      << "set -euo pipefail\n"
      << "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}\n"
      << shell_join(launch(r)) << ' ' << shell_join(point_args(o, r, json_path)) << "\n";
    scripts.push_back({name + ".sbatch", f.str()});
    all << "jobs+=($(sbatch --parsable " << name << ".sbatch))\n";
  }
  // The summary job: the same partition and account as the points.
  std::vector<std::string> summary{"--dependency=afterany:$dep", "--ntasks=1", "--time=00:05:00"};
  if (!o.partition.empty()) summary.push_back("--partition=" + o.partition);
  if (!o.account.empty()) summary.push_back("--account=" + o.account);
  summary.push_back("--output=" + slurm_file_name((abs_dir / "summary.out").string()));
  summary.push_back("--wrap=" + shell_join({self_path(), "scale", "--summarize", abs_dir.string()}));
  all << "dep=$(IFS=:; echo \"${jobs[*]}\")\nsbatch --parsable " << summary[0];  // $dep expands
  for (std::size_t i = 1; i < summary.size(); ++i) all << ' ' << shell_quote(summary[i]);
  all << "\n";
  scripts.push_back({"submit-all.sh", all.str()});

  std::vector<std::string> names;
  for (const auto& s : scripts) names.push_back(s.name);
  OutputDir dir("--emit slurm", o.emit_dir, names);
  // The scripts of an earlier sweep (or anything else of those names) are
  // replaced only when asked: a submitted job may still read them.
  if (dir.existed() && !o.force) {
    std::vector<std::string> there;
    for (const auto& n : names) {
      std::error_code ec;
      if (fs::exists(fs::symlink_status(abs_dir / n, ec))) there.push_back(n);
    }
    if (!there.empty())
      throw_input_error("--emit slurm '", shown_value(o.emit_dir), "' already holds ", there.back(),
                        there.size() > 1 ? " and " + std::to_string(there.size() - 1) + " more script(s)" : "",
                        ":\n  give a new directory, or --force to replace them");
  }
  dir.create();
  for (const auto& s : scripts) io::write_file_durably((abs_dir / s.name).string(), s.text);
  fs::permissions(abs_dir / "submit-all.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
  std::cout << "wrote " << o.ranks.size() << " batch scripts and submit-all.sh to " << o.emit_dir
            << "\n  submit: " << (fs::path(o.emit_dir) / "submit-all.sh").string()
            << " (the summary job runs `mesobench scale --summarize` when they ended)\n";
}

}  // namespace meso::bench
