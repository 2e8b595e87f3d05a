#include "meso/io/durable_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "meso/error.hpp"

namespace meso::io {
namespace {

[[noreturn]] void fail(const char* what, const std::string& path, int err) {
  throw_input_error("cannot ", what, " '", path, "': ", std::strerror(err));
}

void fsync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) fail("open", path, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  // Some file systems refuse fsync on a directory (EINVAL); the data file's
  // own fsync has happened by then, so that is not an error.
  if (rc != 0 && !(flags & O_DIRECTORY && (err == EINVAL || err == EBADF))) fail("fsync", path, err);
}

void rename_durably(const std::string& tmp, const std::string& path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    fail("rename to", path, err);
  }
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  fsync_path(dir.string(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

}  // namespace

std::string temporary_path(const std::string& path) { return path + ".tmp"; }

void write_file_durably(const std::string& path, std::string_view bytes) {
  const std::string tmp = temporary_path(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("create", tmp, errno);
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int err = w < 0 ? errno : EIO;
      ::close(fd);
      std::remove(tmp.c_str());
      fail("write", tmp, err);
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    fail("fsync", tmp, err);
  }
  rename_durably(tmp, path);
}

void commit_file_durably(const std::string& tmp, const std::string& path) {
  fsync_path(tmp, O_RDONLY | O_CLOEXEC);
  rename_durably(tmp, path);
}

}  // namespace meso::io
