// The TEA signatures the reference DPD force's rng=tea noise reads (the
// force, "pair_force/dpd", is src/md/pair_dpd.cpp over pair_force.hpp's loop).
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
