// Every file a command reads or writes, checked together before anything
// runs: an output may never be an input or another output (a run once
// overwrote its own --restart checkpoint with its --json), must be a file
// name in a writable directory, and is refused when it is empty, names a
// directory or a device, or is too long for the temporary name it is first
// written under. Each refusal names the option and the path (exit 2).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace meso::bench {

class PathPlan {
 public:
  // A file the command reads; "" (option not given) is skipped.
  void read(const std::string& option, const std::string& path);
  // A file the command writes (through a temporary file renamed into
  // place); "" is skipped: an option given as '' is refused at parsing.
  void write(const std::string& option, const std::string& path);
  // `output` may name the file of `input`: the command reads it whole
  // before it replaces it (--restart F --checkpoint F continues in place).
  void allow_same(const std::string& output, const std::string& input);
  // Throws InputError for the first path that cannot work.
  void check() const;

 private:
  struct Use {
    std::string option, path;
    bool output;
  };
  std::vector<Use> uses_;
  std::vector<std::pair<std::string, std::string>> allowed_;
};

// Refuses (InputError) an output file path that cannot be written: empty, a
// directory or other non-regular file, a missing or read-only directory, or
// a name too long for its temporary name (path + ".tmp").
void check_output_file(const std::string& option, const std::string& path);

}  // namespace meso::bench
