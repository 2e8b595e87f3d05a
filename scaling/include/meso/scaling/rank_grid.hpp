// The 3-D grid of ranks a box is split over (HOOMD-blue's
// DomainDecomposition): the factorisation of the rank count of least cost,
// the ghost volume of a domain (faces, edges and corners of width r_c +
// skin along the split axes: what every step exchanges) plus a latency term
// per split axis (the axes exchange one after the other).
// No MPI here, so the choice is tested without it.
#pragma once

#include <array>
#include <string>

#include "meso/core/box.hpp"

namespace meso::scaling {

using RankGrid = std::array<int, 3>;

// The cost model of a grid, in units of ghost volume: the ghost volume of
// one domain (faces, edges and corners), plus `round_volume` for each split
// axis. The axes' messages go one axis after the other (later axes forward
// the ghosts of edges and corners), so each split axis adds a round of
// latency whatever its size; `round_volume` is the ghost volume whose
// exchange and handling cost as much. 0: ghost volume alone.
double rank_grid_cost(const RankGrid& g, const Box& box, double ghost_width, double round_volume = 0.0);

// One more round of messages along an axis costs as much as about this many
// ghost particles: on four H100s (NVLink), dpd-fluid at 1M particles a GPU
// took 0.042 ms a step longer on 2x2x1 than on 4x1x1 (2% more ghost volume,
// one more round), and 0.091 ms longer on two GPUs than on one (one round
// and 61,000 ghosts): 0.04 ms a round, 0.83 ns a ghost (results/scaling).
inline constexpr double kRoundGhosts = 48000.0;

// The grid of `ranks` ranks over `box` of least rank_grid_cost whose
// domains are all at least `ghost_width` wide along every split axis
// (particle density `density`: round_volume = kRoundGhosts / density; 0:
// ghost volume alone). Ties go to the grid that splits x most, then y.
// `slit_walls`: the system has slit walls normal to z (docs/walls.md), which
// run on grids of one rank along z, so that both walls lie in every domain.
// Throws InputError naming the box, the rank count and the ghost width when
// no grid fits.
RankGrid choose_rank_grid(int ranks, const Box& box, double ghost_width, double density = 0.0,
                          bool slit_walls = false);

// Checks a given grid (product == ranks, domains not thinner than the ghost
// width, one rank along z with slit walls); throws InputError naming the
// axis, the domain width and the ghost width, or the grid that splits z
// across the walls and one that does not.
void check_rank_grid(const RankGrid& grid, int ranks, const Box& box, double ghost_width, bool slit_walls = false);

// "2x2x1" <-> {2, 2, 1}; parse throws InputError on anything else.
RankGrid parse_rank_grid(const std::string& s);
std::string to_string(const RankGrid& g);

}  // namespace meso::scaling
