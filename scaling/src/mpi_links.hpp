// What the pieces of the MPI communicator share: the MPI tags (one table, so
// that no two exchanges can take each other's messages), the neighbours of
// one axis, the size-first exchange of two record messages, and the timer of
// the time spent inside MPI.
#pragma once

#include <mpi.h>

#include <array>
#include <chrono>

#include "meso/ops/domain_storage.hpp"

namespace meso::scaling {

// Message tags: tag_of(kind, axis, k) = kind + 10 axis + k, where k < 10
// numbers the messages of one exchange along one axis. Each kind owns the
// hundred above it.
enum class MpiTag : int {
  migrate = 100,        // MD particles leaving their domain
  ghosts = 200,         // ghost records through the host, at a rebuild
  update = 300,         // ghost updates through the host, each step
  solvent_migrate = 400,
  peer_ghosts = 500,    // the note of a peer ghost exchange (counts and handles)
  peer_handles = 600,   // update buffers' handles, when peer updates are set up
  peer_ready = 700,     // "my update is packed" of a peer update
  layers = 800,         // the MPCD solvent's shared cell layers
  device_notes = 900,   // counts of device records (NCCL): ghosts k = 0, 1; migrants 2, 3
};
constexpr int tag_of(MpiTag kind, int axis, int k = 0) { return static_cast<int>(kind) + 10 * axis + k; }

// The two neighbours of this rank along one axis; with two ranks along it
// they are the same rank (`one`), and a single message goes to it.
struct AxisLinks {
  MPI_Comm cart = MPI_COMM_NULL;
  int axis = 0;
  int lo = 0, hi = 0;
  bool one = false;
};

// Adds the seconds of its lifetime to `acc` (time inside MPI calls).
struct MpiTimer {
  using Clock = std::chrono::steady_clock;
  double& acc;
  Clock::time_point t0 = Clock::now();
  ~MpiTimer() { acc += std::chrono::duration<double>(Clock::now() - t0).count(); }
};

// The two outgoing and two incoming messages of an exchange along one axis,
// in the storage's message memory (pinned host memory on a GPU).
struct MessageBuffers {
  explicit MessageBuffers(std::pmr::memory_resource* m) : send{Records(m), Records(m)}, recv{Records(m), Records(m)} {}
  std::array<Records, 2> send, recv;
};

// Sends to_lo to the lower and to_hi to the upper neighbour and receives
// into recv[0] (from the lower) and recv[1] (from the upper); with one
// neighbour, to_lo alone goes and recv[0] receives. Sizes first; tags
// tag .. tag + 3.
void exchange_records(const AxisLinks& l, const Records& to_lo, const Records& to_hi, std::array<Records, 2>& recv,
                      int tag, double& mpi_s);

}  // namespace meso::scaling
