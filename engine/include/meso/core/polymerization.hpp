// Stochastic chain-growth polymerization (GALAMOST's model: Liu, Zhu, Lu et
// al.; docs/polymerization.md). Every `period` steps, after the step:
//
//   1. each active end draws u; it attempts a reaction when u <= P;
//   2. an attempting end picks one free monomer within the capture radius
//      (minimum image), uniformly at random by a key drawn per pair;
//   3. a monomer picked by several ends joins one of them, uniformly at
//      random (the smallest claim); the others wait for their next attempt;
//   4. a bond of `bond_type` joins end and monomer, the monomer takes
//      `reacted_type` and becomes the chain's active end, the old end goes
//      inert.
//
// A free monomer is a particle of `monomer_type` that is neither an
// initiator nor bonded at t = 0; each initiator grows one chain from its
// own active end. Draws are keyed by (seed, step, tags)
// (meso/physics/polymerization.hpp), so the bonds formed do not depend on
// the order particles are stored or visited in. The new bond acts from the
// next step's force on (as LAMMPS' fix bond/create, which also forms bonds
// between the steps' force evaluations).
#pragma once

#include <cstdint>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/core/particle_data.hpp"
#include "meso/core/topology.hpp"

namespace meso {

struct Polymerization {
  uint64_t period = 0;          // steps between attempts; 0: no polymerization
  double capture_radius = 0.0;  // an end reaches monomers within this distance
  double probability = 0.0;     // P: an end attempts with this probability
  // Per chain (initiators' order), its end's P in place of `probability`;
  // empty: every end at `probability`. The rate-spread negative controls of
  // the polymerization gates set it (chains that do not grow at one rate).
  std::vector<double> chain_probability;
  uint32_t monomer_type = 0;
  uint32_t reacted_type = 0;
  uint32_t bond_type = 0;            // a type of the topology's bond_types
  std::vector<uint32_t> initiators;  // tags of the active ends at t = 0

  bool enabled() const { return period > 0; }
  // The P of the end of chain k (initiators' order).
  double probability_of(std::size_t k) const { return chain_probability.empty() ? probability : chain_probability[k]; }
  // Throws InputError naming the bad value: a capture radius not in
  // (0, L/2), P outside [0, 1] (also a chain's, or chain probabilities not
  // one per initiator), a type or bond type out of range, an
  // initiator tag that is repeated or no particle's, no initiator, or a
  // particle tagged 0xffffffff (the acceptance draw's counter word).
  void validate(const Box& box, uint32_t ntypes, const Topology& topology, const ParticleData<double>& p) const;
};

// What a run's reactions did so far (the polymerize operation's record).
struct PolymerizationStats {
  uint64_t attempts = 0;         // reaction steps done
  uint64_t reactions = 0;        // bonds formed
  uint64_t contested = 0;        // claims lost to another end on the same monomer
  uint64_t free_monomers = 0;    // left now
  uint64_t initial_monomers = 0; // free at t = 0
  // Well-mixedness: over the ends that attempted (u <= P), the free
  // monomers found in their capture spheres, and the free monomers there
  // were in the whole box at the time. For monomers uniform and independent
  // of the ends, candidates = box_monomers x v_c / V; fewer mean the
  // reactions deplete the ends' surroundings faster than diffusion refills
  // them.
  uint64_t attempting = 0;
  uint64_t candidates = 0;
  double box_monomers = 0.0;
  // Monomers added to each initiator's chain, in Polymerization::initiators order.
  std::vector<uint32_t> growth;
};

}  // namespace meso
