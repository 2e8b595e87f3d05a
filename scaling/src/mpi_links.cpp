#include "mpi_links.hpp"

namespace meso::scaling {

void exchange_records(const AxisLinks& l, const Records& to_lo, const Records& to_hi, std::array<Records, 2>& recv,
                      int tag, double& mpi_s) {
  MpiTimer t{mpi_s};
  unsigned long long out[2] = {to_lo.size(), to_hi.size()}, in[2] = {0, 0};
  MPI_Request rq[4];
  int k = 0;
  if (l.one) {
    MPI_Sendrecv(&out[0], 1, MPI_UNSIGNED_LONG_LONG, l.lo, tag, &in[0], 1, MPI_UNSIGNED_LONG_LONG, l.lo, tag, l.cart,
                 MPI_STATUS_IGNORE);
    recv[0].resize(in[0]);
    recv[1].clear();
    MPI_Irecv(recv[0].data(), int(in[0]), MPI_DOUBLE, l.lo, tag + 1, l.cart, &rq[k++]);
    MPI_Isend(to_lo.data(), int(out[0]), MPI_DOUBLE, l.lo, tag + 1, l.cart, &rq[k++]);
  } else {
    // What goes down arrives from above, and the reverse.
    MPI_Sendrecv(&out[0], 1, MPI_UNSIGNED_LONG_LONG, l.lo, tag, &in[1], 1, MPI_UNSIGNED_LONG_LONG, l.hi, tag, l.cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&out[1], 1, MPI_UNSIGNED_LONG_LONG, l.hi, tag + 2, &in[0], 1, MPI_UNSIGNED_LONG_LONG, l.lo, tag + 2,
                 l.cart, MPI_STATUS_IGNORE);
    recv[0].resize(in[0]);
    recv[1].resize(in[1]);
    MPI_Irecv(recv[0].data(), int(in[0]), MPI_DOUBLE, l.lo, tag + 3, l.cart, &rq[k++]);
    MPI_Irecv(recv[1].data(), int(in[1]), MPI_DOUBLE, l.hi, tag + 1, l.cart, &rq[k++]);
    MPI_Isend(to_lo.data(), int(out[0]), MPI_DOUBLE, l.lo, tag + 1, l.cart, &rq[k++]);
    MPI_Isend(to_hi.data(), int(out[1]), MPI_DOUBLE, l.hi, tag + 3, l.cart, &rq[k++]);
  }
  MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
}

}  // namespace meso::scaling
