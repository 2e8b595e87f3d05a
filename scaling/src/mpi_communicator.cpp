#include "meso/scaling/mpi_communicator.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <cstdlib>
#include <numeric>
#include <string>

#include "meso/run/backend.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/mpcd.hpp"
#include "mpi_links.hpp"
#include "transport.hpp"

namespace meso::scaling {
namespace {

double axis_of(const Vec3d& v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    throw std::runtime_error(std::string(what) + ": " + std::string(msg, len));
  }
}

}  // namespace

Transport parse_transport(const std::string& s) {
  if (s == "ipc") return Transport::ipc;
  if (s == "host") return Transport::host;
  if (s == "nccl") return Transport::nccl;
  throw_input_error("--transport '", s, "': not a transport (ipc, host or nccl)");
}

const char* to_string(Transport t) {
  switch (t) {
    case Transport::host: return "host";
    case Transport::nccl: return "nccl";
    case Transport::ipc: break;
  }
  return "ipc";
}

MpiCommunicator::MpiCommunicator(MPI_Comm comm, const Box& box, double ghost_width, RankGrid grid,
                                 Transport transport, bool slit_walls)
    : kind_(transport) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  if (grid[0] == 0) grid = choose_rank_grid(n, box, ghost_width, 0.0, slit_walls);
  check_rank_grid(grid, n, box, ghost_width, slit_walls);
  const int periods[3] = {1, 1, 1};
  // No reordering: rank r of comm keeps its number (and its GPU).
  check(MPI_Cart_create(comm, 3, grid.data(), periods, 0, &cart_), "MPI_Cart_create");
  MPI_Comm_rank(cart_, &rank_);
  MPI_Comm_size(cart_, &size_);
  int coords[3];
  MPI_Cart_coords(cart_, rank_, 3, coords);
  for (int a = 0; a < 3; ++a) MPI_Cart_shift(cart_, a, 1, &nbr_[a][0], &nbr_[a][1]);
  d_.global = box;
  d_.ghost_width = ghost_width;
  d_.whole_box = size_ == 1;
  const Vec3d lo = box.lo(), L = box.lengths();
  double dlo[3], dhi[3];
  for (int a = 0; a < 3; ++a) {
    d_.grid[a] = grid[a];
    d_.coords[a] = coords[a];
    const double w = axis_of(L, a) / grid[a];
    dlo[a] = axis_of(lo, a) + coords[a] * w;
    // The last domain ends exactly at the box's upper face.
    dhi[a] = coords[a] + 1 == grid[a] ? axis_of(lo, a) + axis_of(L, a) : axis_of(lo, a) + (coords[a] + 1) * w;
  }
  d_.lo = {dlo[0], dlo[1], dlo[2]};
  d_.hi = {dhi[0], dhi[1], dhi[2]};
  // Which ranks share a node (for peer ghost updates): each rank's node is
  // named by its lowest rank.
  MPI_Comm node;
  MPI_Comm_split_type(cart_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  int leader = rank_;
  MPI_Allreduce(&rank_, &leader, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  node_of_.assign(size_, 0);
  MPI_Allgather(&leader, 1, MPI_INT, node_of_.data(), 1, MPI_INT, cart_);
  for (int a = 0; a < 3; ++a)
    if (d_.grid[a] > 1) axes_.push_back({links(a), slab(a)});
}

MpiCommunicator::~MpiCommunicator() {
  transport_.reset();  // its device links before the grid's communicator they were made over
  if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
}

CommunicatorFactory MpiCommunicator::factory(MPI_Comm comm, RankGrid grid, Transport transport) {
  return [comm, grid, transport](const Box& box, double ghost_width,
                                 bool slit_walls) -> std::unique_ptr<Communicator> {
    return std::make_unique<MpiCommunicator>(comm, box, ghost_width, grid, transport, slit_walls);
  };
}

const DeviceLinks* MpiCommunicator::device_links() const {
  return transport_ ? transport_->device_links() : nullptr;
}

bool MpiCommunicator::updates_without_vote() const { return transport_ && transport_->updates_without_vote(); }

// Once, with the first storage attached (collective: every rank attaches
// the same kind of storage at the same point of the run).
void MpiCommunicator::make_transport_for(Backend& b, bool device) {
  if (transport_) return;
  TransportSetup s;
  s.cart = cart_;
  s.rank = rank_;
  s.size = size_;
  s.neighbours = nbr_;
  s.grid = d_.grid;
  s.node_of = node_of_;
  s.mpi_s = &mpi_s_;
  s.solvent_pack_s = &solvent_pack_s_;
  transport_ = make_transport(kind_, s, b, device);
}

void MpiCommunicator::attach(Backend& b) {
  msg_.reset();  // its memory may belong to the storage replaced here
  storage_ = b.create_as<DomainStorageOp>("domain");
  storage_->set_domain(d_);
  msg_ = std::make_unique<MessageBuffers>(storage_->message_memory());
  make_transport_for(b, storage_->device_records() != nullptr);
  transport_->attach(*storage_, *msg_);
}

DomainSlab MpiCommunicator::slab(int a) const {
  DomainSlab s;
  s.axis = a;
  s.lo = axis_of(d_.lo, a);
  s.hi = axis_of(d_.hi, a);
  s.length = axis_of(d_.global.lengths(), a);
  s.width = d_.ghost_width;
  return s;
}

AxisLinks MpiCommunicator::links(int a) const { return {cart_, a, nbr_[a][0], nbr_[a][1], d_.grid[a] == 2}; }

void MpiCommunicator::migrate() {
  if (size_ == 1) return;  // the whole periodic box: nothing moves, no ghosts
  storage_->clear_ghosts();
  transport_->migrate(axes_);
  ++migrations_;
}

void MpiCommunicator::exchange_ghosts() {
  if (size_ == 1) return;  // the whole periodic box: nothing moves, no ghosts
  recv_count_.fill(0);
  ++exchanges_;
  if (transport_->exchange_ghosts(axes_, recv_count_)) ++peer_exchanges_;
}

void MpiCommunicator::begin_update() {
  if (size_ == 1) return;
  transport_->begin_update(axes_);
}

void MpiCommunicator::update_ghosts() {
  if (size_ == 1) return;  // the whole periodic box: nothing moves, no ghosts
  const bool peer = transport_->update_ghosts(axes_, recv_count_);
  ++updates_;
  if (peer) ++peer_updates_;
}

double MpiCommunicator::sum(double local) const {
  MpiTimer t{mpi_s_};
  double g = 0.0;
  MPI_Allreduce(&local, &g, 1, MPI_DOUBLE, MPI_SUM, cart_);
  return g;
}

double MpiCommunicator::max(double local) const {
  MpiTimer t{mpi_s_};
  double g = 0.0;
  MPI_Allreduce(&local, &g, 1, MPI_DOUBLE, MPI_MAX, cart_);
  return g;
}

void MpiCommunicator::gather(const ParticleData<double>& mine, ParticleData<double>& all) const {
  constexpr int kRec = 14;  // r, v, f, image, type, tag
  std::vector<double> out(mine.n_local * kRec);
  for (std::size_t i = 0; i < mine.n_local; ++i) {
    double* r = out.data() + i * kRec;
    const Vec3d &x = mine.position[i], &v = mine.velocity[i], &f = mine.force[i];
    const Image& im = mine.image[i];
    const double rec[kRec] = {x.x, x.y, x.z, v.x, v.y, v.z, f.x, f.y, f.z,
                              double(im.x), double(im.y), double(im.z), double(mine.type[i]), double(mine.tag[i])};
    std::copy(rec, rec + kRec, r);
  }
  MpiTimer t{mpi_s_};
  int count = int(out.size());
  std::vector<int> counts(rank_ == 0 ? size_ : 0), displs;
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, cart_);
  std::vector<double> in;
  if (rank_ == 0) {
    displs.resize(size_);
    std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
    in.resize(std::size_t(displs.back()) + counts.back());
  }
  MPI_Gatherv(out.data(), count, MPI_DOUBLE, in.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, cart_);
  all.resize(0);
  if (rank_ != 0) return;
  const std::size_t n = in.size() / kRec;
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return in[a * kRec + 13] < in[b * kRec + 13]; });
  all.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double* r = in.data() + order[k] * kRec;
    all.position[k] = {r[0], r[1], r[2]};
    all.velocity[k] = {r[3], r[4], r[5]};
    all.force[k] = {r[6], r[7], r[8]};
    all.image[k] = {int32_t(r[9]), int32_t(r[10]), int32_t(r[11])};
    all.type[k] = uint32_t(r[12]);
    all.tag[k] = uint32_t(r[13]);
  }
}

void MpiCommunicator::gather_in_rank_order(const std::vector<double>& mine, std::vector<double>& all,
                                           std::vector<uint64_t>& counts) const {
  MpiTimer t{mpi_s_};
  const int count = int(mine.size());
  std::vector<int> n(rank_ == 0 ? size_ : 0), displs(n.size());
  MPI_Gather(&count, 1, MPI_INT, n.data(), 1, MPI_INT, 0, cart_);
  if (rank_ == 0) {
    std::exclusive_scan(n.begin(), n.end(), displs.begin(), 0);
    all.resize(std::size_t(displs.back()) + n.back());
  } else {
    all.clear();
  }
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), n.data(), displs.data(), MPI_DOUBLE, 0, cart_);
  counts.assign(n.begin(), n.end());
}

CommTimes MpiCommunicator::times() const {
  CommTimes t;
  // The solvent's migration is timed here as a whole (solvent_pack_s_): its
  // copies, which the storage times, are taken out of it.
  const double solvent_copy = solvent_ ? solvent_->copy_seconds() : 0.0;
  t.pack = (storage_ ? storage_->pack_seconds() : 0.0) + solvent_pack_s_ - solvent_copy;
  t.copy = (storage_ ? storage_->copy_seconds() : 0.0) + solvent_copy;
  t.mpi_wait = mpi_s_;
  t.migrations = migrations_;
  t.ghost_updates = updates_;
  t.ghost_exchanges = exchanges_;
  t.peer_exchanges = peer_exchanges_;
  t.peer_updates = peer_updates_;
  t.votes = votes_;
  return t;
}

bool MpiSession::launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS", "SLURM_STEP_NUM_TASKS"})
    if (std::getenv(v)) return true;
  return false;
}

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  active_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_free(&node);
}

MpiSession::~MpiSession() {
  if (active_) MPI_Finalize();
}

}  // namespace meso::scaling
