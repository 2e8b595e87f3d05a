#include "output_paths.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <filesystem>

#include "meso/error.hpp"
#include "meso/io/durable_file.hpp"

namespace meso::bench {
namespace {

namespace fs = std::filesystem;

// The same file: one canonical path (links and `..` resolved as far as the
// path exists), or two existing names of one inode (a hard link).
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ea, eb;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a), ea);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b), eb);
  if (!ea && !eb && ca == cb) return true;
  std::error_code e;
  return fs::exists(a, e) && fs::exists(b, e) && fs::equivalent(a, b, e) && !e;
}

}  // namespace

void check_output_file(const std::string& option, const std::string& path) {
  if (path.empty()) throw_input_error(option, " '' is invalid: give a file name");
  const fs::path p(path);
  std::error_code ec;
  const fs::file_status st = fs::status(p, ec);
  if (fs::is_directory(st)) throw_input_error(option, " '", path, "' is a directory: give a file name");
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw_input_error(option, " '", path, "' exists and is not a regular file (a device, pipe or socket)");
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec))
    throw_input_error(option, " '", path, "': directory '", dir.string(), "' does not exist");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw_input_error(option, " '", path, "': directory '", dir.string(), "' is not writable");
  // Written first as path + ".tmp" (io::temporary_path), then renamed.
  const std::string tmp_name = fs::path(io::temporary_path(path)).filename().string();
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  const std::size_t limit = name_max > 0 ? static_cast<std::size_t>(name_max) : std::size_t{255};
  if (p.filename().empty() || tmp_name.size() > limit)
    throw_input_error(option, " '", path.size() > 80 ? path.substr(0, 77) + "..." : path, "': the file name (",
                      p.filename().string().size(), " characters) is too long for this file system (at most ",
                      limit - (tmp_name.size() - p.filename().string().size()), ")");
  if (io::temporary_path(path).size() >= PATH_MAX)
    throw_input_error(option, ": the path is too long (", path.size(), " characters; at most ", PATH_MAX - 5, ")");
}

void PathPlan::read(const std::string& option, const std::string& path) {
  if (!path.empty()) uses_.push_back({option, path, false});
}

void PathPlan::write(const std::string& option, const std::string& path) {
  if (!path.empty()) uses_.push_back({option, path, true});
}

void PathPlan::allow_same(const std::string& output, const std::string& input) {
  allowed_.emplace_back(output, input);
}

void PathPlan::check() const {
  for (const Use& u : uses_)
    if (u.output) check_output_file(u.option, u.path);
  for (std::size_t i = 0; i < uses_.size(); ++i)
    for (std::size_t j = 0; j < uses_.size(); ++j) {
      const Use& out = uses_[i];
      const Use& other = uses_[j];
      if (i == j || !out.output || (other.output && j < i)) continue;
      const bool allowed = std::find(allowed_.begin(), allowed_.end(), std::pair{out.option, other.option}) !=
                           allowed_.end();
      if (!allowed && same_file(out.path, other.path))
        throw_input_error(out.option, " '", out.path, "' is the same file as ", other.option, " '", other.path,
                          "': an output must not overwrite ", other.output ? "another output" : "an input",
                          "; give another name");
    }
}

}  // namespace meso::bench
