#include "meso/io/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "meso/core/error.hpp"

namespace meso::io {
namespace {

const char* kind_of(const std::filesystem::file_status& st) {
  namespace fs = std::filesystem;
  switch (st.type()) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::character: return "a character device";
    case fs::file_type::block: return "a block device";
    case fs::file_type::fifo: return "a FIFO";
    case fs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
}

}  // namespace

void require_input_file(const std::string& path, const char* what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st))
    throw_input_error("cannot read ", what, " '", excerpt(path, 200), "': ",
                      ec ? ec.message() : std::strerror(ENOENT));
  if (!fs::is_regular_file(st))
    throw_input_error(what, " '", excerpt(path, 200), "' is ", kind_of(st), ", not a file");
}

std::ifstream open_input_file(const std::string& path, const char* what) {
  require_input_file(path, what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_input_error("cannot read ", what, " '", excerpt(path, 200), "': ", std::strerror(errno));
  return in;
}

}  // namespace meso::io
