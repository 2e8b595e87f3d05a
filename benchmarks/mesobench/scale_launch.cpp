#include "scale_launch.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "backends.hpp"
#include "case_filter.hpp"
#include "meso/core/error.hpp"
#include "output_paths.hpp"
#include "variant_defaults.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace meso::bench {

bool plain_word(const std::string& s) {
  return !s.empty() &&
         s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@%") ==
             std::string::npos;
}

std::string shell_quote(const std::string& s) {
  if (plain_word(s)) return s;
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    out += shell_quote(w);
  }
  return out;
}

std::string shell_lines(const std::string& head, const std::vector<std::string>& words, std::size_t columns) {
  std::string out = head, line = head;
  for (const auto& w : words) {
    const std::string q = shell_quote(w);
    // A word that would pass the last column goes to a continuation line
    // (" \" then four spaces), so that the whole still pastes into a shell.
    if (line.size() > head.size() && line.size() + 1 + q.size() + 2 > columns) {
      out += " \\\n    ";
      line = "    ";
    } else if (line.size() > head.size()) {
      out += ' ';
      line += ' ';
    }
    out += q;
    line += q;
  }
  return out;
}

std::string self_path() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("mesobench") : p.string();
}

uint64_t point_n(const ScaleOptions& o, int ranks) {
  return o.mode == "weak" ? o.per_rank * static_cast<uint64_t>(ranks) : o.total;
}

std::string point_file(const std::string& dir, int ranks) {
  return (fs::path(dir) / ("point-r" + std::to_string(ranks) + ".json")).string();
}

std::vector<std::string> point_args(const ScaleOptions& o, int ranks, const std::string& json_path) {
  std::vector<std::string> a{self_path(), "scale-point", "--workload", o.workload, "--n",
                             std::to_string(point_n(o, ranks)), "--steps", std::to_string(o.steps),
                             "--warmup", std::to_string(o.warmup), "--repeats", std::to_string(o.repeats),
                             "--backend", o.backend, "--mode", o.mode};
  if (o.mode == "weak") a.insert(a.end(), {"--per-rank", std::to_string(o.per_rank)});
  if (!o.variant.empty()) a.insert(a.end(), {"--variant", o.variant});
  for (const auto& p : o.params) a.insert(a.end(), {"--param", p});
  if (!o.grid.empty()) a.insert(a.end(), {"--grid", o.grid});
  if (!o.transport.empty()) a.insert(a.end(), {"--transport", o.transport});
  a.insert(a.end(), {"--quiet", "--json", json_path});
  return a;
}

std::vector<std::string> split_words(const std::string& option, const std::string& text) {
  auto refuse = [&](const std::string& why) {
    throw_input_error(option, " '", shown_value(text, 40), "': ", why);
  };
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word && word.empty()) refuse("it has an empty argument ('' or \"\")");
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (ch == '\'') {
      const std::size_t end = text.find('\'', i + 1);
      if (end == std::string::npos) refuse("a ' is not closed");
      word += text.substr(i + 1, end - i - 1);
      i = end;
    } else if (ch == '"') {
      std::size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j) {
        if (text[j] == '$' || text[j] == '`')
          refuse(std::string("'") + text[j] + "' needs a shell\n  (the launcher starts without one)");
        if (text[j] == '\\' && j + 1 < text.size() && std::strchr("\"\\", text[j + 1])) ++j;
        word += text[j];
      }
      if (j >= text.size()) refuse("a \" is not closed");
      i = j;
    } else if (ch == '\\') {
      if (i + 1 >= text.size()) refuse("it ends in a lone backslash");
      word += text[++i];
    } else if (std::strchr(";|&<>()`$", ch)) {
      refuse(std::string("'") + ch +
             "' needs a shell\n  (the launcher starts without one; quote it if it is part of an argument)");
    } else {
      word += ch;
    }
  }
  if (in_word) {
    if (word.empty()) refuse("it has an empty argument ('' or \"\")");
    words.push_back(word);
  }
  return words;
}

namespace {

bool executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// `name` on PATH (or as given when it has a '/'); empty when absent.
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return executable_file(name) ? name : std::string();
  const char* env = std::getenv("PATH");
  std::stringstream path(env ? env : "/usr/local/bin:/usr/bin:/bin");
  std::string dir;
  while (std::getline(path, dir, ':')) {
    const fs::path p = fs::path(dir.empty() ? "." : dir) / name;
    if (executable_file(p)) return p.string();
  }
  return {};
}

// The absolute, normal form of a directory path, without a trailing '/'.
fs::path absolute_dir(const std::string& path) {
  fs::path p = fs::absolute(path).lexically_normal();
  return p.has_filename() || p == p.root_path() ? p : p.parent_path();
}

}  // namespace

Launcher check_launcher(const ScaleOptions& o) {
  Launcher l{split_words("--mpirun", o.mpirun), split_words("--mpirun-args", o.mpirun_args)};
  if (l.command.empty()) throw_input_error("--mpirun is empty: give the MPI launcher, e.g. --mpirun mpirun");
  if (find_program(l.command[0]).empty())
    throw_input_error("--mpirun '", shown_value(l.command[0], 40), "' ",
                      l.command[0].find('/') != std::string::npos ? "is not an executable file"
                                                                  : "is not an executable program on PATH",
                      "\n  (give the MPI launcher: mpirun, or its path)");
  return l;
}

void check_backend_and_variant(const ScaleOptions& o, bool here) {
  BackendRegistry registry;
  register_backends(registry);
  const ResolvedVariant rv = resolve_variant(o.workload, o.backend, o.variant);
  if (o.backend == "cpu" || (here && !registry.usable(o.backend))) registry.create(o.backend, rv.variant);
  // --transport names how GPU ranks' records travel; CPU ranks have one way.
  if (o.transport == "nccl" && o.backend != "cuda")
    throw_input_error("--transport nccl moves device buffers between GPU ranks: it needs --backend cuda");
  if (o.transport == "nccl" && !nccl_transport_built())
    throw_input_error("--transport nccl: this mesobench was built without NCCL (scripts/install-deps.sh installs "
                      "nvidia-nccl-cu13; configure again)");
}

int run_and_wait(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // As std::system: Ctrl-C and Ctrl-\ end the launcher, whose status is
  // then reported here, not this process (the child gets their defaults).
  struct sigaction ignore {}, old_int {}, old_quit {};
  ignore.sa_handler = SIG_IGN;
  ::sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  posix_spawnattr_t attr;
  ::posix_spawnattr_init(&attr);
  sigset_t defaults;
  ::sigemptyset(&defaults);
  ::sigaddset(&defaults, SIGINT);
  ::sigaddset(&defaults, SIGQUIT);
  ::posix_spawnattr_setsigdefault(&attr, &defaults);
  ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int err = ::posix_spawnp(&pid, args[0], nullptr, &attr, args.data(), environ);
  ::posix_spawnattr_destroy(&attr);
  int status = 0, waited = 0, wait_errno = 0;
  if (err == 0) {
    while ((waited = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    wait_errno = waited < 0 ? errno : 0;
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  if (err != 0) throw_input_error("cannot start '", shown_value(argv[0]), "': ", std::strerror(err));
  if (wait_errno != 0) throw std::runtime_error(std::string("waitpid: ") + std::strerror(wait_errno));
  return status;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* name = ::strsignal(WTERMSIG(status));
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + (name ? std::string(" (") + name + ")" : "");
  }
  return "ended with wait status " + std::to_string(status);
}

int point_failed(int ranks, const std::string& program, int status, OutputDir& dir, const std::string& path) {
  std::cerr << "mesobench: the point on " << ranks << " rank" << (ranks > 1 ? "s" : "") << " failed: " << program
            << ' ' << describe_wait_status(status) << '\n';
  if (dir.remove_if_unused())
    std::cerr << "mesobench: removed " << path << " (this sweep created it and nothing was written into it)\n";
  return WIFEXITED(status) && WEXITSTATUS(status) == kExitInputError ? kExitInputError : 1;
}

OutputDir::OutputDir(const std::string& option, const std::string& path, const std::vector<std::string>& files)
    : option_(option), path_(path) {
  if (path.empty()) throw_input_error(option, " '' is invalid: give a directory");
  std::error_code ec;
  const fs::path want = absolute_dir(path);
  // The nearest part of the path that exists must be a writable directory.
  fs::path existing = want;
  while (!fs::exists(fs::symlink_status(existing, ec)) && existing != existing.parent_path())
    existing = existing.parent_path();
  existed_ = existing == want;
  if (!fs::is_directory(existing, ec)) {
    if (existed_) throw_input_error(option, " '", path, "' exists and is not a directory: give a directory");
    throw_input_error(option, " '", path, "': '", existing.string(), "' is not a directory");
  }
  if (::access(existing.c_str(), W_OK | X_OK) != 0)
    throw_input_error(option, " '", path, "': directory '", existing.string(), "' is not writable");
  if (existed_)
    for (const auto& f : files) check_output_file(option, (fs::path(path) / f).string());
}

void refuse_other_points(const std::string& option, const std::string& dir, const std::vector<int>& ranks) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("point-r", 0) != 0 || e.path().extension() != ".json") continue;
    const bool ours = std::any_of(ranks.begin(), ranks.end(),
                                  [&](int r) { return name == "point-r" + std::to_string(r) + ".json"; });
    if (!ours)
      throw_input_error(option, " '", dir, "' holds ", name, " of another sweep, which summary.json would join:\n"
                        "  give a new directory or move that file");
  }
}

void OutputDir::create() {
  std::error_code ec;
  std::vector<fs::path> missing;
  for (fs::path p = absolute_dir(path_); !fs::exists(p, ec) && p != p.parent_path(); p = p.parent_path())
    missing.push_back(p);
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (!fs::create_directory(*it, ec) && ec)
      throw_input_error(option_, " '", path_, "': cannot create '", it->string(), "': ", ec.message());
    made_.push_back(it->string());
  }
}

bool OutputDir::remove_if_unused() {
  bool removed = false;
  std::error_code ec;
  for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
    if (!fs::is_empty(*it, ec) || ec || !fs::remove(*it, ec)) break;
    removed = true;
  }
  made_.clear();
  return removed;
}

}  // namespace meso::bench
