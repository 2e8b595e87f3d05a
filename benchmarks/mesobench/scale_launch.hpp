// How `mesobench scale` starts its points: the scale-point command of a
// point, the launcher of a local sweep (--mpirun, --mpirun-args) checked and
// split into words before anything starts, the child run without a shell
// and its wait status in words, and the --out directory (refused when it
// cannot be one; removed again when a failed sweep created it and wrote
// nothing into it). The Slurm scripts quote the same command:
// slurm_script.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scale.hpp"

namespace meso::bench {

// True when `s` is not empty and made of characters that no shell, nor
// sbatch, treats specially (letters, digits, _ - + = . , / : @ %).
bool plain_word(const std::string& s);
// `s` as one word of a POSIX shell: unchanged when plain_word, otherwise in
// single quotes ('\'' for a quote inside).
std::string shell_quote(const std::string& s);
// The words, each quoted, joined by spaces.
std::string shell_join(const std::vector<std::string>& words);
// head, then the quoted words as shell_join joins them, in lines of at most
// `columns` (a longer word stands alone) joined by " \" continuations.
std::string shell_lines(const std::string& head, const std::vector<std::string>& words, std::size_t columns);

// This executable's path (/proc/self/exe), "mesobench" when unknown.
std::string self_path();
// N of the point on `ranks` ranks.
uint64_t point_n(const ScaleOptions& o, int ranks);
// DIR/point-rR.json.
std::string point_file(const std::string& dir, int ranks);
// The argv of one point's `mesobench scale-point`, program first, without
// the launcher.
std::vector<std::string> point_args(const ScaleOptions& o, int ranks, const std::string& json_path);

// The words of `text` as a POSIX shell splits them (blanks; '...', "..."
// and backslash quoting). Refused naming `option` and the text: an
// unterminated quote, an empty word, and what only a shell would act on
// (unquoted ; | & < > ( ) ` $, and ` $ inside double quotes): the launcher
// is started without a shell.
std::vector<std::string> split_words(const std::string& option, const std::string& text);

// The launcher of a local sweep, checked before anything starts: --mpirun's
// words (the program found on PATH, or given with a '/', and executable)
// and --mpirun-args' words. Refused (InputError) naming the option and the
// value.
struct Launcher {
  std::vector<std::string> command, args;
};
Launcher check_launcher(const ScaleOptions& o);

// The backend is one of this build's and, for a local sweep (`here`),
// usable on this machine; the variant parses and applies over the
// workload's default (the cpu backend is created to check it; a cuda one is
// not, so that the sweep holds no GPU while its points run).
void check_backend_and_variant(const ScaleOptions& o, bool here);

// Runs argv (argv[0] looked up on PATH) without a shell and waits.
// Returns the wait status (as waitpid's); throws when it cannot start.
int run_and_wait(const std::vector<std::string>& argv);
// "exited with code 3", "was killed by signal 9 (Killed)".
std::string describe_wait_status(int status);

// A directory a command writes files into (the sweep's --out, the Slurm
// scripts' DIR).
class OutputDir {
 public:
  // Refused (InputError, naming the option and the path): an empty path, a
  // path that exists and is not a directory, a parent that is a file, a
  // directory that cannot be written, and one of `files` (the names the
  // command writes into it) that cannot be written (a directory).
  OutputDir(const std::string& option, const std::string& path, const std::vector<std::string>& files);
  bool existed() const { return existed_; }
  // Creates it with its missing parents.
  void create();
  // After a failure: removes what create() made, when nothing was written
  // into it since (never a directory that existed before). True when it did.
  bool remove_if_unused();

 private:
  std::string option_, path_;
  bool existed_ = false;
  std::vector<std::string> made_;  // created by create(), outermost first
};

// Refuses a point file of `dir` whose rank count is not in `ranks`:
// summary.json would join it to this sweep's points.
void refuse_other_points(const std::string& option, const std::string& dir, const std::vector<int>& ranks);

// A point's launcher ended with `status`: says so on stderr, removes the
// sweep's directory when the sweep created it and nothing was written into
// it, and returns the exit code of the sweep (2 when the point refused its
// input, else 1).
int point_failed(int ranks, const std::string& program, int status, OutputDir& dir, const std::string& path);

}  // namespace meso::bench
