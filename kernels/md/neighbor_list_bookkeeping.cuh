// Bookkeeping of the neighbor list around the builders (neighbor_list.cuh):
// closing a build (reference positions, counters, overflow -> abort) and the
// displacement check that decides when to rebuild (Verlet skin: rebuild once
// some particle has moved more than half the skin since the last build).
// The list state lives in StepControl::list (list_control.cuh).
#pragma once

#include <cuda_runtime.h>

#include "core/device_views.cuh"
#include "meso/ops/communicator.hpp"

namespace meso::cuda {

// Copies positions to last_pos (the reference of the displacement check) and
// bookkeeps the build in ctl (builds, steps_since_build, the longest row
// count[i] into list.nlist_max, overflow -> abort).
template <class S4>
void finish_nlist_build(const S4* pos, S4* last_pos, const uint32_t* count, uint32_t n,
                        StepControl* ctl, cudaStream_t s);

// Largest squared displacement since the last build, into ctl->list.max_disp_bits
// (atomicMax on the bits of a non-negative double, which order as integers).
template <class S4>
void max_displacement(const S4* pos, const S4* last_pos, uint32_t n, const Box& box,
                      StepControl* ctl, cudaStream_t s);

// The faces a rank shares (several ranks): along each split axis the
// domain [lo, lo + width) of a periodic box of length len. A particle
// nearer than `reach` to one of them (r_c + skin with a margin over the
// builders' rounding) may have a ghost in its row.
struct EdgeFaces {
  int count = 0;  // split axes
  int axis[3] = {0, 0, 0};
  double lo[3] = {0, 0, 0}, len[3] = {0, 0, 0}, width[3] = {0, 0, 0};
  double reach = 0.0;
};

// The faces of domain d that neighbouring ranks share, and the reach of a
// row: r_list = r_c + skin, widened far beyond the builders' 2^-20 (fp32
// lists).
EdgeFaces edge_faces(const Domain& d, double r_list);

// edge[i] = 1 for the local particles [0, n) within reach of a shared face
// and for every other row of their group of 32 (i / 32: the force kernels'
// warps, so that no warp runs in both launches), 0 for the others
// (NlistView::edge), at a build: the rows are fixed until the next one, and
// a row of a particle farther than r_c + skin from every face holds no
// ghost (a ghost lies beyond some face).
template <class S4>
void mark_edge_rows(const S4* pos, uint32_t n, const EdgeFaces& f, uint8_t* edge, cudaStream_t s);

}  // namespace meso::cuda
