#include "trajectory_sink.hpp"

#include <filesystem>
#include <utility>

namespace meso::bench {

std::string numbered_path(const std::string& path, std::size_t k) {
  if (k == 0) return path;
  const std::filesystem::path p(path);
  std::filesystem::path out = p;
  out.replace_filename(p.stem().string() + "." + std::to_string(k) + p.extension().string());
  return out.string();
}

H5mdFrameSink::H5mdFrameSink(std::string path, uint64_t every, io::H5mdMetadata meta)
    : path_(std::move(path)), every_(every), meta_(std::move(meta)) {
  io::install_frame_sink(this);
}

H5mdFrameSink::~H5mdFrameSink() { io::install_frame_sink(nullptr); }

void H5mdFrameSink::frame(uint64_t run, const Box& box, const io::H5mdFrame& f) {
  auto& w = writers_[run];
  if (!w) {
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
