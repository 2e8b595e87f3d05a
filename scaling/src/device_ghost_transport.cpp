#include <cstdint>

#include "ghost_transport.hpp"

namespace meso::scaling {

std::array<std::size_t, 2> exchange_counts(const AxisLinks& l, const std::array<std::size_t, 2>& count, int tag,
                                           double& mpi_s) {
  const uint64_t note[2] = {count[0], count[1]};
  uint64_t from_lo[2] = {0, 0}, from_hi[2] = {0, 0};
  MpiTimer t{mpi_s};
  MPI_Sendrecv(note, 2, MPI_UINT64_T, l.lo, tag, from_hi, 2, MPI_UINT64_T, l.hi, tag, l.cart, MPI_STATUS_IGNORE);
  if (l.one) return {from_hi[0], from_hi[1]};
  MPI_Sendrecv(note, 2, MPI_UINT64_T, l.hi, tag + 1, from_lo, 2, MPI_UINT64_T, l.lo, tag + 1, l.cart,
               MPI_STATUS_IGNORE);
  return {from_lo[1], from_hi[0]};
}

// Slot 2a receives from the lower neighbour (its list 2a + 1; one
// neighbour: its list 2a, the union), slot 2a + 1 from the upper one (its
// list 2a), as through the host: DeviceLinks' from[0] and from[1].
std::array<std::size_t, 2> DeviceGhostTransport::exchange_ghosts(const AxisLinks& l, const DomainSlab& s) {
  const int a = l.axis;
  std::size_t n_lo = 0, n_hi = 0;
  const double* out = dev_.select_ghosts_device(s, l.one, n_lo, n_hi);
  const std::array<std::size_t, 2> in = exchange_counts(l, {n_lo, n_hi}, tag_of(MpiTag::device_notes, a, 0), mpi_s_);
  constexpr std::size_t kRec = DomainStorageOp::kGhostRecord, b = kRec * sizeof(double);
  double* arrivals = dev_.arrivals(in[0] + in[1], kRec);
  links_.exchange(a, {out, out + n_lo * kRec}, {n_lo * b, n_hi * b}, {arrivals, arrivals + in[0] * kRec},
                  {in[0] * b, in[1] * b}, dev_.device_stream());
  dev_.add_ghosts_device(2 * a, 0, in[0]);
  dev_.add_ghosts_device(2 * a + 1, in[0], in[1]);
  return in;
}

// Nothing waits: the sizes are the exchange's, the buffers are reused in
// stream order (a pack follows the last send of its buffer on the stream).
void DeviceGhostTransport::update_ghosts(const AxisLinks& l, const std::array<std::size_t, 2>& counts, int) {
  std::array<std::size_t, 2> out_count{};
  const double* out = dev_.pack_updates_device(l.axis, out_count);
  const std::size_t rec = storage_.update_record(), b = rec * sizeof(double);
  double* in = dev_.arrivals(counts[0] + counts[1], rec);
  links_.exchange(l.axis, {out, out + out_count[0] * rec}, {out_count[0] * b, out_count[1] * b},
                  {in, in + counts[0] * rec}, {counts[0] * b, counts[1] * b}, dev_.device_stream());
  dev_.unpack_updates_device(l.axis, counts);
}

}  // namespace meso::scaling
