#include "meso/scaling/mpi_communicator.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <chrono>
#include <cstdlib>
#include <numeric>
#include <string>

#include "meso/backend.hpp"
#include "meso/error.hpp"

namespace meso::scaling {
namespace {

using Clock = std::chrono::steady_clock;

double axis_of(const Vec3d& v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

// Adds the seconds of its lifetime to `acc` (time inside MPI calls).
struct MpiTimer {
  double& acc;
  Clock::time_point t0 = Clock::now();
  ~MpiTimer() { acc += std::chrono::duration<double>(Clock::now() - t0).count(); }
};

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    throw std::runtime_error(std::string(what) + ": " + std::string(msg, len));
  }
}

}  // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm, const Box& box, double ghost_width, RankGrid grid) {
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
  if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
}

CommunicatorFactory MpiCommunicator::factory(MPI_Comm comm, RankGrid grid) {
  return [comm, grid](const Box& box, double ghost_width) -> std::unique_ptr<Communicator> {
    return std::make_unique<MpiCommunicator>(comm, box, ghost_width, grid);
  };
}

void MpiCommunicator::attach(Backend& b) {
  msg_.reset();  // its memory may belong to the storage replaced here
  storage_ = b.create_as<DomainStorageOp>("domain");
  msg_ = std::make_unique<Messages>(storage_->message_memory());
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

void MpiCommunicator::exchange(int a, const Records& to_lo, const Records& to_hi,
                               int tag) {
  MpiTimer t{mpi_s_};
  const bool one = d_.grid[a] == 2;
  const int lo = nbr_[a][0], hi = nbr_[a][1];
  // Sizes, then the records (non-blocking both ways).
  unsigned long long out[2] = {to_lo.size(), to_hi.size()}, in[2] = {0, 0};
  MPI_Request rq[4];
  int k = 0;
  if (one) {
    MPI_Sendrecv(&out[0], 1, MPI_UNSIGNED_LONG_LONG, lo, tag, &in[0], 1, MPI_UNSIGNED_LONG_LONG, lo, tag, cart_,
                 MPI_STATUS_IGNORE);
    msg_->recv[0].resize(in[0]);
    msg_->recv[1].clear();
    MPI_Irecv(msg_->recv[0].data(), int(in[0]), MPI_DOUBLE, lo, tag + 1, cart_, &rq[k++]);
    MPI_Isend(to_lo.data(), int(out[0]), MPI_DOUBLE, lo, tag + 1, cart_, &rq[k++]);
  } else {
    // What goes down arrives from above, and the reverse.
    MPI_Sendrecv(&out[0], 1, MPI_UNSIGNED_LONG_LONG, lo, tag, &in[1], 1, MPI_UNSIGNED_LONG_LONG, hi, tag, cart_,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&out[1], 1, MPI_UNSIGNED_LONG_LONG, hi, tag + 2, &in[0], 1, MPI_UNSIGNED_LONG_LONG, lo, tag + 2,
                 cart_, MPI_STATUS_IGNORE);
    msg_->recv[0].resize(in[0]);
    msg_->recv[1].resize(in[1]);
    MPI_Irecv(msg_->recv[0].data(), int(in[0]), MPI_DOUBLE, lo, tag + 3, cart_, &rq[k++]);
    MPI_Irecv(msg_->recv[1].data(), int(in[1]), MPI_DOUBLE, hi, tag + 1, cart_, &rq[k++]);
    MPI_Isend(to_lo.data(), int(out[0]), MPI_DOUBLE, lo, tag + 1, cart_, &rq[k++]);
    MPI_Isend(to_hi.data(), int(out[1]), MPI_DOUBLE, hi, tag + 3, cart_, &rq[k++]);
  }
  MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
}

template <class Store>
void MpiCommunicator::migrate_through(Store& store, int tag, double& pack_s) {
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
    exchange(a, msg_->send[0], msg_->send[1], tag + 10 * a);
    MpiTimer t{pack_s};
    store.add_locals(msg_->recv[0]);
    store.add_locals(msg_->recv[1]);
  }
  ++migrations_;
}

void MpiCommunicator::migrate() {
  if (size_ == 1) return;  // the whole periodic box: nothing moves, no ghosts
  storage_->clear_ghosts();
  double timed_by_the_storage = 0.0;  // DomainStorageOp::pack_seconds
  migrate_through(*storage_, 100, timed_by_the_storage);
}

// The first exchange goes through the host and decides (setup_peer_updates)
// per axis whether ranks may read each other's device buffers; from then on
// the records of those axes go GPU to GPU (a mapping that fails later is an
// error: the ranks and their GPUs have not changed).
void MpiCommunicator::exchange_ghosts() {
  if (size_ == 1) return;  // the whole periodic box: nothing moves, no ghosts
  early_axis_ = -1;  // the update begun this step is dropped: a rebuild replaces it
  recv_count_.fill(0);
  ++exchanges_;
  const std::array<bool, 3> peer = peer_axis_;  // decided at the last exchange
  if (std::find(peer.begin(), peer.end(), true) != peer.end()) ++peer_exchanges_;
  for (int a = 0; a < 3; ++a) {
    if (d_.grid[a] == 1) continue;
    const bool one = d_.grid[a] == 2;
    if (peer[a]) {
      exchange_ghosts_peer(a);
      continue;
    }
    msg_->send[0].clear();
    msg_->send[1].clear();
    storage_->select_ghosts(slab(a), one, msg_->send[0], msg_->send[1]);
    exchange(a, msg_->send[0], msg_->send[1], 200 + 10 * a);
    // Slot 2a: from the lower neighbour (or the only one); 2a + 1: from the upper.
    storage_->add_ghosts(2 * a, msg_->recv[0]);
    recv_count_[2 * a] = msg_->recv[0].size() / DomainStorageOp::kGhostRecord;
    if (!one) {
      storage_->add_ghosts(2 * a + 1, msg_->recv[1]);
      recv_count_[2 * a + 1] = msg_->recv[1].size() / DomainStorageOp::kGhostRecord;
    }
  }
  setup_peer_updates(peer);
}

void MpiCommunicator::exchange_ghosts_peer(int a) {
  const bool one = d_.grid[a] == 2;
  const int lo = nbr_[a][0], hi = nbr_[a][1], tag = 500 + 10 * a;
  // The note to each neighbour: the counts of send lists 2a and 2a + 1,
  // the handle of the buffer holding both (select_ghosts_peer), and the
  // export of the update buffer of the send list it goes with (the
  // updates' handles travel here rather than in setup_peer_updates).
  struct Note {
    uint64_t n_lo = 0, n_hi = 0;
    uint64_t handle_size = 0, update_size = 0;
    unsigned char handle[128] = {};
    unsigned char update[128] = {};
  };
  auto fill = [](unsigned char* to, uint64_t& size, const std::vector<unsigned char>& h) {
    if (h.size() > 128) throw std::logic_error("peer exchange handle larger than 128 bytes");
    std::copy(h.begin(), h.end(), to);
    size = h.size();
  };
  Note to_lo, to_hi, from_lo, from_hi;
  {
    std::size_t n_lo = 0, n_hi = 0;
    const std::vector<unsigned char> h = storage_->select_ghosts_peer(slab(a), one, n_lo, n_hi);
    to_lo.n_lo = to_hi.n_lo = n_lo;
    to_lo.n_hi = to_hi.n_hi = n_hi;
    fill(to_lo.handle, to_lo.handle_size, h);
    fill(to_hi.handle, to_hi.handle_size, h);
    fill(to_lo.update, to_lo.update_size, storage_->export_update(2 * a));
    if (!one) fill(to_hi.update, to_hi.update_size, storage_->export_update(2 * a + 1));
  }
  {
    MpiTimer t{mpi_s_};
    MPI_Sendrecv(&to_lo, sizeof to_lo, MPI_BYTE, lo, tag, &from_hi, sizeof from_hi, MPI_BYTE, hi, tag, cart_,
                 MPI_STATUS_IGNORE);
    if (!one)
      MPI_Sendrecv(&to_hi, sizeof to_hi, MPI_BYTE, hi, tag + 1, &from_lo, sizeof from_lo, MPI_BYTE, lo, tag + 1,
                   cart_, MPI_STATUS_IGNORE);
  }
  auto handle = [](const Note& n) { return std::vector<unsigned char>(n.handle, n.handle + n.handle_size); };
  auto import = [&](int slot, const Note& n) {
    if (!storage_->import_update(slot, std::vector<unsigned char>(n.update, n.update + n.update_size)))
      throw std::runtime_error("ghost updates: the update buffer of message " + std::to_string(slot) +
                               " from a rank of this node cannot be mapped any more; MESO_PEER_UPDATES=0 sends "
                               "updates through the host");
  };
  // As exchange_ghosts through the host: slot 2a holds what came from the
  // lower neighbour (its list 2a + 1; one neighbour: its list 2a, the
  // union), slot 2a + 1 what came from the upper one (its list 2a), in this
  // order, so the ghosts are stored as they would be through the host.
  if (one) {
    storage_->add_ghosts_peer(2 * a, handle(from_hi), 0, from_hi.n_lo);
    recv_count_[2 * a] = from_hi.n_lo;
    import(2 * a, from_hi);
  } else {
    storage_->add_ghosts_peer(2 * a, handle(from_lo), from_lo.n_lo, from_lo.n_hi);
    storage_->add_ghosts_peer(2 * a + 1, handle(from_hi), 0, from_hi.n_lo);
    recv_count_[2 * a] = from_lo.n_hi;
    recv_count_[2 * a + 1] = from_hi.n_lo;
    import(2 * a, from_lo);
    import(2 * a + 1, from_hi);
  }
}

// Peer updates along an axis need every rank's neighbours along it on its
// node and every mapping to succeed: decided by all ranks together (a rank
// and its neighbour must agree), at every ghost exchange, since the send
// lists' buffers may have grown. Handles travel as the records do: send
// list 2a to the lower neighbour, 2a + 1 to the upper; from the lower one
// into message slot 2a, from the upper one into 2a + 1 (one neighbour: its
// union list, slot 2a).
void MpiCommunicator::setup_peer_updates(const std::array<bool, 3>& settled) {
  const char* env = std::getenv("MESO_PEER_UPDATES");
  const bool wanted = storage_->peer_updates() && !(env && std::string(env) == "0");
  constexpr int kHandle = 128;
  for (int a = 0; a < 3; ++a) {
    if (settled[a]) continue;  // exchanged GPU to GPU: the handles came with the ghosts
    peer_axis_[a] = false;
    if (d_.grid[a] == 1) continue;
    const bool one = d_.grid[a] == 2;
    const int lo = nbr_[a][0], hi = nbr_[a][1];
    int ok = wanted && node_of_[lo] == node_of_[rank_] && node_of_[hi] == node_of_[rank_] ? 1 : 0;
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, cart_);
    if (!all) continue;
    auto fixed = [&](std::vector<unsigned char> h) {
      if (h.size() > kHandle) throw std::logic_error("peer update handle larger than 128 bytes");
      h.resize(kHandle, 0);
      return h;
    };
    const std::vector<unsigned char> to_lo = fixed(storage_->export_update(2 * a));
    const std::vector<unsigned char> to_hi = one ? to_lo : fixed(storage_->export_update(2 * a + 1));
    std::vector<unsigned char> from_lo(kHandle), from_hi(kHandle);
    {
      MpiTimer t{mpi_s_};
      const int tag = 600 + 10 * a;
      MPI_Sendrecv(to_lo.data(), kHandle, MPI_BYTE, lo, tag, from_hi.data(), kHandle, MPI_BYTE, hi, tag, cart_,
                   MPI_STATUS_IGNORE);
      if (!one)
        MPI_Sendrecv(to_hi.data(), kHandle, MPI_BYTE, hi, tag + 1, from_lo.data(), kHandle, MPI_BYTE, lo, tag + 1,
                     cart_, MPI_STATUS_IGNORE);
    }
    // One neighbour: what it sent (its list 2a) fills slot 2a.
    ok = one ? storage_->import_update(2 * a, from_hi)
             : storage_->import_update(2 * a, from_lo) && storage_->import_update(2 * a + 1, from_hi);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, cart_);
    peer_axis_[a] = all != 0;
  }
}

// Only the first split axis: the later ones forward ghosts that the
// earlier axes' updates refresh, so they pack after those reads.
void MpiCommunicator::begin_update() {
  early_axis_ = -1;
  if (size_ == 1) return;
  int a = 0;
  while (a < 3 && d_.grid[a] == 1) ++a;
  if (a == 3 || !peer_axis_[a]) return;
  const int half = int(updates_done_ % 2);
  storage_->pack_update_peer(2 * a, half);
  if (d_.grid[a] != 2) storage_->pack_update_peer(2 * a + 1, half);
  early_axis_ = a;
}

void MpiCommunicator::update_ghosts() {
  if (size_ == 1) return;  // the whole periodic box: nothing moves, no ghosts
  const int half = int(updates_done_++ % 2);
  bool peer = false;
  for (int a = 0; a < 3; ++a) {
    if (d_.grid[a] == 1) continue;
    const bool one = d_.grid[a] == 2;
    if (peer_axis_[a]) {
      // Each rank packs into its own buffer, says so, and reads its
      // neighbours'. The halves alternate: a neighbour still reading the
      // last update's half has not yet sent the message that lets this
      // rank pack the next update into it (it sends it after wait_packed,
      // which follows its reads on its stream).
      peer = true;
      if (early_axis_ == a) {
        // Packed by begin_update, and the rebuild decision since (a
        // collective every rank enters after waiting for its device) says
        // that every rank's packs are done and, as for the message below,
        // that its reads of the last update are.
        storage_->pull_update(2 * a, half);
        if (!one) storage_->pull_update(2 * a + 1, half);
        continue;
      }
      storage_->pack_update_peer(2 * a, half);
      if (!one) storage_->pack_update_peer(2 * a + 1, half);
      storage_->wait_packed();
      {
        MpiTimer t{mpi_s_};
        const int lo = nbr_[a][0], hi = nbr_[a][1], tag = 700 + 10 * a;
        char out = 1, in = 0;
        MPI_Sendrecv(&out, 1, MPI_CHAR, lo, tag, &in, 1, MPI_CHAR, hi, tag, cart_, MPI_STATUS_IGNORE);
        if (!one) MPI_Sendrecv(&out, 1, MPI_CHAR, hi, tag + 1, &in, 1, MPI_CHAR, lo, tag + 1, cart_, MPI_STATUS_IGNORE);
      }
      storage_->pull_update(2 * a, half);
      if (!one) storage_->pull_update(2 * a + 1, half);
      continue;
    }
    storage_->pack_update(2 * a, msg_->send[0]);
    if (!one) storage_->pack_update(2 * a + 1, msg_->send[1]);
    else msg_->send[1].clear();
    {
      MpiTimer t{mpi_s_};
      const int lo = nbr_[a][0], hi = nbr_[a][1];
      const int tag = 300 + 10 * a;
      MPI_Request rq[4];
      int k = 0;
      msg_->recv[0].resize(recv_count_[2 * a] * storage_->update_record());
      MPI_Irecv(msg_->recv[0].data(), int(msg_->recv[0].size()), MPI_DOUBLE, lo, one ? tag : tag + 1, cart_, &rq[k++]);
      if (!one) {
        msg_->recv[1].resize(recv_count_[2 * a + 1] * storage_->update_record());
        MPI_Irecv(msg_->recv[1].data(), int(msg_->recv[1].size()), MPI_DOUBLE, hi, tag, cart_, &rq[k++]);
        MPI_Isend(msg_->send[0].data(), int(msg_->send[0].size()), MPI_DOUBLE, lo, tag, cart_, &rq[k++]);
        MPI_Isend(msg_->send[1].data(), int(msg_->send[1].size()), MPI_DOUBLE, hi, tag + 1, cart_, &rq[k++]);
      } else {
        MPI_Isend(msg_->send[0].data(), int(msg_->send[0].size()), MPI_DOUBLE, lo, tag, cart_, &rq[k++]);
      }
      MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
    }
    storage_->unpack_update(2 * a, msg_->recv[0]);
    if (!one) storage_->unpack_update(2 * a + 1, msg_->recv[1]);
  }
  early_axis_ = -1;
  ++updates_;
  if (peer) ++peer_updates_;
}

void MpiCommunicator::attach_solvent(Backend& b) {
  solvent_ = b.create_as<MpcdDomainOp>("mpcd/domain");
  if (!msg_) msg_ = std::make_unique<Messages>(solvent_->message_memory());
}

void MpiCommunicator::migrate_solvent() {
  if (size_ == 1) return;
  if (!solvent_) throw std::logic_error("MpiCommunicator::migrate_solvent before attach_solvent");
  migrate_through(*solvent_, 400, solvent_pack_s_);
}

namespace {

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<int64_t>() {
  return MPI_INT64_T;
}
template <>
MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}

}  // namespace

// Axis by axis (so that the layers of edges and corners, combined along x
// first, are combined again along y and z): each rank sends its first and
// last layer along the axis, each prefixed by its global plane index, to
// the lower and the upper neighbour, and combines what arrives into its own
// layer of the same plane (a neighbour's layer of another plane shares no
// cell). Neighbours along an axis share their extents along the other two,
// so the layers have the same size on both sides.
template <class T, class Fn>
void MpiCommunicator::combine(const CellRange& r, std::vector<T>& v, int width, Fn fn, const Overlap& overlap) const {
  bool overlapped = false;
  auto run_overlap = [&](MPI_Request* rq, int k) {
    if (overlapped || !overlap) return;
    overlapped = true;
    overlap([rq, k] {
      int done = 0;
      if (k > 0) MPI_Testall(k, rq, &done, MPI_STATUSES_IGNORE);
    });
  };
  if (size_ == 1) {
    run_overlap(nullptr, 0);
    return;
  }
  if (v.size() != r.cells() * std::size_t(width))
    throw std::logic_error("combine_layers: values do not match the cell range");
  for (int a = 0; a < 3; ++a) {
    if (d_.grid[a] == 1) continue;
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    const std::size_t layer = std::size_t(r.count[b]) * r.count[c] * width;
    // Cell (i, j, k) of the range is at ((k count[1] + j) count[0] + i)
    // width: the layer at `along` walks the other two axes by their strides.
    const std::size_t stride[3] = {std::size_t(width), std::size_t(r.count[0]) * width,
                                   std::size_t(r.count[0]) * r.count[1] * width};
    const std::size_t sb = stride[b], sc = stride[c];
    auto pack = [&](int along, std::vector<T>& out) {
      out.resize(layer + 1);
      T* o = out.data();
      *o++ = T((r.first[a] + along) % r.n[a]);
      const T* base = v.data() + std::size_t(along) * stride[a];
      for (int jc = 0; jc < r.count[c]; ++jc)
        for (int jb = 0; jb < r.count[b]; ++jb) {
          const T* x = base + jc * sc + jb * sb;
          for (int w = 0; w < width; ++w) *o++ = x[w];
        }
    };
    auto merge = [&](const T* in) {  // one layer as packed, into the layer of the same plane
      const int plane = int(in[0]);
      for (int along : {0, r.count[a] - 1}) {
        if ((r.first[a] + along) % r.n[a] != plane) continue;
        const T* x = in + 1;
        T* base = v.data() + std::size_t(along) * stride[a];
        for (int jc = 0; jc < r.count[c]; ++jc)
          for (int jb = 0; jb < r.count[b]; ++jb) {
            T* mine = base + jc * sc + jb * sb;
            for (int w = 0; w < width; ++w, ++x) mine[w] = fn(mine[w], *x, w);
          }
      }
    };
    const int lo = nbr_[a][0], hi = nbr_[a][1];
    const std::size_t msg = layer + 1;
    const bool one = d_.grid[a] == 2;
    std::vector<T> to_lo, to_hi, from_lo(one ? 2 * msg : msg), from_hi(msg);
    {
      MpiTimer t{solvent_pack_s_};
      pack(0, to_lo);
      pack(r.count[a] - 1, to_hi);
      if (one) to_lo.insert(to_lo.end(), to_hi.begin(), to_hi.end());  // one neighbour: both layers in one message
    }
    const MPI_Datatype dt = mpi_type<T>();
    MPI_Request rq[4];
    int k = 0;
    {
      MpiTimer t{mpi_s_};
      if (one) {
        MPI_Irecv(from_lo.data(), int(2 * msg), dt, lo, 500 + a, cart_, &rq[k++]);
        MPI_Isend(to_lo.data(), int(2 * msg), dt, lo, 500 + a, cart_, &rq[k++]);
      } else {
        MPI_Irecv(from_hi.data(), int(msg), dt, hi, 510 + a, cart_, &rq[k++]);
        MPI_Irecv(from_lo.data(), int(msg), dt, lo, 520 + a, cart_, &rq[k++]);
        MPI_Isend(to_lo.data(), int(msg), dt, lo, 510 + a, cart_, &rq[k++]);
        MPI_Isend(to_hi.data(), int(msg), dt, hi, 520 + a, cart_, &rq[k++]);
      }
    }
    // The first split axis's messages fly while the overlap runs (it is
    // compute: not timed as MPI).
    run_overlap(rq, k);
    {
      MpiTimer t{mpi_s_};
      MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
    }
    MpiTimer t{solvent_pack_s_};
    merge(from_lo.data());
    merge(one ? from_lo.data() + msg : from_hi.data());
  }
  run_overlap(nullptr, 0);  // no axis is split: the overlap still runs
}

void MpiCommunicator::combine_layers(const CellRange& r, std::vector<int64_t>& v, int width,
                                     const Overlap& overlap) const {
  combine(r, v, width, [](int64_t mine, int64_t theirs, int) { return mine + theirs; }, overlap);
}

void MpiCommunicator::combine_layers(const CellRange& r, std::vector<double>& v, int width, uint32_t max_mask,
                                     const Overlap& overlap) const {
  combine(
      r, v, width,
      [max_mask](double mine, double theirs, int w) {
        return (max_mask >> w) & 1u ? std::max(mine, theirs) : mine + theirs;
      },
      overlap);
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
