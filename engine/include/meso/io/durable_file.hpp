// Every file mesobench writes goes through here, so that no output path can
// destroy anything but the file it names:
//  - the new content goes to a temporary file created beside the target
//    with a unique name (FILE.tmp-XXXXXX, O_EXCL: never an existing file,
//    so an input or a user's file named FILE.tmp is left alone), is
//    fsynced, renamed over FILE, and the directory fsynced (a crash at any
//    moment leaves the old file or the complete new one, never a mixture);
//  - the target must be a regular file or a new path: a directory, device
//    node, FIFO or socket, or a symbolic link to one (or to nothing), is
//    refused before anything is written and again just before the rename
//    (renamed over, a device node would simply disappear);
//  - a write that fails removes its own temporary file and nothing else.
// Whether an output is also an input of the same command is the command's
// plan (same_file below compares identities: device and inode).
#pragma once

#include <string>
#include <string_view>

namespace meso::io {

// Refuses (InputError naming `what` and the path) a path that cannot be
// written as above: empty, not a regular file or new path, in a missing or
// unwritable directory, or with a file name too long for its temporary name.
void check_output_path(const std::string& what, const std::string& path);

// Whether a and b are one file: the same device and inode once links are
// resolved, or (for paths that do not exist yet) the same canonical path.
bool same_file(const std::string& a, const std::string& b);

// One output file being written: the temporary exists from construction to
// commit() or destruction (which removes it). Library writers (HDF5) write
// to temporary() after close_descriptor().
class OutputFile {
 public:
  // Checks `path` (check_output_path) and creates its temporary file.
  // Throws InputError naming the path and the system error.
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& temporary() const { return tmp_; }
  // Appends bytes to the temporary file (removed on failure).
  void write(std::string_view bytes);
  // Closes this object's descriptor, for a library that opens temporary()
  // itself.
  void close_descriptor();
  // fsync, rename over path(), fsync of the directory. Refuses a target
  // that has meanwhile become a directory, device, FIFO or socket.
  void commit();
  // Removes the temporary file (idempotent; after commit() a no-op).
  void discard() noexcept;

 private:
  std::string path_, tmp_;
  int fd_ = -1;
  bool done_ = false;
};

// OutputFile(path), write(bytes), commit(): a whole file at once.
void write_file_durably(const std::string& path, std::string_view bytes);

}  // namespace meso::io
