#include "trajectory_sink.hpp"

#include <filesystem>
#include <system_error>
#include <utility>

#include "meso/core/error.hpp"

namespace meso::bench {

std::string numbered_path(const std::string& path, std::size_t k) {
  if (k == 0) return path;
  const std::filesystem::path p(path);
  std::filesystem::path out = p;
  out.replace_filename(p.stem().string() + "." + std::to_string(k) + p.extension().string());
  return out.string();
}

void refuse_existing_numbered(const std::string& path, std::size_t k) {
  const std::string file = numbered_path(path, k);
  std::error_code ec;
  if (k > 0 && std::filesystem::symlink_status(file, ec).type() != std::filesystem::file_type::not_found)
    throw_input_error("--trajectory ", path, ": ", file, " exists (the file of simulation ", k + 1,
                      ", a name mesobench chose); remove it, give another --trajectory, or --force");
}

H5mdFrameSink::H5mdFrameSink(std::string path, uint64_t every, io::H5mdMetadata meta, bool replace)
    : path_(std::move(path)), every_(every), replace_(replace), meta_(std::move(meta)) {
  io::install_frame_sink(this);
}

H5mdFrameSink::~H5mdFrameSink() { io::install_frame_sink(nullptr); }

void H5mdFrameSink::frame(uint64_t run, const Box& box, const io::H5mdFrame& f) {
  auto& w = writers_[run];
  if (!w) {
    if (!replace_) refuse_existing_numbered(path_, files_.size());
    const std::string file = numbered_path(path_, files_.size());
    w = std::make_unique<io::H5mdWriter>(file, f.position->size(), box, meta_);
    files_.push_back(file);
  }
  w->append(f);
}

std::vector<std::string> H5mdFrameSink::finish() {
  for (auto& [run, w] : writers_) w->close();
  writers_.clear();
  io::install_frame_sink(nullptr);
  return files_;
}

}  // namespace meso::bench
