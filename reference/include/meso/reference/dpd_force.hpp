// Reference DPD forces: the "pair_force/dpd" operation (src/dpd_force.cpp;
// the loop is pair_force.hpp's, its factory is declared there as
// make_dpd_force), and the TEA signatures its rng=tea noise reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "meso/physics/vec3.hpp"
#include "meso/reference/pair_force.hpp"

namespace meso::reference {

// TEA signatures of all particles from their tags and the velocities the
// dissipation uses.
template <class Real>
void compute_tea_signatures(const Vec3<Real>* velocity, const uint32_t* tag, std::size_t n,
                            uint32_t seed, std::vector<uint32_t>& out);

}  // namespace meso::reference
