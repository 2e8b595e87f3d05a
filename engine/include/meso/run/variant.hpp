// A variant selects how a backend traverses data, never the physics
// (ARCHITECTURE.md, "Backends and variants"). It is parsed once from strings
// such as "nlist=ballot,pow=fast,precision=mixed,sort=100,rng=philox,fuse=off,tpp=4"
// into typed axes; unspecified axes keep their defaults (those of Variant{},
// or of a base variant: a workload's default, see parse(text, base)). Every
// result records the variant it ran with, split into the axes the backend
// honoured and those it ignored.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "meso/physics/rng_kind.hpp"

namespace meso {

// The neighbor list: full rows (each pair in both particles' rows) by the
// ballot, atomic or tiled builder, or half rows (each pair once, split by
// index parity in the tiled builder) whose forces are applied to both
// particles with Newton's third law, summed in 64-bit fixed point (DPD on one
// rank only; kernels/md/pair_force_half.cuh), or cluster-pair rows (j-clusters
// of 4 per i-cluster of 8 consecutive particles, DPD and LJ on one rank, with
// a reorder; kernels/md/pair_force_cluster.cuh), or no list at all (cells:
// the particles sorted into cell order every step, each pair of a half
// stencil of cells evaluated once and summed in fixed point; DPD and the
// isotropic styles on one rank; kernels/md/pair_force_cells.cuh).
enum class NlistKind : uint8_t { ballot, atomic, tiled, half, cluster, cells };
enum class CellsKind : uint8_t { atomic, sorted };
enum class ReorderKind : uint8_t { none, morton2, hilbert, cell };
enum class PowKind : uint8_t { libm, fast };
enum class Precision : uint8_t { double_, mixed, single };
// The DPD pair noise's Gaussian transform: fp64 (Box-Muller in fp64 from
// 53-bit uniforms), or fp32 (the same uniforms rounded to fp32, Box-Muller in
// fp32; for fp32 storage, see meso/physics/pair_noise.hpp for its error).
enum class NoiseKind : uint8_t { fp64, fp32 };
// How the DPD force kernel gathers a neighbour: split (position, velocity, tag
// and signature from their own arrays, the last three only for pairs inside
// r_c, one list slot at a time), masked (the same loads, but the positions of
// up to 32 slots first, then only the pairs inside r_c: bitwise the forces of
// split, with the warp's lanes busy), or record (one record per particle,
// packed before the kernel, with everything a pair loads; several slots'
// records in flight at a time).
enum class GatherKind : uint8_t { split, record, masked };
// How the MD-SCF field update assigns particle densities to the grid
// (kernels/mdscf_density_*.cu): gather (particles binned by grid cell, then
// one thread per vertex sums the cloud-in-cell weights of the 8 cells
// around it: no atomics, a fixed summation order; GALAMOST's Algorithm 1),
// or scatter (one thread per particle adds its 8 weights with fp64 atomics).
enum class DensityKind : uint8_t { gather, scatter };
// Schedule axes: when and how the CUDA backend launches its work, never what
// it computes (each is tested bitwise against its default). A canonical
// string names them only where they leave their default, so that the names,
// checkpoints and results of runs at the defaults read as before they were
// axes (they were environment variables, MESO_CUDA_GRAPHS and the like).
//
// The interior rows' forces of a decomposed step beside the rebuild vote
// and the ghost update: off, on (unless the last votes' displacements say a
// rebuild is near), or always (at every step, rebuilds too: the tests').
enum class OverlapKind : uint8_t { off, on, always };
// The rebuild vote of a decomposed step whose ghost updates need none
// (--transport nccl): at the steps VoteSchedule asks for, or every step.
enum class VoteKind : uint8_t { schedule, every };
using physics::RngKind;

struct Variant {
  NlistKind nlist = NlistKind::ballot;
  CellsKind cells = CellsKind::atomic;
  ReorderKind reorder = ReorderKind::none;
  // Reorder at the first rebuild at least N steps after the last (0: every
  // rebuild); the MPCD solvent's cell list is rebuilt every collision, so it
  // sorts every N collisions (0: every collision). meso/run/step_rules.hpp.
  uint32_t sort = 0;
  PowKind pow = PowKind::libm;
  Precision precision = Precision::double_;
  RngKind rng = RngKind::philox;
  bool fuse = false;  // the last force finishes the step (second half-step folded in)
  uint32_t tpp = 1;   // threads per particle: 1, 2, 4, 8, 16 or 32
  NoiseKind noise = NoiseKind::fp64;
  GatherKind gather = GatherKind::split;
  DensityKind density = DensityKind::gather;
  // Schedule axes (above).
  bool graphs = true;           // the step as CUDA graphs; off: the same kernels enqueued from the host
  OverlapKind overlap = OverlapKind::off;
  VoteKind vote = VoteKind::schedule;
  // The decomposed MPCD collision through NCCL as a CUDA graph per touched
  // range (opt-in: measured no faster).
  bool solvent_graphs = false;
  // The solvent's migration messages through NCCL hold this many records
  // (1 to 2^26) instead of the capacity the ranks agree from what left
  // (0); a small one makes the overflow the tests check.
  uint32_t solvent_capacity = 0;

  // Parses "key=value,..." (empty string: all defaults). Throws InputError
  // naming the unknown key or value and listing the allowed ones.
  static Variant parse(std::string_view text);
  // The same, starting from `base` instead of the defaults: the axes named in
  // text override base axis by axis, the others keep base's values.
  static Variant parse(std::string_view text, const Variant& base);
  // The axes text names, in the order given (validated as parse does).
  static std::vector<std::string> named_axes(std::string_view text);

  // Canonical "key=value,..." over all axes, in a fixed order.
  std::string to_string() const;
  // Canonical string restricted to `axes` (what a backend actually honoured).
  std::string to_string(const std::vector<std::string>& axes) const;

  // The names of all axes in canonical order.
  static const std::vector<std::string>& axes();
  // What an axis may take, as `list --variants` shows it: its values, the
  // default first ("on|off"), or "N" (an integer) with its meaning.
  static std::string values(std::string_view axis);
  // The value of one axis as its string.
  std::string get(std::string_view axis) const;

  bool operator==(const Variant&) const = default;

 private:
  static Variant parse(std::string_view text, const Variant& base, std::vector<std::string>* named);
};

const char* to_string(NlistKind k);
const char* to_string(CellsKind k);
const char* to_string(ReorderKind k);
const char* to_string(PowKind k);
const char* to_string(Precision k);
const char* to_string(RngKind k);
const char* to_string(NoiseKind k);
const char* to_string(GatherKind k);
const char* to_string(DensityKind k);
const char* to_string(OverlapKind k);
const char* to_string(VoteKind k);

}  // namespace meso
