// What the hydrophobic beads of an amphiphile solution have assembled into
// (the dpd-vesicle workload; Tang & Karniadakis sec. 4.5, Figs. 14-16):
// aggregates, and per aggregate whether it is a micelle, a bilayer sheet or
// a closed vesicle, with the vesicles' radii and bilayer thickness. One
// configuration at a time; `mesobench morphology` runs it over a trajectory
// and the vesicle-formation gate over its runs.
//
// The method, in a periodic box:
//   1. Aggregates: the hydrophobic beads linked when closer than `link`
//      (union-find over a cell list, minimum image); clusters of fewer than
//      `min_beads` beads are free chains, not aggregates.
//   2. Pockets: the box cut into voxels of about `voxel`; a voxel is
//      membrane if a hydrophobic bead of an aggregate lies in it (or, with
//      `dilate`, in one of its 26 neighbours: that closes gaps in a sparse
//      membrane, and also the lumens of a few r_c that multi-compartment
//      vesicles hold; at the bead density 5 of a bilayer's core a voxel of
//      r_c is empty with probability e^-5, so none is needed there). The
//      other voxels are flood-filled (6-connected, periodic) into regions. A
//      region that reaches its own periodic image (the bulk, or the solvent
//      between stacked sheets) is open; any other region with at least
//      `min_pocket_solvent` solvent beads is a pocket: solvent that the bulk
//      cannot reach, a vesicle's lumen. A vesicle is closed exactly when
//      such a pocket exists.
//   3. Kinds: an aggregate that touches a pocket is a vesicle (one per
//      pocket: a multi-compartment vesicle counts each of its lumens); one
//      that reaches its own periodic image is a sheet (a membrane across the
//      box); otherwise the gyration tensor decides: a sheet when its
//      smallest eigenvalue is below `flat` times the middle one (a disk; a
//      rod, with two small ones, is a micelle), else a micelle.
//   4. A vesicle's figures are its largest lumen's wall's, seen from the
//      lumen's centre along 32 cones of equal solid angle: in each cone the
//      hydrophobic beads from the innermost outwards until a gap in distance
//      of `link`. The radius is the median over the cones of their wall's
//      median distance, the bilayer thickness the median of their walls'
//      spreads (5th to 95th percentile), the area per chain 4 pi R^2 over the
//      chains with a bead in the wall. Per cone, because the aggregates that
//      hold lumens fuse with micelles, discs and other vesicles: the spread
//      of all their beads about one lumen is the aggregate's extent.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/core/particle_data.hpp"

namespace meso {

struct MorphologyParams {
  uint32_t hydrophobic_type = 1;  // B of dpd-vesicle
  uint32_t solvent_type = 2;      // S
  uint32_t chain_length = 8;      // tags t / chain_length name the chain (chains first)
  uint64_t chains = 0;            // chain tags are [0, chains * chain_length)
  double link = 1.0;              // r_c
  uint32_t min_beads = 30;        // about five chains' B beads
  double voxel = 1.0;
  bool dilate = false;
  uint32_t min_pocket_solvent = 20;
  double flat = 0.15;

  void validate() const;  // throws InputError naming the bad value
};

enum class AggregateKind : uint8_t { micelle, sheet, vesicle };
const char* to_string(AggregateKind k);

struct Aggregate {
  AggregateKind kind = AggregateKind::micelle;
  uint64_t beads = 0;   // hydrophobic beads
  uint64_t chains = 0;  // chains with a hydrophobic bead in it
  bool spans = false;   // reaches its own periodic image
  uint32_t pockets = 0; // lumens it encloses (vesicles)
  // Vesicles: the largest lumen's centre, its wall's radius and thickness
  // (step 4 above), that lumen's volume, and the area per chain.
  Vec3d centre{0, 0, 0};
  double radius = 0.0, thickness = 0.0, lumen_volume = 0.0, area_per_chain = 0.0;
  // The 5th-95th percentile spread of all its hydrophobic beads' distances
  // from that centre: the thickness for a lone spherical vesicle, the
  // extent of what fused with it otherwise.
  double extent = 0.0;
};

struct Morphology {
  std::vector<Aggregate> aggregates;  // largest first
  uint64_t chains = 0;                // chains in the system
  uint64_t chains_aggregated = 0;     // chains with a hydrophobic bead in an aggregate
  uint32_t micelles = 0, sheets = 0, vesicles = 0;  // vesicles counts lumens
  double chain_fraction() const { return chains ? double(chains_aggregated) / double(chains) : 0.0; }
};

// p holds every particle once (a gathered frame: any order).
Morphology analyse_morphology(const Box& box, const ParticleData<double>& p, const MorphologyParams& m);

}  // namespace meso
