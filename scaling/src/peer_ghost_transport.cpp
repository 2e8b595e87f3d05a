#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ghost_transport.hpp"

namespace meso::scaling {
namespace {

constexpr std::size_t kHandle = 128;  // bytes of a buffer handle in a note (cudaIpcMemHandle_t: 64)

std::vector<unsigned char> fixed_handle(std::vector<unsigned char> h, const char* what) {
  if (h.size() > kHandle) throw std::logic_error(std::string(what) + " handle larger than 128 bytes");
  h.resize(kHandle, 0);
  return h;
}

}  // namespace

std::array<std::size_t, 2> PeerGhostTransport::exchange_ghosts(const AxisLinks& l, const DomainSlab& s) {
  const int a = l.axis;
  const int tag = tag_of(MpiTag::peer_ghosts, a);
  // The note to each neighbour: the counts of send lists 2a and 2a + 1,
  // the handle of the buffer holding both (select_ghosts_peer), and the
  // export of the update buffer of the send list it goes with (the
  // updates' handles travel here rather than in connect()).
  struct Note {
    uint64_t n_lo = 0, n_hi = 0;
    uint64_t handle_size = 0, update_size = 0;
    unsigned char handle[kHandle] = {};
    unsigned char update[kHandle] = {};
  };
  auto fill = [](unsigned char* to, uint64_t& size, const std::vector<unsigned char>& h) {
    if (h.size() > kHandle) throw std::logic_error("peer exchange handle larger than 128 bytes");
    std::copy(h.begin(), h.end(), to);
    size = h.size();
  };
  Note to_lo, to_hi, from_lo, from_hi;
  {
    std::size_t n_lo = 0, n_hi = 0;
    const std::vector<unsigned char> h = peer_.select_ghosts_peer(s, l.one, n_lo, n_hi);
    to_lo.n_lo = to_hi.n_lo = n_lo;
    to_lo.n_hi = to_hi.n_hi = n_hi;
    fill(to_lo.handle, to_lo.handle_size, h);
    fill(to_hi.handle, to_hi.handle_size, h);
    fill(to_lo.update, to_lo.update_size, peer_.export_update(2 * a));
    if (!l.one) fill(to_hi.update, to_hi.update_size, peer_.export_update(2 * a + 1));
  }
  {
    MpiTimer t{mpi_s_};
    MPI_Sendrecv(&to_lo, sizeof to_lo, MPI_BYTE, l.lo, tag, &from_hi, sizeof from_hi, MPI_BYTE, l.hi, tag, l.cart,
                 MPI_STATUS_IGNORE);
    if (!l.one)
      MPI_Sendrecv(&to_hi, sizeof to_hi, MPI_BYTE, l.hi, tag + 1, &from_lo, sizeof from_lo, MPI_BYTE, l.lo, tag + 1,
                   l.cart, MPI_STATUS_IGNORE);
  }
  auto handle = [](const Note& n) { return std::vector<unsigned char>(n.handle, n.handle + n.handle_size); };
  auto import = [&](int slot, const Note& n) {
    if (!peer_.import_update(slot, std::vector<unsigned char>(n.update, n.update + n.update_size)))
      throw std::runtime_error("ghost updates: the update buffer of message " + std::to_string(slot) +
                               " from a rank of this node cannot be mapped any more; --transport host sends "
                               "updates through the host");
  };
  // As the host transport: slot 2a holds what came from the lower
  // neighbour (its list 2a + 1; one neighbour: its list 2a, the union),
  // slot 2a + 1 what came from the upper one (its list 2a), in this order,
  // so the ghosts are stored as they would be through the host.
  std::array<std::size_t, 2> n{};
  if (l.one) {
    peer_.add_ghosts_peer(2 * a, handle(from_hi), 0, from_hi.n_lo);
    n[0] = from_hi.n_lo;
    import(2 * a, from_hi);
  } else {
    peer_.add_ghosts_peer(2 * a, handle(from_lo), from_lo.n_lo, from_lo.n_hi);
    peer_.add_ghosts_peer(2 * a + 1, handle(from_hi), 0, from_hi.n_lo);
    n[0] = from_lo.n_hi;
    n[1] = from_hi.n_lo;
    import(2 * a, from_lo);
    import(2 * a + 1, from_hi);
  }
  return n;
}

// Handles travel as the records do: send list 2a to the lower neighbour,
// 2a + 1 to the upper; from the lower one into message slot 2a, from the
// upper one into 2a + 1 (one neighbour: its union list, slot 2a).
bool PeerGhostTransport::connect(const AxisLinks& l, bool neighbours_on_node) {
  const int a = l.axis;
  int ok = neighbours_on_node ? 1 : 0;
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, l.cart);
  if (!all) return false;
  const std::vector<unsigned char> to_lo = fixed_handle(peer_.export_update(2 * a), "peer update");
  const std::vector<unsigned char> to_hi = l.one ? to_lo : fixed_handle(peer_.export_update(2 * a + 1), "peer update");
  std::vector<unsigned char> from_lo(kHandle), from_hi(kHandle);
  {
    MpiTimer t{mpi_s_};
    const int tag = tag_of(MpiTag::peer_handles, a);
    MPI_Sendrecv(to_lo.data(), kHandle, MPI_BYTE, l.lo, tag, from_hi.data(), kHandle, MPI_BYTE, l.hi, tag, l.cart,
                 MPI_STATUS_IGNORE);
    if (!l.one)
      MPI_Sendrecv(to_hi.data(), kHandle, MPI_BYTE, l.hi, tag + 1, from_lo.data(), kHandle, MPI_BYTE, l.lo, tag + 1,
                   l.cart, MPI_STATUS_IGNORE);
  }
  // One neighbour: what it sent (its list 2a) fills slot 2a.
  ok = l.one ? peer_.import_update(2 * a, from_hi)
             : peer_.import_update(2 * a, from_lo) && peer_.import_update(2 * a + 1, from_hi);
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, l.cart);
  return all != 0;
}

void PeerGhostTransport::pack_early(const AxisLinks& l, int half) {
  peer_.pack_update_peer(2 * l.axis, half);
  if (!l.one) peer_.pack_update_peer(2 * l.axis + 1, half);
}

void PeerGhostTransport::pull_packed(const AxisLinks& l, int half) {
  peer_.pull_update(2 * l.axis, half);
  if (!l.one) peer_.pull_update(2 * l.axis + 1, half);
}

// Each rank packs into its own buffer, says so, and reads its neighbours'.
// The halves alternate: a neighbour still reading the last update's half
// has not yet sent the message that lets this rank pack the next update
// into it (it sends it after wait_packed, which follows its reads on its
// stream).
void PeerGhostTransport::update_ghosts(const AxisLinks& l, const std::array<std::size_t, 2>&, int half) {
  const int a = l.axis;
  peer_.pack_update_peer(2 * a, half);
  if (!l.one) peer_.pack_update_peer(2 * a + 1, half);
  peer_.wait_packed();
  {
    MpiTimer t{mpi_s_};
    const int tag = tag_of(MpiTag::peer_ready, a);
    char out = 1, in = 0;
    MPI_Sendrecv(&out, 1, MPI_CHAR, l.lo, tag, &in, 1, MPI_CHAR, l.hi, tag, l.cart, MPI_STATUS_IGNORE);
    if (!l.one) MPI_Sendrecv(&out, 1, MPI_CHAR, l.hi, tag + 1, &in, 1, MPI_CHAR, l.lo, tag + 1, l.cart, MPI_STATUS_IGNORE);
  }
  pull_packed(l, half);
}

}  // namespace meso::scaling
