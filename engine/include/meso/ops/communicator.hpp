// The seam of domain decomposition (HOOMD-blue's Communicator /
// CommunicatorGPU, Cabana's Halo and Distributor): the StepPlan calls it at
// fixed points of the step and the operations see the particles as local
// ones [0, n_local) followed by ghosts [n_local, n_local + n_ghost)
// (ParticleData); cells cover the global box, and ghosts sit in them at
// their owners' (wrapped) positions, so the operations' minimum image finds
// every pair a rank's particles take part in.
//
// SingleRankCommunicator owns every particle and has no ghosts. The MPI
// implementation (scaling/: MpiCommunicator) splits the box over a 3-D grid
// of ranks and moves particles through the backend's "domain" operation
// (domain_storage.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>

#include "meso/box.hpp"
#include "meso/particle_data.hpp"

namespace meso {

class Backend;

// The part of the global box a rank owns, and the ghost layer around it.
struct Domain {
  Box global;
  Vec3d lo{0.0, 0.0, 0.0}, hi{0.0, 0.0, 0.0};  // owned region [lo, hi)
  double ghost_width = 0.0;                     // r_c + skin
  bool whole_box = true;                        // one rank: the box, periodic
  std::array<int, 3> grid{1, 1, 1};             // ranks along x, y, z
  std::array<int, 3> coords{0, 0, 0};           // this rank's place in the grid

  // Whether a wrapped position is owned here: [lo, hi) on every axis.
  bool owns(const Vec3d& r) const {
    return r.x >= lo.x && r.x < hi.x && r.y >= lo.y && r.y < hi.y && r.z >= lo.z && r.z < hi.z;
  }
};

// Where a multi-rank step's time goes (seconds, summed over the run), for the
// scaling harness: selecting/packing/unpacking, host-device copies, and
// waiting in MPI (including the imbalance it absorbs).
struct CommTimes {
  double pack = 0.0;
  double copy = 0.0;
  double mpi_wait = 0.0;
  uint64_t migrations = 0;
  uint64_t ghost_updates = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual const Domain& domain() const = 0;
  // Binds the backend's particle storage (its "domain" operation); called by
  // StepPlan::build after set_system. The single-rank one needs none.
  virtual void attach(Backend&) {}
  // At a neighbor-list rebuild, before a reorder and the cell list: ghosts
  // dropped, particles that left the domain sent to their new owner.
  virtual void migrate() = 0;
  // Then the ghost layer is built again (after the reorder).
  virtual void exchange_ghosts() = 0;
  // Every other step, after the first half-step: ghost positions and
  // velocities refreshed from their owners (the same ghosts as at the last
  // exchange).
  virtual void update_ghosts() = 0;
  // Reductions over ranks (energies, virial, kinetic energy; list staleness).
  virtual double sum(double local) const = 0;
  virtual double max(double local) const = 0;
  bool any(bool local) const { return max(local ? 1.0 : 0.0) > 0.0; }
  // Every rank's local particles (tag order each), gathered in tag order on
  // rank 0; the other ranks get none.
  virtual void gather(const ParticleData<double>& mine, ParticleData<double>& all) const = 0;
  virtual CommTimes times() const { return {}; }
};

// One rank owning the whole periodic box: every call but domain() is a no-op.
class SingleRankCommunicator final : public Communicator {
 public:
  explicit SingleRankCommunicator(const Box& box, double ghost_width) {
    d_.global = box;
    d_.lo = box.lo();
    d_.hi = box.lo() + box.lengths();
    d_.ghost_width = ghost_width;
  }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  const Domain& domain() const override { return d_; }
  void migrate() override {}
  void exchange_ghosts() override {}
  void update_ghosts() override {}
  double sum(double local) const override { return local; }
  double max(double local) const override { return local; }
  void gather(const ParticleData<double>& mine, ParticleData<double>& all) const override { all = mine; }

 private:
  Domain d_;
};

// Makes the communicator of a run once the system and ghost width are known
// (Simulation takes one; null: the single rank).
using CommunicatorFactory = std::function<std::unique_ptr<Communicator>(const Box& box, double ghost_width)>;

}  // namespace meso
