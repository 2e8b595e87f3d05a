// Checkpoint files: the full state of an MD run (meso::Checkpoint) or of an
// MPCD solvent run, in a small binary format of our own, so that `mesobench
// run --restart` continues bit for bit (docs/io.md).
//
//   magic      8 bytes  "MESOCKPT"
//   version    u32      kCheckpointFormat
//   length     u64      bytes from `kind` to the end of the payload
//   kind       u32      1 = MD (Checkpoint), 2 = MPCD solvent
//   identity   strings  workload, setup, backend, precision (u32 length + bytes)
//   n, step    u64, u64
//   payload    MD: xi, eta (f64); position, velocity, force (3n f64);
//              image (3n i32); type, tag (n u32); has_lists (u8) and, when
//              1 or 2, order (n u32), build_position (3n f64),
//              steps_since_build, steps_since_sort (u32); when 2 (a run
//              on several ranks, order and build_position being the ranks'
//              one after the other) the rank grid (3 u32) and each rank's
//              count (u64 a rank, rank order)
//              MPCD: position, velocity (3n f64), image (3n i32), type,
//              tag (n u32)
//   checksum   u64      FNV-1a 64 of every byte from `kind` to here
//
// Little-endian as the machine writes it (x86-64, aarch64); the reader
// refuses a file whose magic reads otherwise. A file shorter than its length
// field, or whose checksum differs, is reported as truncated or corrupt.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/run/simulation.hpp"

namespace meso::io {

inline constexpr uint32_t kCheckpointFormat = 1;

// What a checkpoint must agree with to be continued: the restart refuses a
// file whose identity differs from the run's in any field.
struct CheckpointIdentity {
  std::string workload;   // "dpd-fluid", "lj-liquid", "srd-fluid"
  std::string setup;      // the parameters that define the system and the dynamics
  std::string backend;    // "cpu", "cuda"
  std::string precision;  // "double", "mixed", "single"
  uint64_t n = 0;         // compared on restart; a file records its particle count
};

struct CheckpointFile {
  CheckpointIdentity identity;
  uint64_t step = 0;
  bool mpcd = false;
  Checkpoint md;              // when !mpcd
  MpcdParticles solvent;      // when mpcd (tag order)

  // The state to continue (Simulation's `from`), of either kind.
  Checkpoint state() const {
    if (!mpcd) return md;
    Checkpoint c;
    c.step = step;
    c.solvent = solvent;
    return c;
  }
};

// Written with write_file_durably (a unique FILE.tmp-XXXXXX, fsync, rename, fsync of the
// directory): a crash leaves the previous checkpoint intact. A Checkpoint
// of a solvent alone (Checkpoint::solvent) is written as the MPCD kind.
void write_checkpoint(const std::string& path, const CheckpointIdentity& id, const Checkpoint& cp);
void write_checkpoint(const std::string& path, const CheckpointIdentity& id, uint64_t step,
                      const MpcdParticles& solvent);

// Throws InputError naming the path and what is wrong: missing, not a
// regular file (a directory, a device, a FIFO), not a checkpoint, another
// format version, a size other than the header states (checked before
// anything past the header is read), checksum mismatch, and any field
// outside what the writer produces: N = 0 or not the payload's size, a
// list flag other than 0 or 1, identity strings that are not printable
// text, non-finite positions, velocities, forces, build positions or
// thermostat variables, image counters beyond +-2^30, tags or list order
// that are not a permutation of 0 .. N-1, ranks' counts that do not sum to
// N, steps_since_build above the step,
// steps_since_sort above the step (other than 2^32 - 1, no sort yet).
CheckpointFile read_checkpoint(const std::string& path);

// What a checkpoint's state must fit to continue in a run: its box, the
// masses of its particle types (their count bounds the types), its time
// step (MPCD: the collision period).
struct RestartBounds {
  Box box;
  std::vector<double> type_mass;
  double dt = 0.0;
};

// Throws InputError naming the path, the particle and the field: a type
// the run does not have; a position or list build position outside the
// box by more than 1e-6 of its edge (they are stored wrapped; the slack is
// rounding); a velocity v or a force f that moves a particle more than
// half the box edge in one step (|v| dt, |f| dt^2 / 2m per component): no
// minimum image exists for such a move, and no run produces one.
void check_restart_state(const CheckpointFile& f, const RestartBounds& run, const std::string& path);

// Throws InputError naming the first field in which `file` (read from
// `path`) differs from the run's identity `run`.
void require_same_run(const CheckpointIdentity& file, const CheckpointIdentity& run,
                      const std::string& path);

// FNV-1a 64 (Fowler, Noll, Vo): the checksum of the format above.
uint64_t fnv1a64(const void* data, std::size_t bytes, uint64_t h = 0xcbf29ce484222325ull);

}  // namespace meso::io
