// The seam of domain decomposition (HOOMD-blue's Communicator /
// CommunicatorGPU, Cabana's Halo and Distributor): the StepPlan calls it at
// fixed points of the step and the operations see the particles as local
// ones [0, n_local) followed by ghosts [n_local, n_local + n_ghost)
// (ParticleData). Ghosts sit at their owners' (wrapped) positions, so the
// operations' minimum image finds every pair a rank's particles take part
// in; a rank's cells cover its domain and ghost layers only (md_cell_range),
// folded out of the global periodic grid.
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
#include <vector>

#include "meso/core/box.hpp"
#include "meso/core/particle_data.hpp"

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

// The cells of a global periodic grid (n cells along each axis) that the
// particles of this rank can fall into: along each axis `count` cells from
// `first` (wrapping at n); on an axis the rank does not split, all n from
// 0. Values are stored per cell, x fastest, `width` per cell.
struct CellRange {
  std::array<int, 3> n{1, 1, 1}, first{0, 0, 0}, count{1, 1, 1};
  std::size_t cells() const { return std::size_t(count[0]) * count[1] * count[2]; }
  // Local index of the cell at local coordinates (i, j, k), i < count[0] ...
  std::size_t local(int i, int j, int k) const { return (std::size_t(k) * count[1] + j) * count[0] + i; }
  // The global cell index (grid order: (z * ny + y) * nx + x) of local (i, j, k).
  uint32_t global(int i, int j, int k) const {
    auto g = [&](int a, int l) { return (first[a] + l) % n[a]; };
    return uint32_t((g(2, k) * n[1] + g(1, j)) * n[0] + g(0, i));
  }
};

// The cells of the global periodic grid of n cells per axis over d.global
// that hold a rank's particles and ghosts at a list build: along an axis
// the rank splits, those of [lo - ghost_width, hi + ghost_width); along the
// others, and where the range would reach round the box, all n. With cells
// at least ghost_width wide, every pair within it then lies in neighbouring
// cells of the range, and the memory and the per-cell passes of the cell
// list scale with the domain, not the box.
CellRange md_cell_range(const Domain& d, const std::array<int, 3>& n);

// Where a multi-rank step's time goes (seconds, summed over the run), for the
// scaling harness: selecting/packing/unpacking, host-device copies, and
// waiting in MPI (including the imbalance it absorbs).
struct CommTimes {
  double pack = 0.0;
  double copy = 0.0;
  double mpi_wait = 0.0;
  uint64_t migrations = 0;
  uint64_t ghost_updates = 0;
  // Of the ghost exchanges and the updates along split axes, those that
  // went GPU to GPU (a storage that is also a PeerGhostOp).
  uint64_t ghost_exchanges = 0;
  uint64_t peer_exchanges = 0;
  uint64_t peer_updates = 0;
  uint64_t votes = 0;  // rebuild votes (vote())
};

// Moves device buffers between this rank and its two neighbours along one
// split axis, enqueued on a device stream with no host wait: the GPU ranks'
// --transport nccl (grouped ncclSend/ncclRecv: the CUDA backend's, made by
// Backend::connect_device_links; kernels/core/nccl_links.cpp).
// A device operation packs and unpacks; the links only move bytes. Every
// rank calls exchange in the same order, with sizes its neighbours agree on.
class DeviceLinks {
 public:
  virtual ~DeviceLinks() = default;
  // to[0] (to_bytes[0]) goes to the lower neighbour along `axis`, to[1] to
  // the upper one; from[0] receives the lower neighbour's to[1], from[1] the
  // upper one's to[0]. With two ranks along the axis both neighbours are one
  // rank, and its to[0] arrives in from[0], its to[1] in from[1]. A message
  // of no bytes is not sent (both sides know its size). `stream`: a
  // cudaStream_t.
  virtual void exchange(int axis, const std::array<const void*, 2>& to, const std::array<std::size_t, 2>& to_bytes,
                        const std::array<void*, 2>& from, const std::array<std::size_t, 2>& from_bytes,
                        void* stream) const = 0;
  // values[0, n) (device memory) replaced in place by their sums over every
  // rank, enqueued on `stream` (the Nose-Hoover kinetic energy).
  virtual void sum(double* values, std::size_t n, void* stream) const = 0;
};

// What a backend needs to connect its DeviceLinks over the rank grid (the
// communicator's, which owns the host's transport): the grid, and two
// collectives of that transport, since the device library needs a unique id
// from rank 0 and the ranks' GPUs must be told apart.
struct DeviceLinksSetup {
  int rank = 0, size = 1;
  std::array<std::array<int, 2>, 3> neighbours{};  // [axis] = {lower, upper}
  std::array<int, 3> grid{1, 1, 1};
  // bytes[0, n) of rank 0 copied to every rank.
  std::function<void(void* bytes, std::size_t n)> broadcast;
  // Every rank's mine[0, n) into all[r n, (r + 1) n), on every rank.
  std::function<void(const void* mine, void* all, std::size_t n)> allgather;
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
  // Right after the first half-step, before the step waits for its
  // control (and decides whether to rebuild): the communicator may start
  // the next ghost update there (a GPU rank packs it on the device, so that
  // the wait covers the packing). Dropped if the step rebuilds instead.
  // The caller then waits for its device and takes the rebuild decision
  // (any(), a collective) before update_ghosts: once every rank has entered
  // it, every rank's early packs are done, and the communicator relies on
  // that instead of a message of its own.
  virtual void begin_update() {}
  // Whether update_ghosts needs no vote before it (its messages are ordered
  // on the device: --transport nccl), so that a device backend may take the
  // rebuild vote at some steps only (VoteSchedule).
  virtual bool updates_without_vote() const { return false; }
  // The MPCD solvent (srd-fluid): binds the backend's "mpcd/domain"
  // operation, and moves the solvent particles that left the domain to
  // their new owner (after streaming, before a collision).
  virtual void attach_solvent(Backend&) {}
  virtual void migrate_solvent() {}
  // After a run of steps (collective): whatever the migrations found that
  // only the device knew so far is settled (InputError on every rank where
  // a particle was left on the wrong rank). Nothing to do where migration
  // waits for its counts.
  virtual void settle_solvent() {}
  // Cells that neighbouring ranks share (the first and the last layer of a
  // CellRange along each split axis) combined over those ranks, axis by
  // axis (edges and corners forwarded), so that every rank holding a cell
  // ends with the value over all ranks: integer sums, or doubles combined
  // per value by max (bit v of max_mask) or sum. The MPCD collision's cell
  // properties, whose fixed-point sums make the combination exact.
  // `overlap` (Howard et al.'s outer/inner split) is work that touches no
  // shared cell: it runs while the first split axis's layers are in flight
  // and calls the `progress` it is given now and then, so that MPI moves
  // them meanwhile; on one rank it simply runs.
  using Progress = std::function<void()>;
  using Overlap = std::function<void(const Progress& progress)>;
  virtual void combine_layers(const CellRange&, std::vector<int64_t>&, int width, const Overlap& overlap = {}) const {
    (void)width;
    if (overlap) overlap([] {});
  }
  virtual void combine_layers(const CellRange&, std::vector<double>&, int width, uint32_t max_mask,
                              const Overlap& overlap = {}) const {
    (void)width, (void)max_mask;
    if (overlap) overlap([] {});
  }
  // The links that move device buffers between GPU ranks without the host
  // (--transport nccl), or null: the operations then hand their values to
  // the calls above.
  virtual const DeviceLinks* device_links() const { return nullptr; }
  // Reductions over ranks (energies, virial, kinetic energy; list staleness).
  virtual double sum(double local) const = 0;
  virtual double max(double local) const = 0;
  bool any(bool local) const { return max(local ? 1.0 : 0.0) > 0.0; }
  // max(), as the rebuild vote of a decomposed step (counted in times()).
  virtual double vote(double local) { return max(local); }
  // Every rank's local particles (tag order each), gathered in tag order on
  // rank 0; the other ranks get none.
  virtual void gather(const ParticleData<double>& mine, ParticleData<double>& all) const = 0;
  // Every rank's `mine` one after the other, in rank order, on rank 0, with
  // how many values each rank gave (`counts`); the other ranks get none. A
  // checkpoint's list state, which keeps each rank's storage order.
  virtual void gather_in_rank_order(const std::vector<double>& mine, std::vector<double>& all,
                                    std::vector<uint64_t>& counts) const = 0;
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
  void gather_in_rank_order(const std::vector<double>& mine, std::vector<double>& all,
                            std::vector<uint64_t>& counts) const override {
    all = mine;
    counts = {mine.size()};
  }

 private:
  Domain d_;
};

// Makes the communicator of a run once the system and ghost width are known
// (Simulation takes one; null: the single rank). `slit_walls`: the system has
// slit walls normal to z (docs/walls.md), which run on rank grids of one rank
// along z.
using CommunicatorFactory =
    std::function<std::unique_ptr<Communicator>(const Box& box, double ghost_width, bool slit_walls)>;

}  // namespace meso
