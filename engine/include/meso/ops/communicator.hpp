// The seam of domain decomposition (HOOMD-blue's Communicator /
// CommunicatorGPU, Cabana's Halo and Distributor): the StepPlan calls it at
// fixed points of the step and the operations see the particles as local
// ones [0, n_local) followed by ghosts [n_local, n_local + n_ghost)
// (ParticleData), cells as the local domain plus a ghost layer of width
// r_c + skin. Today only the one-rank implementation exists: it owns every
// particle, has no ghosts, and periodic images are taken by minimum image
// inside the operations. The MPI issue adds the implementations that
// exchange.
#pragma once

#include "meso/box.hpp"

namespace meso {

// The part of the global box a rank owns, and the ghost layer around it.
struct Domain {
  Box global;
  Vec3d lo{0.0, 0.0, 0.0}, hi{0.0, 0.0, 0.0};  // owned region [lo, hi)
  double ghost_width = 0.0;                     // r_c + skin
  bool whole_box = true;                        // one rank: the box, periodic
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual const Domain& domain() const = 0;
  // At a neighbor-list rebuild, before the cell list: particles that left
  // the domain go to their new owner, then the ghost layer is rebuilt.
  virtual void migrate() = 0;
  virtual void exchange_ghosts() = 0;
  // Every other step, after the first half-step: ghost positions refreshed
  // from their owners (the same ghosts as at the last exchange).
  virtual void update_ghosts() = 0;
  // Sum over ranks (energies, virial, kinetic energy).
  virtual double sum(double local) const = 0;
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

 private:
  Domain d_;
};

}  // namespace meso
