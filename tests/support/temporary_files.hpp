// The temporary files an output file of meso/io/durable_file.hpp leaves
// beside its target while it is written (FILE.tmp-XXXXXX): the tests check
// that every write removes its own and that nothing else is touched.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace meso::test {

inline std::vector<std::string> temporaries_of(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const std::string prefix = p.filename().string() + ".tmp-";
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().string());
  return out;
}

}  // namespace meso::test
