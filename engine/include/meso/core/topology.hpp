// Molecular topology: bonds and angles between particles, named by tag, with
// per-type parameters (meso/physics/bonded.hpp has the potentials and the
// angle convention). Stored as GALAMOST stores it for the GPU: per particle,
// the bonds and angles it takes part in (BondedLists), so one thread per
// particle sums its own bonded forces without atomics, in a fixed order.
//
// File format (read_topology; docs/topology.md): one record per line, `#`
// starts a comment, types are declared before use, tags are the particles'
// tags (0 .. N-1):
//
//   bond_type  NAME harmonic K R0            V = K/2 (r - R0)^2
//   bond_type  NAME fene K RMAX [EPS SIGMA]  FENE, optional WCA core
//   angle_type NAME harmonic K THETA0_DEG    V = K/2 (theta - theta0)^2
//   bond_type  NAME table FILE KEYWORD       the table KEYWORD of FILE
//   angle_type NAME table FILE KEYWORD       (LAMMPS bond_style/angle_style
//                                            table files, meso/tables/bonded_table.hpp;
//                                            FILE relative to the topology's
//                                            directory)
//   bond  NAME TAG_A TAG_B
//   angle NAME TAG_A TAG_B TAG_C             TAG_B is the vertex
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "meso/tables/bonded_table.hpp"
#include "meso/physics/bonded.hpp"

namespace meso {

enum class BondKind : uint8_t { harmonic, fene, table };
enum class AngleKind : uint8_t { harmonic, table };

struct BondType {
  std::string name;
  BondKind kind = BondKind::harmonic;
  physics::HarmonicBondParams harmonic;
  physics::FeneBondParams fene;
  uint32_t table = 0;  // kind table: the index in Topology::bond_tables
};

struct AngleType {
  std::string name;
  physics::HarmonicAngleParams harmonic;  // theta0 in radians
  AngleKind kind = AngleKind::harmonic;
  uint32_t table = 0;  // kind table: the index in Topology::angle_tables
};

struct Bond {
  uint32_t a, b;  // tags
  uint32_t type;
};

struct Angle {
  uint32_t a, b, c;  // tags; b is the vertex
  uint32_t type;
};

struct Topology {
  std::vector<BondType> bond_types;
  std::vector<AngleType> angle_types;
  std::vector<Bond> bonds;
  std::vector<Angle> angles;
  // The tables of the table kinds (bond tables on r, angle tables on theta).
  std::vector<BondedTable> bond_tables, angle_tables;

  bool empty() const { return bonds.empty() && angles.empty(); }
  // Whether a bond or angle type is tabulated: such a topology needs the
  // "bonded/table" operation, which not every backend has.
  bool has_tables() const;
  // Throws InputError naming the first bad entry: a tag >= ntags, a bond of
  // a particle to itself, an angle with a repeated tag, a type out of range,
  // a non-positive or non-finite k, r0 < 0, FENE r_max <= 0, theta0 outside
  // [0, pi], a table index out of range or a table of the wrong kind.
  void validate(uint64_t ntags) const;
};

// Reads the format above. Throws InputError naming `source`, the line number
// and the offending field.
Topology read_topology(std::istream& in, const std::string& source);
Topology read_topology_file(const std::string& path);

// Per particle (indexed by tag), CSR: the bonds and angles it takes part in.
// A bond appears in both particles' rows, an angle in all three; each row
// keeps the order of the topology, so the sums are deterministic. Throws
// InputError for a tag >= ntags.
struct BondedLists {
  std::vector<uint32_t> bond_start;    // ntags + 1
  std::vector<uint32_t> bond_partner;  // the other tag
  std::vector<uint32_t> bond_type;
  std::vector<uint32_t> angle_start;   // ntags + 1
  std::vector<uint32_t> angle_tags;    // a, b, c of the angle (3 per entry)
  std::vector<uint32_t> angle_type;
};
BondedLists make_bonded_lists(const Topology& t, uint64_t ntags);

}  // namespace meso
