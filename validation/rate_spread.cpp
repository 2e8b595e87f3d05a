#include "meso/validation/rate_spread.hpp"

#include <algorithm>

#include "meso/core/error.hpp"
#include "meso/physics/philox.hpp"

namespace meso::validation {

std::vector<double> spread_chain_probabilities(std::size_t chains, double p, double spread, uint64_t seed) {
  if (!(spread >= 0.0 && spread <= 1.0))
    throw_input_error("the chains' rate spread ", spread, " is invalid: it must lie in [0, 1]");
  // Philox4x32-10 keyed by the seed and a stream of its own ("RSPR"), one
  // counter per chain: u in (0, 1].
  const physics::Philox4x32Key key{{static_cast<uint32_t>(seed), 0x52535052u}};
  std::vector<double> out(chains);
  for (std::size_t k = 0; k < chains; ++k) {
    const physics::Philox4x32Ctr d = physics::philox4x32_10(
        physics::Philox4x32Ctr{{static_cast<uint32_t>(k), static_cast<uint32_t>(seed >> 32), 0u, 0u}}, key);
    const double u = physics::uniform_open01(d.v[0], d.v[1]);
    out[k] = std::clamp(p * (1.0 + spread * (2.0 * u - 1.0)), 0.0, 1.0);
  }
  return out;
}

}  // namespace meso::validation
