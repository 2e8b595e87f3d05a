#include "meso/scaling/mpi_communicator.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <cstdlib>
#include <numeric>
#include <string>

#include "ghost_transport.hpp"
#include "meso/backend.hpp"
#include "meso/error.hpp"
#include "meso/ops/mpcd.hpp"
#include "mpi_links.hpp"

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
                                 Transport transport)
    : transport_(transport) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  if (grid[0] == 0) grid = choose_rank_grid(n, box, ghost_width);
  check_rank_grid(grid, n, box, ghost_width);
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
}

MpiCommunicator::~MpiCommunicator() {
  nccl_.reset();  // before the grid's communicator it was made over
  if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
}

CommunicatorFactory MpiCommunicator::factory(MPI_Comm comm, RankGrid grid, Transport transport) {
  return [comm, grid, transport](const Box& box, double ghost_width) -> std::unique_ptr<Communicator> {
    return std::make_unique<MpiCommunicator>(comm, box, ghost_width, grid, transport);
  };
}

const DeviceLinks* MpiCommunicator::device_links() const {
  return nccl_.get();
}

// Collective: every rank attaches the same kind of storage at the same
// point of the run.
void MpiCommunicator::connect_nccl(Backend& b, bool device) {
  if (transport_ != Transport::nccl || size_ == 1 || nccl_) return;
  if (!device) throw_input_error("--transport nccl moves device buffers: it needs --backend cuda");
  DeviceLinksSetup su;
  su.rank = rank_;
  su.size = size_;
  su.neighbours = nbr_;
  su.grid = d_.grid;
  su.broadcast = [this](void* bytes, std::size_t n) { MPI_Bcast(bytes, int(n), MPI_BYTE, 0, cart_); };
  su.allgather = [this](const void* mine, void* all, std::size_t n) {
    MPI_Allgather(mine, int(n), MPI_BYTE, all, int(n), MPI_BYTE, cart_);
  };
  nccl_ = b.connect_device_links(su);
  if (!nccl_)
    throw_input_error("--transport nccl: this mesobench was built without NCCL (scripts/install-deps.sh installs "
                      "nvidia-nccl-cu13; configure again)");
}

void MpiCommunicator::attach(Backend& b) {
  host_.reset();
  peer_.reset();
  msg_.reset();  // its memory may belong to the storage replaced here
  storage_ = b.create_as<DomainStorageOp>("domain");
  storage_->set_domain(d_);
  msg_ = std::make_unique<MessageBuffers>(storage_->message_memory());
  host_ = std::make_unique<HostGhostTransport>(*storage_, *msg_, mpi_s_);
  // A storage that can read its neighbours' device memory (CUDA IPC) also
  // offers the peer transport; every other goes through the host.
  if (auto* p = dynamic_cast<PeerGhostOp*>(storage_.get())) peer_ = std::make_unique<PeerGhostTransport>(*p, mpi_s_);
  if (transport_ == Transport::host) peer_.reset();
  device_records_ = dynamic_cast<DeviceRecordsOp*>(storage_.get());
  connect_nccl(b, device_records_ != nullptr);
  device_ghosts_.reset();
  if (nccl_ && device_records_) {
    device_ghosts_ = std::make_unique<DeviceGhostTransport>(*storage_, *device_records_, *nccl_, mpi_s_);
    peer_.reset();
  }
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

template <class Store>
void MpiCommunicator::migrate_through(Store& store, MpiTag tag, double& pack_s) {
  for (int a = 0; a < 3; ++a) {
    if (d_.grid[a] == 1) continue;
    msg_->send[0].clear();
    msg_->send[1].clear();
    {
      MpiTimer t{pack_s};
      store.take_leavers(slab(a), msg_->send[0], msg_->send[1]);
      if (d_.grid[a] == 2) {  // one neighbour: both directions in one message
        msg_->send[0].insert(msg_->send[0].end(), msg_->send[1].begin(), msg_->send[1].end());
        msg_->send[1].clear();
      }
    }
    exchange_records(links(a), msg_->send[0], msg_->send[1], msg_->recv, tag_of(tag, a), mpi_s_);
    MpiTimer t{pack_s};
    store.add_locals(msg_->recv[0]);
    store.add_locals(msg_->recv[1]);
  }
  ++migrations_;
}
// The solvent's host path (solvent_migration.cpp).
template void MpiCommunicator::migrate_through(MpcdDomainOp&, MpiTag, double&);

void MpiCommunicator::migrate() {
  if (size_ == 1) return;  // the whole periodic box: nothing moves, no ghosts
  storage_->clear_ghosts();
  double timed_by_the_storage = 0.0;  // DomainStorageOp::pack_seconds
  if (device_ghosts_) {
    migrate_device(*device_records_, timed_by_the_storage);
    return;
  }
  migrate_through(*storage_, MpiTag::migrate, timed_by_the_storage);
}

// The first exchange goes through the host and decides (connect_peer_axes)
// per axis whether ranks may read each other's device buffers; from then on
// the records of those axes go GPU to GPU (a mapping that fails later is an
// error: the ranks and their GPUs have not changed).
void MpiCommunicator::exchange_ghosts() {
  if (size_ == 1) return;  // the whole periodic box: nothing moves, no ghosts
  early_axis_ = -1;  // the update begun this step is dropped: a rebuild replaces it
  recv_count_.fill(0);
  ++exchanges_;
  if (device_ghosts_) {  // NCCL: every split axis GPU to GPU
    ++peer_exchanges_;
    for (int a = 0; a < 3; ++a) {
      if (d_.grid[a] == 1) continue;
      const std::array<std::size_t, 2> n = device_ghosts_->exchange_ghosts(links(a), slab(a));
      recv_count_[2 * a] = n[0];
      recv_count_[2 * a + 1] = n[1];
    }
    return;
  }
  const std::array<bool, 3> peer = peer_axis_;  // decided at the last exchange
  if (std::find(peer.begin(), peer.end(), true) != peer.end()) ++peer_exchanges_;
  for (int a = 0; a < 3; ++a) {
    if (d_.grid[a] == 1) continue;
    GhostTransport& t = peer[a] ? static_cast<GhostTransport&>(*peer_) : *host_;
    const std::array<std::size_t, 2> n = t.exchange_ghosts(links(a), slab(a));
    recv_count_[2 * a] = n[0];
    recv_count_[2 * a + 1] = n[1];
  }
  connect_peer_axes(peer);
}

// Peer updates along an axis need every rank's neighbours along it on its
// node and every mapping to succeed: decided by all ranks together (a rank
// and its neighbour must agree), at every ghost exchange, since the send
// lists' buffers may have grown. Axes `settled` were exchanged GPU to GPU:
// their update handles came with the ghosts.
void MpiCommunicator::connect_peer_axes(const std::array<bool, 3>& settled) {
  if (!peer_) return;  // no storage here reads its neighbours' memory, or --transport host
  for (int a = 0; a < 3; ++a) {
    if (settled[a]) continue;
    peer_axis_[a] = false;
    if (d_.grid[a] == 1) continue;
    const int lo = nbr_[a][0], hi = nbr_[a][1];
    const bool on_node = node_of_[lo] == node_of_[rank_] && node_of_[hi] == node_of_[rank_];
    peer_axis_[a] = peer_->connect(links(a), on_node);
  }
}

// Only the first split axis: the later ones forward ghosts that the
// earlier axes' updates refresh, so they pack after those reads.
void MpiCommunicator::begin_update() {
  early_axis_ = -1;
  if (size_ == 1 || device_ghosts_) return;
  int a = 0;
  while (a < 3 && d_.grid[a] == 1) ++a;
  if (a == 3 || !peer_axis_[a]) return;
  peer_->pack_early(links(a), int(updates_done_ % 2));
  early_axis_ = a;
}

void MpiCommunicator::update_ghosts() {
  if (size_ == 1) return;  // the whole periodic box: nothing moves, no ghosts
  if (device_ghosts_) {  // enqueued whole, axis after axis (later axes forward what earlier ones refresh)
    for (int a = 0; a < 3; ++a)
      if (d_.grid[a] > 1) device_ghosts_->update_ghosts(links(a), {recv_count_[2 * a], recv_count_[2 * a + 1]}, 0);
    ++updates_;
    ++peer_updates_;
    return;
  }
  const int half = int(updates_done_++ % 2);
  bool peer = false;
  for (int a = 0; a < 3; ++a) {
    if (d_.grid[a] == 1) continue;
    const std::array<std::size_t, 2> counts = {recv_count_[2 * a], recv_count_[2 * a + 1]};
    if (!peer_axis_[a]) {
      host_->update_ghosts(links(a), counts, half);
      continue;
    }
    peer = true;
    if (early_axis_ == a)
      // Packed by begin_update, and the rebuild decision since (a collective
      // every rank enters after waiting for its device) says that every
      // rank's packs are done and, as the transport's "packed" note does,
      // that its reads of the last update are.
      peer_->pull_packed(links(a), half);
    else
      peer_->update_ghosts(links(a), counts, half);
  }
  early_axis_ = -1;
  ++updates_;
  if (peer) ++peer_updates_;
}

// As migrate_through, with the MD particles' records left on the device
// (the storage's DeviceRecordsOp): the leavers' counts are the one host
// wait of an axis (they size the messages), a note of two counts goes to
// each neighbour through MPI, and the records cross by DeviceLinks on the
// storage's stream, where they are unpacked.
void MpiCommunicator::migrate_device(DeviceRecordsOp& store, double& pack_s) {
  constexpr std::size_t record = DomainStorageOp::kMigrateRecord;
  for (int a = 0; a < 3; ++a) {
    if (d_.grid[a] == 1) continue;
    DeviceLeavers out;
    {
      MpiTimer t{pack_s};
      out = store.take_leavers_device(slab(a));
    }
    const AxisLinks l = links(a);
    const std::array<std::size_t, 2> in = exchange_counts(l, out.count, tag_of(MpiTag::device_notes, a, 2), mpi_s_);
    MpiTimer t{pack_s};
    double* arrivals = store.arrivals(in[0] + in[1], record);
    const std::size_t b = record * sizeof(double);
    nccl_->exchange(a, {out.records, out.records + out.count[0] * record}, {out.count[0] * b, out.count[1] * b},
                    {arrivals, arrivals + in[0] * record}, {in[0] * b, in[1] * b}, store.device_stream());
    store.add_locals_device(in[0] + in[1]);
  }
  ++migrations_;
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
