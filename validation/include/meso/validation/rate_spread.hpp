// The rate-spread negative control of the polymerization gates (issue 57):
// chains that do not all grow at one rate, though their mean rate is the
// rate equation's. Each chain's end reacts with its own probability, drawn
// once per run, uniform in [(1 - spread) P, (1 + spread) P] (clamped to
// [0, 1]); the gates that test the chains' spread must reject it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace meso::validation {

// One probability per chain, from `seed` (the run's), the same on every
// platform (Philox, not a standard library distribution).
std::vector<double> spread_chain_probabilities(std::size_t chains, double p, double spread, uint64_t seed);

}  // namespace meso::validation
