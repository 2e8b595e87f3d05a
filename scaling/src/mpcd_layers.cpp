// The MPCD solvent's shared cell layers, combined over ranks between the
// phases of a decomposed collision (Howard et al.'s outer cells;
// meso/ops/communicator.hpp, combine_layers): integer sums exact, so the
// decomposed collision is bitwise the one-rank one.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "meso/scaling/mpi_communicator.hpp"
#include "mpi_links.hpp"

namespace meso::scaling {

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
        MPI_Irecv(from_lo.data(), int(2 * msg), dt, lo, tag_of(MpiTag::layers, a), cart_, &rq[k++]);
        MPI_Isend(to_lo.data(), int(2 * msg), dt, lo, tag_of(MpiTag::layers, a), cart_, &rq[k++]);
      } else {
        MPI_Irecv(from_hi.data(), int(msg), dt, hi, tag_of(MpiTag::layers, a, 1), cart_, &rq[k++]);
        MPI_Irecv(from_lo.data(), int(msg), dt, lo, tag_of(MpiTag::layers, a, 2), cart_, &rq[k++]);
        MPI_Isend(to_lo.data(), int(msg), dt, lo, tag_of(MpiTag::layers, a, 1), cart_, &rq[k++]);
        MPI_Isend(to_hi.data(), int(msg), dt, hi, tag_of(MpiTag::layers, a, 2), cart_, &rq[k++]);
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

}  // namespace meso::scaling
