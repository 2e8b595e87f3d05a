#include "meso/core/polymerization.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/physics/polymerization.hpp"

namespace meso {

void Polymerization::validate(const Box& box, uint32_t ntypes, const Topology& topology,
                              const ParticleData<double>& p) const {
  if (!(capture_radius > 0.0) || !(capture_radius < 0.5 * box.min_length()))
    throw_input_error("polymerization capture radius ", capture_radius, " is invalid: it must lie in (0, L/2 = ",
                      0.5 * box.min_length(), ") for the minimum-image convention");
  if (!(probability >= 0.0 && probability <= 1.0))
    throw_input_error("polymerization probability ", probability, " is invalid: it must lie in [0, 1]");
  if (!chain_probability.empty() && chain_probability.size() != initiators.size())
    throw_input_error("polymerization chain probabilities: ", chain_probability.size(), " given for ",
                      initiators.size(), " initiators (one per chain, or none)");
  for (std::size_t k = 0; k < chain_probability.size(); ++k)
    if (!(chain_probability[k] >= 0.0 && chain_probability[k] <= 1.0))
      throw_input_error("polymerization probability ", chain_probability[k], " of chain ", k,
                        " is invalid: it must lie in [0, 1]");
  if (monomer_type >= ntypes)
    throw_input_error("polymerization monomer type ", monomer_type, " is out of range: there are ", ntypes,
                      " types");
  if (reacted_type >= ntypes)
    throw_input_error("polymerization reacted type ", reacted_type, " is out of range: there are ", ntypes,
                      " types");
  if (bond_type >= topology.bond_types.size())
    throw_input_error("polymerization bond type ", bond_type, " is out of range: the topology has ",
                      topology.bond_types.size(), " bond types");
  if (initiators.empty()) throw_input_error("polymerization needs at least one initiator (active end)");
  std::vector<uint32_t> sorted = initiators;
  std::sort(sorted.begin(), sorted.end());
  if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
    throw_input_error("polymerization initiator tag ", *twice, " is given twice");
  if (sorted.back() >= p.n_local)
    throw_input_error("polymerization initiator tag ", sorted.back(), " is no particle's: the tags are 0 .. ",
                      p.n_local - 1);
  for (std::size_t i = 0; i < p.n_local; ++i)
    if (p.tag[i] == physics::kAcceptDraw)
      throw_input_error("particle tag ", p.tag[i], " is reserved in a polymerizing system (the acceptance draw's "
                        "counter word)");
}

}  // namespace meso
