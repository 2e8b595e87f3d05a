// Replacing a file so that a crash at any moment leaves either the old file
// or the complete new one, never a mixture: write FILE.tmp, fsync it,
// rename it over FILE, fsync the directory (the rename is only durable once
// the directory entry is). Checkpoints and trajectories go through it.
#pragma once

#include <string>
#include <string_view>

namespace meso::io {

// FILE.tmp beside `path` (same directory, so the rename is atomic).
std::string temporary_path(const std::string& path);

// Writes `bytes` to `path` durably as above. Throws InputError naming the
// path and the system error when it cannot (the temporary is removed).
void write_file_durably(const std::string& path, std::string_view bytes);

// fsync of `tmp`, rename to `path`, fsync of its directory: the second half
// of write_file_durably, for files written by a library (HDF5) to `tmp`.
void commit_file_durably(const std::string& tmp, const std::string& path);

}  // namespace meso::io
