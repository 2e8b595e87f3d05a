// H5MD 1.1 trajectories (de Buyl, Colberg & Hoefling, CPC 185 (2014) 1546;
// https://www.nongnu.org/h5md/h5md.html), readable by OVITO, MDAnalysis and
// VMD's h5md plugin. Layout (docs/io.md):
//
//   /h5md                      version = [1, 1]
//     author                   name
//     creator                  name = "mesobench", version
//   /particles/all
//     box                      dimension = 3, boundary = ["periodic" x 3]
//       edges/{step,time,value}        value: (frames, 3) f64
//     position/{step,time,value}       value: (frames, N, 3) f64, wrapped into the box
//     velocity/{step,time,value}       value: (frames, N, 3) f64
//     image/{step,time,value}          value: (frames, N, 3) i32, periodic crossings
//     species/{step,time,value}        value: (frames, N) i32, the particle type
//   /parameters/mesobench      workload, setup, backend, variant; box_origin (3) f64
//
// Each step (i64) and time (f64) dataset is the position's, hard-linked into
// the other elements (H5MD allows sharing them). Values are chunked one
// frame at a time and extensible along the frame axis; particles are in tag
// order. Quantities are in the workload's reduced units (no unit attributes).
//
// The file is written as FILE.tmp, flushed after every frame (a killed run
// leaves a readable FILE.tmp with the frames so far) and renamed to FILE by
// close(); a writer destroyed without close() (an error) removes FILE.tmp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meso/box.hpp"
#include "meso/physics/vec3.hpp"

namespace meso::io {

// Whether this build can write H5MD (it was configured with HDF5).
bool h5md_available();

struct H5mdMetadata {
  std::string author;     // /h5md/author name (empty: $USER, else "unknown")
  std::string workload;   // /parameters/mesobench attributes
  std::string setup;
  std::string backend;
  std::string variant;
};

// One frame in tag order (positions wrapped into the box).
struct H5mdFrame {
  uint64_t step = 0;
  double time = 0.0;
  const std::vector<Vec3d>* position = nullptr;
  const std::vector<Vec3d>* velocity = nullptr;
  const std::vector<Image>* image = nullptr;
  const std::vector<uint32_t>* species = nullptr;
};

class H5mdWriter {
 public:
  // Creates FILE.tmp with the header and empty elements for n particles.
  // Throws InputError when the file cannot be created or HDF5 is missing.
  H5mdWriter(const std::string& path, std::size_t n, const Box& box, const H5mdMetadata& meta);
  ~H5mdWriter();
  H5mdWriter(const H5mdWriter&) = delete;
  H5mdWriter& operator=(const H5mdWriter&) = delete;

  void append(const H5mdFrame& f);
  std::size_t frames() const;
  // Flushes, closes, fsyncs and renames FILE.tmp to FILE.
  void close();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The reader the tests use: one frame of a file written above.
struct H5mdData {
  std::vector<int64_t> step;  // every frame
  std::vector<double> time;
  Vec3d edges{0, 0, 0};       // of the frame read
  std::vector<Vec3d> position, velocity;
  std::vector<Image> image;
  std::vector<int32_t> species;
};
// Throws InputError when the file lacks an element of the layout above.
H5mdData read_h5md_frame(const std::string& path, std::size_t frame);

}  // namespace meso::io
