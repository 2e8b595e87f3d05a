// The MPI Communicator (meso/ops/communicator.hpp): the box split over a
// periodic Cartesian grid of ranks, particles moved through the backend's
// "domain" operation (meso/ops/domain_storage.hpp) axis by axis (x, then y,
// then z, so that ghosts of edges and corners are forwarded: Plimpton 1995,
// HOOMD-blue's Communicator). This class holds the plan: the rank grid, who
// sends what to whom, when particles migrate and ghosts travel, reductions
// and gathering. How the records travel is the transport's, asked once of
// one factory (scaling/src/transport.hpp: host-staged MPI messages, peer
// reads between ranks of one node, or NCCL on the device). The MPI tags are
// one table (scaling/src/mpi_links.hpp); the MPCD solvent's cell layers are
// combined in scaling/src/mpcd_layers.cpp. Along an axis of one rank
// nothing is sent (the operations' minimum image makes it periodic); along
// an axis of two ranks both faces go to the same neighbour in one message,
// so no particle arrives twice.
#pragma once

#include <mpi.h>

#include <array>
#include <memory>
#include <vector>

#include "meso/ops/communicator.hpp"
#include "meso/ops/domain_storage.hpp"
#include "meso/ops/mpcd.hpp"
#include "meso/ops/peer_ghosts.hpp"
#include "meso/scaling/rank_grid.hpp"

namespace meso::scaling {

struct AxisLinks;
struct MessageBuffers;
struct SplitAxis;
class RankTransport;

// How the records of GPU ranks travel between ranks (--transport; CPU ranks
// always use host-staged MPI messages).
enum class Transport {
  ipc,   // MD ghosts GPU to GPU between ranks of one node (CUDA IPC); the rest through the host
  host,  // every record through host-staged MPI messages
  nccl,  // NCCL on the device streams: migration, ghosts and the MPCD solvent's cell layers
};
// "ipc", "host" or "nccl"; InputError naming anything else.
Transport parse_transport(const std::string& s);
const char* to_string(Transport t);

class MpiCommunicator final : public Communicator {
 public:
  // grid {0, 0, 0}: choose_rank_grid. Throws InputError for a grid that
  // does not fit (naming the sizes), or that splits z across slit walls.
  MpiCommunicator(MPI_Comm comm, const Box& box, double ghost_width, RankGrid grid = {0, 0, 0},
                  Transport transport = Transport::ipc, bool slit_walls = false);
  ~MpiCommunicator() override;

  // The factory Simulation takes (meso/run/simulation.hpp).
  static CommunicatorFactory factory(MPI_Comm comm, RankGrid grid = {0, 0, 0}, Transport transport = Transport::ipc);
  Transport transport() const { return kind_; }
  const DeviceLinks* device_links() const override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const Domain& domain() const override { return d_; }
  void attach(Backend& b) override;
  void migrate() override;
  void exchange_ghosts() override;
  void update_ghosts() override;
  void begin_update() override;
  bool updates_without_vote() const override;
  void attach_solvent(Backend& b) override;
  void migrate_solvent() override;
  void settle_solvent() override;
  void combine_layers(const CellRange& r, std::vector<int64_t>& v, int width, const Overlap& overlap) const override;
  void combine_layers(const CellRange& r, std::vector<double>& v, int width, uint32_t max_mask,
                      const Overlap& overlap) const override;
  double sum(double local) const override;
  double max(double local) const override;
  double vote(double local) override {
    ++votes_;
    return max(local);
  }
  void gather(const ParticleData<double>& mine, ParticleData<double>& all) const override;
  void gather_in_rank_order(const std::vector<double>& mine, std::vector<double>& all,
                            std::vector<uint64_t>& counts) const override;
  CommTimes times() const override;

 private:
  MPI_Comm cart_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  Domain d_;
  std::array<std::array<int, 2>, 3> nbr_{};  // [axis][0: lower, 1: upper]
  std::vector<SplitAxis> axes_;  // the split axes in order, with their neighbours and slabs
  std::vector<int> node_of_;      // per rank: the lowest rank of its node
  std::unique_ptr<DomainStorageOp> storage_;
  std::unique_ptr<MpcdDomainOp> solvent_;  // the MPCD solvent's storage (attach_solvent)
  Transport kind_ = Transport::ipc;
  std::array<std::size_t, 6> recv_count_{};  // ghosts per message slot, for updates
  // The message buffers, in the storage's message memory (made by attach or
  // attach_solvent; declared after storage_ and solvent_, which own that
  // memory, so freed before them), and the transport over them and the
  // storages (made by make_transport with the first storage attached).
  std::unique_ptr<MessageBuffers> msg_;
  std::unique_ptr<RankTransport> transport_;
  void make_transport_for(Backend& b, bool device);
  // exchanges and updates; those with an axis GPU to GPU
  uint64_t exchanges_ = 0, peer_exchanges_ = 0, peer_updates_ = 0, votes_ = 0;
  mutable double mpi_s_ = 0.0;
  mutable double solvent_pack_s_ = 0.0;  // solvent migration and cell layers: selecting, packing, combining
  uint64_t migrations_ = 0, updates_ = 0;

  DomainSlab slab(int axis) const;
  AxisLinks links(int axis) const;
  // combine_layers for values of type T, combined by fn(mine, theirs, value index).
  template <class T, class Fn>
  void combine(const CellRange& r, std::vector<T>& v, int width, Fn fn, const Overlap& overlap) const;
};

// MPI_Init_thread/MPI_Finalize for the process, started only when the
// process was launched by mpirun, srun or another PMI launcher (so that a
// plain `mesobench` never touches MPI).
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  bool active() const { return active_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  // This rank's index among the ranks of its node (the GPU it drives).
  int local_rank() const { return local_rank_; }
  static bool launched_by_mpi();

 private:
  bool active_ = false;
  int rank_ = 0, size_ = 1, local_rank_ = 0;
};

}  // namespace meso::scaling
