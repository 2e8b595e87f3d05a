#include "meso/io/durable_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "meso/core/error.hpp"

namespace meso::io {
namespace {

namespace fs = std::filesystem;

// FILE.tmp-XXXXXX: mkostemp replaces the X's and creates it with O_EXCL.
constexpr const char* kTemporarySuffix = ".tmp-XXXXXX";
constexpr std::size_t kTemporaryExtra = 11;

[[noreturn]] void fail(const char* what, const std::string& path, int err) {
  throw_input_error("cannot ", what, " '", path, "': ", std::strerror(err));
}

std::string directory_of(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  return dir.empty() ? std::string(".") : dir.string();
}

// What a non-regular file is, for the message.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// "" when `path` is a regular file (through links) or does not exist; else
// why it may not be replaced.
std::string why_not_replaceable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return "";  // a new path (or a link to one)
    return std::string("cannot be examined: ") + std::strerror(errno);
  }
  if (S_ISREG(st.st_mode)) return "";
  struct stat lst {};
  const bool link = ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode);
  return std::string("is not a regular file (") + (link ? "a link to " : "") + kind_of(st.st_mode) +
         "): give a new name or a regular file";
}

void fsync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("open", dir, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  // Some file systems refuse fsync on a directory (EINVAL); the data file's
  // own fsync has happened by then, so that is not an error.
  if (rc != 0 && err != EINVAL && err != EBADF) fail("fsync", dir, err);
}

// The mode a file created by open(..., 0666) would get: mkostemp makes 0600.
mode_t default_mode() {
  static const mode_t mask = [] {
    const mode_t m = ::umask(0);
    ::umask(m);
    return m;
  }();
  return 0666 & ~mask;
}

}  // namespace

void check_output_path(const std::string& what, const std::string& path) {
  if (path.empty()) throw_input_error(what, " '' is invalid: give a file name");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw_input_error(what, " '", path, "' is a directory: give a file name");
  if (const std::string why = why_not_replaceable(path); !why.empty())
    throw_input_error(what, " '", path, "' ", why);
  const fs::path p(path);
  const std::string dir = directory_of(path);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw_input_error(what, " '", path, "': directory '", dir, "' does not exist");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw_input_error(what, " '", path, "': directory '", dir, "' is not writable");
  const std::size_t name = p.filename().string().size();
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  const std::size_t limit = name_max > 0 ? static_cast<std::size_t>(name_max) : std::size_t{255};
  if (name == 0) throw_input_error(what, " '", path, "' does not end in a file name");
  if (name + kTemporaryExtra > limit)
    throw_input_error(what, " '", path.size() > 80 ? path.substr(0, 77) + "..." : path, "': the file name (", name,
                      " characters) is too long for this file system (at most ", limit - kTemporaryExtra,
                      " beside its temporary file)");
  if (path.size() + kTemporaryExtra >= PATH_MAX)
    throw_input_error(what, ": the path is too long (", path.size(), " characters; at most ",
                      PATH_MAX - kTemporaryExtra - 1, ")");
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  const bool ea = ::stat(a.c_str(), &sa) == 0, eb = ::stat(b.c_str(), &sb) == 0;
  if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea != eb) return false;
  // Neither exists yet: two outputs of one name (links and `..` resolved as
  // far as the path exists).
  std::error_code e1, e2;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a), e1);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b), e2);
  return !e1 && !e2 && ca == cb;
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  check_output_path("output file", path_);
  std::vector<char> name(path_.begin(), path_.end());
  name.insert(name.end(), kTemporarySuffix, kTemporarySuffix + kTemporaryExtra);
  name.push_back('\0');
  fd_ = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) fail("create a temporary file beside", path_, errno);
  tmp_ = name.data();
  if (::fchmod(fd_, default_mode()) != 0) {
    const int err = errno;
    discard();
    fail("set the mode of", tmp_, err);
  }
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) throw std::logic_error("OutputFile::write after close or commit");
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t w = ::write(fd_, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int err = w < 0 ? errno : EIO;
      discard();
      throw_input_error("cannot write '", path_, "': ", std::strerror(err), " (its temporary file removed)");
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
}

void OutputFile::close_descriptor() {
  if (fd_ >= 0 && ::close(fd_) != 0) {
    fd_ = -1;
    const int err = errno;
    discard();
    fail("close", tmp_, err);
  }
  fd_ = -1;
}

void OutputFile::commit() {
  if (done_) throw std::logic_error("OutputFile::commit twice");
  int err = 0;
  if (fd_ < 0) {  // a library wrote the file: reopen it for the fsync
    fd_ = ::open(tmp_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) err = errno;
  }
  if (!err && ::fsync(fd_) != 0) err = errno;
  if (fd_ >= 0 && ::close(fd_) != 0 && !err) err = errno;
  fd_ = -1;
  if (err) {
    discard();
    throw_input_error("cannot write '", path_, "': ", std::strerror(err), " (its temporary file removed)");
  }
  // Checked again: a device or FIFO put in its place meanwhile would be
  // replaced by the rename.
  if (const std::string why = why_not_replaceable(path_); !why.empty()) {
    discard();
    throw_input_error("output file '", path_, "' ", why);
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    err = errno;
    discard();
    fail("rename to", path_, err);
  }
  done_ = true;
  fsync_directory(directory_of(path_));
}

void OutputFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!done_ && !tmp_.empty()) ::unlink(tmp_.c_str());
  done_ = true;
}

void write_file_durably(const std::string& path, std::string_view bytes) {
  OutputFile out(path);
  out.write(bytes);
  out.commit();
}

}  // namespace meso::io
