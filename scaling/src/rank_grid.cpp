#include "meso/scaling/rank_grid.hpp"

#include <limits>
#include <sstream>
#include <string>

#include "meso/core/error.hpp"

namespace meso::scaling {
namespace {

double length(const Box& box, int axis) {
  const Vec3d L = box.lengths();
  return axis == 0 ? L.x : axis == 1 ? L.y : L.z;
}

// The first axis whose domains would be thinner than the ghost layer, or -1.
int too_thin(const RankGrid& g, const Box& box, double ghost_width) {
  for (int a = 0; a < 3; ++a)
    if (g[a] > 1 && length(box, a) / g[a] < ghost_width) return a;
  return -1;
}

}  // namespace

double rank_grid_cost(const RankGrid& g, const Box& box, double ghost_width, double round_volume) {
  double outer = 1.0, inner = 1.0;
  int rounds = 0;
  for (int a = 0; a < 3; ++a) {
    const double w = length(box, a) / g[a];
    inner *= w;
    outer *= g[a] > 1 ? w + 2.0 * ghost_width : w;
    rounds += g[a] > 1 ? 1 : 0;
  }
  return outer - inner + round_volume * rounds;
}

RankGrid choose_rank_grid(int ranks, const Box& box, double ghost_width, double density, bool slit_walls) {
  if (ranks < 1) throw_input_error("the number of ranks must be at least 1, not ", ranks);
  const double round_volume = density > 0.0 ? kRoundGhosts / density : 0.0;
  RankGrid best{0, 0, 0};
  double best_cost = std::numeric_limits<double>::infinity();
  for (int px = ranks; px >= 1; --px) {
    if (ranks % px) continue;
    for (int py = ranks / px; py >= 1; --py) {
      if ((ranks / px) % py) continue;
      const RankGrid g{px, py, ranks / (px * py)};
      if (too_thin(g, box, ghost_width) >= 0 || (slit_walls && g[2] > 1)) continue;
      const double cost = rank_grid_cost(g, box, ghost_width, round_volume);
      if (cost < best_cost * (1.0 - 1e-12)) {
        best_cost = cost;
        best = g;
      }
    }
  }
  if (best[0] == 0) {
    const Vec3d L = box.lengths();
    throw_input_error("no grid of ", ranks, " ranks splits the box ", L.x, " x ", L.y, " x ", L.z,
                      slit_walls ? " along x and y (slit walls keep z whole)" : "",
                      " into domains at least as wide as the ghost layer (", ghost_width, ": r_c + skin, or two cells of an MPCD solvent",
                      "): use fewer ranks or a larger system");
  }
  return best;
}

void check_rank_grid(const RankGrid& g, int ranks, const Box& box, double ghost_width, bool slit_walls) {
  if (g[0] < 1 || g[1] < 1 || g[2] < 1 || g[0] * g[1] * g[2] != ranks)
    throw_input_error("rank grid ", to_string(g), " does not have ", ranks, " ranks");
  if (slit_walls && g[2] > 1) {
    // A grid of the same ranks that keeps z whole, if the box has one.
    std::string instead = to_string(RankGrid{g[0] * g[2], g[1], 1});
    try {
      instead = to_string(choose_rank_grid(ranks, box, ghost_width, 0.0, true));
    } catch (const InputError&) {
    }
    throw_input_error("rank grid ", to_string(g), " splits z, the axis normal to the slit walls: walls run on ",
                      "grids of one rank along z (such as --grid ", instead, ")");
  }
  const int a = too_thin(g, box, ghost_width);
  if (a >= 0)
    throw_input_error("rank grid ", to_string(g), " makes domains ", length(box, a) / g[a], " wide along ",
                      "xyz"[a], " (box ", length(box, a), "), thinner than the ghost layer (",
                      ghost_width, ": r_c + skin, or two cells of an MPCD solvent)");
}

RankGrid parse_rank_grid(const std::string& s) {
  RankGrid g{0, 0, 0};
  char x1 = 0, x2 = 0;
  std::istringstream in(s);
  if (!(in >> g[0] >> x1 >> g[1] >> x2 >> g[2]) || x1 != 'x' || x2 != 'x' || !in.eof() || g[0] < 1 ||
      g[1] < 1 || g[2] < 1)
    throw_input_error("rank grid '", s, "' is not of the form AxBxC with positive integers (e.g. 2x1x1)");
  return g;
}

std::string to_string(const RankGrid& g) {
  return std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]);
}

}  // namespace meso::scaling
