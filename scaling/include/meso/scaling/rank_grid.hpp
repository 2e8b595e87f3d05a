// The 3-D grid of ranks a box is split over (HOOMD-blue's
// DomainDecomposition): the factorisation of the rank count whose domains
// have the least ghost volume (faces, edges and corners of width r_c +
// skin along the split axes), which is what every step exchanges.
// No MPI here, so the choice is tested without it.
#pragma once

#include <array>
#include <string>

#include "meso/box.hpp"

namespace meso::scaling {

using RankGrid = std::array<int, 3>;

// The grid of `ranks` ranks over `box` with the least ghost volume whose
// domains are all at least `ghost_width` wide along every split axis.
// Ties go to the grid that splits x most, then y. Throws InputError naming
// the box, the rank count and the ghost width when no grid fits.
RankGrid choose_rank_grid(int ranks, const Box& box, double ghost_width);

// Checks a given grid (product == ranks, domains not thinner than the ghost
// width); throws InputError naming the axis, the domain width and the ghost
// width.
void check_rank_grid(const RankGrid& grid, int ranks, const Box& box, double ghost_width);

// "2x2x1" <-> {2, 2, 1}; parse throws InputError on anything else.
RankGrid parse_rank_grid(const std::string& s);
std::string to_string(const RankGrid& g);

}  // namespace meso::scaling
