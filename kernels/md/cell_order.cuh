// The particles in cell order, every step (nlist=cells): a counting sort
// from the cell list just built. The cells' counts are scanned into each
// cell's first slot; each cell's members (ascending old index, as both cell
// lists give them) take the slots from there, which makes the sort stable:
// a particle that stayed in its cell keeps its place relative to its cell
// mates, and sorting a sorted state changes nothing. Then every per-particle
// array the step carries over (pos, vel, vel_pred, tag, image, signature)
// is gathered into scratch and copied back, last_pos taking the new
// positions. The force is not moved: it is rewritten by this step's pair
// force before anything reads it.
//
// Every kernel returns at once after an abort (an overflow of the atomic
// cell list): the state stays that of the failed step, in its old order,
// and the host grows the cells and sorts again (cuda_step_graph.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/device_views.cuh"

namespace meso::cuda {

// The scratch of one sort, carved from the neighbor list's storage
// (cell_order_scratch_bytes): the permutation, one gather buffer per array
// moved, and the scan's temporary storage.
struct CellOrderScratch {
  uint32_t* perm;  // new slot k takes old particle perm[k]
  void* pos;
  void* vel;
  void* vel_pred;  // null when the run keeps no vel_pred
  uint32_t* tag;
  Image* image;
  uint32_t* signature;  // null without TEA signatures
  void* scan_temp;
  std::size_t scan_temp_bytes;
};

// Bytes of scratch for n particles, ncells cells and S4 storage (vel_pred
// and signature counted always), and its layout at `base`.
template <class S4>
std::size_t cell_order_scratch_bytes(uint32_t n, uint32_t ncells);
template <class S4>
CellOrderScratch cell_order_scratch(void* base, uint32_t n, uint32_t ncells, bool vel_pred, bool signature);

// Sorts the particles p.n (one rank: no ghosts) into the cell order of
// `cells` (built from p.pos just before) and writes start[c], the first slot
// of cell c, for c <= ncells (start[ncells] = n).
template <class S4>
void sort_into_cell_order(ParticleView<S4> p, const CellView& cells, uint32_t ncells, uint32_t* start,
                          const CellOrderScratch& sc, StepControl* ctl, cudaStream_t s);

}  // namespace meso::cuda
