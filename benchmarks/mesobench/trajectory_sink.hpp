// `mesobench validate --trajectory FILE --every N`: the io::FrameSink that
// writes the frames of every simulation a validation case runs, one H5MD
// file per simulation: FILE for the first, FILE with .1, .2, ... before its
// extension for the next ones (a case runs several: equilibration and
// production, repeats; an MPCD run with solute interleaves two). Every file
// stays open until finish() completes them all; an error before that
// removes them. The numbered names are the command's, not the user's: one
// that exists already is refused (InputError naming it) unless `replace`
// (validate --force), as the output-file rules say (docs/cli.md).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "meso/io/frame_sink.hpp"
#include "meso/io/h5md.hpp"

namespace meso::bench {

class H5mdFrameSink final : public io::FrameSink {
 public:
  // Installs itself (io::install_frame_sink) until destroyed.
  H5mdFrameSink(std::string path, uint64_t every, io::H5mdMetadata meta, bool replace = false);
  ~H5mdFrameSink() override;

  uint64_t every() const override { return every_; }
  void frame(uint64_t run, const Box& box, const io::H5mdFrame& f) override;
  void set_units(const io::H5mdUnits& units) override { meta_.units = units; }
  void set_variant(const std::string& variant) override { meta_.variant = variant; }
  // Closes the last file; returns the files written.
  std::vector<std::string> finish();

 private:
  std::string path_;
  uint64_t every_;
  bool replace_;
  io::H5mdMetadata meta_;
  std::map<uint64_t, std::unique_ptr<io::H5mdWriter>> writers_;  // by run-loop number
  std::vector<std::string> files_;
};

// FILE for k = 0, else FILE with ".k" before its extension (traj.h5 -> traj.1.h5).
std::string numbered_path(const std::string& path, std::size_t k);
// Throws InputError when numbered_path(path, k), k >= 1, exists: a file the
// command would replace without the user having named it.
void refuse_existing_numbered(const std::string& path, std::size_t k);

}  // namespace meso::bench
