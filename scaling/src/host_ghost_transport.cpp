#include "ghost_transport.hpp"

namespace meso::scaling {

std::array<std::size_t, 2> HostGhostTransport::exchange_ghosts(const AxisLinks& l, const DomainSlab& s) {
  const int a = l.axis;
  msg_.send[0].clear();
  msg_.send[1].clear();
  storage_.select_ghosts(s, l.one, msg_.send[0], msg_.send[1]);
  exchange_records(l, msg_.send[0], msg_.send[1], msg_.recv, tag_of(MpiTag::ghosts, a), mpi_s_);
  // Slot 2a: from the lower neighbour (or the only one); 2a + 1: from the upper.
  std::array<std::size_t, 2> n{};
  storage_.add_ghosts(2 * a, msg_.recv[0]);
  n[0] = msg_.recv[0].size() / DomainStorageOp::kGhostRecord;
  if (!l.one) {
    storage_.add_ghosts(2 * a + 1, msg_.recv[1]);
    n[1] = msg_.recv[1].size() / DomainStorageOp::kGhostRecord;
  }
  return n;
}

void HostGhostTransport::update_ghosts(const AxisLinks& l, const std::array<std::size_t, 2>& counts, int) {
  const int a = l.axis;
  storage_.pack_update(2 * a, msg_.send[0]);
  if (!l.one)
    storage_.pack_update(2 * a + 1, msg_.send[1]);
  else
    msg_.send[1].clear();
  {
    MpiTimer t{mpi_s_};
    const int tag = tag_of(MpiTag::update, a);
    MPI_Request rq[4];
    int k = 0;
    msg_.recv[0].resize(counts[0] * storage_.update_record());
    MPI_Irecv(msg_.recv[0].data(), int(msg_.recv[0].size()), MPI_DOUBLE, l.lo, l.one ? tag : tag + 1, l.cart,
              &rq[k++]);
    if (!l.one) {
      msg_.recv[1].resize(counts[1] * storage_.update_record());
      MPI_Irecv(msg_.recv[1].data(), int(msg_.recv[1].size()), MPI_DOUBLE, l.hi, tag, l.cart, &rq[k++]);
      MPI_Isend(msg_.send[0].data(), int(msg_.send[0].size()), MPI_DOUBLE, l.lo, tag, l.cart, &rq[k++]);
      MPI_Isend(msg_.send[1].data(), int(msg_.send[1].size()), MPI_DOUBLE, l.hi, tag + 1, l.cart, &rq[k++]);
    } else {
      MPI_Isend(msg_.send[0].data(), int(msg_.send[0].size()), MPI_DOUBLE, l.lo, tag, l.cart, &rq[k++]);
    }
    MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
  }
  storage_.unpack_update(2 * a, msg_.recv[0]);
  if (!l.one) storage_.unpack_update(2 * a + 1, msg_.recv[1]);
}

}  // namespace meso::scaling
