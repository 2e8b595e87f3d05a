// H5MD 1.1 trajectories (de Buyl, Colberg & Hoefling, CPC 185 (2014) 1546;
// https://www.nongnu.org/h5md/h5md.html), readable by OVITO, MDAnalysis and
// VMD's h5md plugin. Layout (docs/io.md):
//
//   /h5md                      version = [1, 1]
//     author                   name
//     creator                  name = "mesobench", version
//   /particles/trajectory
//     box                      dimension = 3, boundary = ["periodic" x 3]
//       edges/{step,time,value}        value: (frames, 3) f64
//     position/{step,time,value}       value: (frames, N, 3) f64, wrapped into the box
//     velocity/{step,time,value}       value: (frames, N, 3) f64
//     image/{step,time,value}          value: (frames, N, 3) i32, periodic crossings
//     species/{step,time,value}        value: (frames, N) i32, the particle type
//     orientation/{step,time,value}    value: (frames, N, 4) f64, the body-to-space unit
//                                      quaternion (s, x, y, z); orientational particles only
//     angular_momentum/{step,time,value}  value: (frames, N, 3) f64, in the body frame
//   /parameters/mesobench      workload, setup, backend, variant; box_origin (3) f64
//
// Each step (i64) and time (f64) dataset is the position's, hard-linked into
// the other elements (H5MD allows sharing them). Values are chunked one
// frame at a time and extensible along the frame axis; particles are in tag
// order. Position, box edges, velocity and time carry H5MD `unit` attributes
// (H5mdUnits), /parameters/mesobench `units` says what they mean.
//
// The file is written to a temporary file of a unique name beside FILE
// (FILE.tmp-XXXXXX, meso/io/durable_file.hpp), flushed after every frame (a
// killed run leaves it readable with the frames so far) and renamed to FILE
// by close(); a writer destroyed without close() (an error) removes it, and
// so does a failed write (a full disk), whose InputError names FILE, the
// step and the system's reason.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/physics/quaternion.hpp"
#include "meso/physics/vec3.hpp"

namespace meso::io {

// Whether this build can write H5MD (it was configured with HDF5).
bool h5md_available();

// The H5MD `unit` attributes (strings in the H5MD units notation, spelled as
// MDAnalysis's H5MD reader translates them) and what they stand for.
struct H5mdUnits {
  std::string length;       // position/value, box/edges/value
  std::string time;         // the shared time dataset
  std::string velocity;     // velocity/value
  std::string description;  // /parameters/mesobench units
  // Written = factor x the engine's value, for a model whose engine time
  // unit is none the reader knows (MD-SCF: 8.4853 ps); 1 keeps them exact.
  double time_factor = 1.0;
  double velocity_factor = 1.0;
};

// Reduced units (DPD, LJ, SRD: no physical scale) are labelled Angstrom and
// ps, the units MDAnalysis computes in, so that a reader that converts units
// (MDAnalysis's default) keeps the numbers as written: one "Angstrom" is one
// reduced length and one "ps" one reduced time. `what` names them, e.g.
// "length sigma, time sigma sqrt(m/epsilon)".
H5mdUnits reduced_units(const std::string& what);
// Physical units of a model with a unit mapping (MD-SCF: nm, ps).
H5mdUnits nm_ps_units(const std::string& what);

struct H5mdMetadata {
  std::string author;     // /h5md/author name (empty: $USER, else "unknown")
  std::string workload;   // /parameters/mesobench attributes
  std::string setup;
  std::string backend;
  std::string variant;
  H5mdUnits units = reduced_units("the workload's reduced units");
};

// One frame in tag order (positions wrapped into the box).
struct H5mdFrame {
  uint64_t step = 0;
  double time = 0.0;
  const std::vector<Vec3d>* position = nullptr;
  const std::vector<Vec3d>* velocity = nullptr;
  const std::vector<Image>* image = nullptr;
  const std::vector<uint32_t>* species = nullptr;
  // Orientational particles: both, in every frame of a file, or in none
  // (the elements are made with the first frame that has them).
  const std::vector<Quatd>* orientation = nullptr;
  const std::vector<Vec3d>* angular_momentum = nullptr;
};

class H5mdWriter {
 public:
  // Creates the temporary file with the header and empty elements for n particles.
  // Throws InputError when the file cannot be created or HDF5 is missing.
  H5mdWriter(const std::string& path, std::size_t n, const Box& box, const H5mdMetadata& meta);
  ~H5mdWriter();
  H5mdWriter(const H5mdWriter&) = delete;
  H5mdWriter& operator=(const H5mdWriter&) = delete;

  void append(const H5mdFrame& f);
  std::size_t frames() const;
  // Flushes, closes, fsyncs and renames the temporary file to FILE.
  void close();

  struct Impl;

 private:
  // Closes the handles and removes the temporary file (an error ended the writing).
  void abandon() noexcept;
  [[noreturn]] void fail(const std::string& when, const std::exception& e);

  std::unique_ptr<Impl> impl_;
};

// The reader the tests use: one frame of a file written above.
struct H5mdData {
  H5mdUnits units;            // the unit attributes and /parameters/mesobench units
  std::vector<int64_t> step;  // every frame
  std::vector<double> time;
  Vec3d edges{0, 0, 0};       // of the frame read
  std::vector<Vec3d> position, velocity;
  std::vector<Image> image;
  std::vector<int32_t> species;
  std::vector<Quatd> orientation;      // empty where the file has none
  std::vector<Vec3d> angular_momentum;
};
// Throws InputError when the file lacks an element of the layout above.
H5mdData read_h5md_frame(const std::string& path, std::size_t frame);

}  // namespace meso::io
