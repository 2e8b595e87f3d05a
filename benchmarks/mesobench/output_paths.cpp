#include "output_paths.hpp"

#include <algorithm>

#include "meso/core/error.hpp"
#include "meso/io/durable_file.hpp"

namespace meso::bench {

void check_output_file(const std::string& option, const std::string& path) { io::check_output_path(option, path); }

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
      if (!allowed && io::same_file(out.path, other.path))
        throw_input_error(out.option, " '", out.path, "' is the same file as ", other.option, " '", other.path,
                          "': an output must not overwrite ", other.output ? "another output" : "an input",
                          "; give another name");
    }
}

}  // namespace meso::bench
