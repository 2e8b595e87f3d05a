// The random draws of stochastic chain-growth polymerization (GALAMOST's
// model; meso/core/polymerization.hpp has the rule they serve). Every draw is a
// pure function of (seed, step, tags), so the CPU reference and a device
// kernel form the same bonds whatever order they visit ends and monomers in,
// and however many threads claim a monomer at once (ARCHITECTURE.md, "Random
// numbers"). Philox4x32-10 with its own stream id in key word 1 ("PLMZ").
//
//   accept:    counter {end, step lo, step hi, kAcceptDraw}: u in (0, 1];
//              the end attempts a reaction when u <= P.
//   candidate: counter {end, step lo, step hi, monomer}: a 32-bit key; the
//              end picks the free monomer in its capture sphere with the
//              smallest (key, monomer tag), a uniform choice among them
//              that no visiting order can change.
//   claim:     (candidate key << 32) | end tag: a monomer picked by several
//              ends joins the one with the smallest claim, a uniform choice
//              among them (GALAMOST lets the first thread win); one 64-bit
//              atomicMin on the device.
#pragma once

#include <cmath>
#include <cstdint>

#include "meso_hd.hpp"
#include "philox.hpp"

namespace meso::physics {

namespace polymerization_detail {
inline constexpr uint32_t kPolymerizationStream = 0x504c4d5au;  // "PLMZ"
}  // namespace polymerization_detail

// The counter word that marks the acceptance draw: no particle has this tag
// (System::validate refuses it in a polymerizing system).
inline constexpr uint32_t kAcceptDraw = 0xffffffffu;

MESO_HD Philox4x32Ctr polymerization_draw(uint32_t seed, uint64_t step, uint32_t end_tag, uint32_t word) {
  const Philox4x32Key key{{seed, polymerization_detail::kPolymerizationStream}};
  const uint32_t lo = static_cast<uint32_t>(step), hi = static_cast<uint32_t>(step >> 32);
  return philox4x32_10(Philox4x32Ctr{{end_tag, lo, hi, word}}, key);
}

// Whether the active end `end_tag` attempts a reaction at `step` (u <= P).
MESO_HD bool polymerization_accepts(uint32_t seed, uint64_t step, uint32_t end_tag, double probability) {
  const Philox4x32Ctr d = polymerization_draw(seed, step, end_tag, kAcceptDraw);
  return uniform_open01(d.v[0], d.v[1]) <= probability;
}

// The key of the pair (end, monomer) at `step`: the end picks its candidate
// with the smallest (key, monomer tag) as one 64-bit number.
MESO_HD uint64_t polymerization_candidate(uint32_t seed, uint64_t step, uint32_t end_tag, uint32_t monomer_tag) {
  const Philox4x32Ctr d = polymerization_draw(seed, step, end_tag, monomer_tag);
  return (static_cast<uint64_t>(d.v[0]) << 32) | monomer_tag;
}

// The claim of an end on its candidate (its key's random half and the end's
// tag): the smallest claim on a monomer wins it.
MESO_HD uint64_t polymerization_claim(uint64_t candidate, uint32_t end_tag) {
  return (candidate & 0xffffffff00000000ull) | end_tag;
}

// The capture cell along one axis of a position x: floor((x - lo) / length
// x nc) clamped to [0, nc) (x at the upper face rounds into the last cell).
// The cells are at least one capture radius wide, so an end finds every
// monomer in range in its own cell and the neighbouring ones.
MESO_HD uint32_t polymerization_cell(double x, double lo, double length, uint32_t nc) {
  const double k = floor((x - lo) / length * nc);
  return k < 0.0 ? 0u : k >= static_cast<double>(nc) ? nc - 1u : static_cast<uint32_t>(k);
}

}  // namespace meso::physics
