// Reference Lennard-Jones forces: the "pair_force/lj" operation
// (src/lj_force.cpp; the loop is pair_force.hpp's, its factory is declared
// there as make_lj_force).
#pragma once

#include "meso/reference/pair_force.hpp"
