// Every file a command reads or writes, declared in one plan and checked
// together before anything runs: an output may never be an input or
// another output, compared by identity (device and inode, links resolved:
// a run once overwrote its own --restart checkpoint with its --json), and
// must be a regular file or a new name in a writable directory
// (io::check_output_path: not a directory, device, FIFO or socket, nor a
// link to one). Each refusal names the option and the path (exit 2). The
// files are then written through io::OutputFile (meso/io/durable_file.hpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace meso::bench {

class PathPlan {
 public:
  // A file the command reads; "" (option not given) is skipped.
  void read(const std::string& option, const std::string& path);
  // A file the command writes (through a temporary file of a unique name,
  // renamed into place); "" is skipped: an option given as '' is refused at parsing.
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

// Refuses (InputError naming the option) an output file path that cannot be
// written: io::check_output_path.
void check_output_file(const std::string& option, const std::string& path);

}  // namespace meso::bench
