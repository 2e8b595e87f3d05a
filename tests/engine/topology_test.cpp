// The topology (meso/core/topology.hpp): the reader on every record kind and on
// each bad input with its message, Topology::validate, System::validate with
// a topology, and the per-particle lists of make_bonded_lists.
#include "meso/core/topology.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/core/system.hpp"

namespace {

using namespace meso;

Topology read(const std::string& text) {
  std::istringstream in(text);
  return read_topology(in, "test.top");
}

// The message of the InputError that `f` throws; fails when it throws none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

void expect_read_error(const std::string& text, const std::string& needle) {
  const std::string msg = error_of([&] { read(text); });
  EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg << "\nwanted: " << needle;
}

void expect_invalid(const std::string& text, uint64_t ntags, const std::string& needle) {
  const Topology t = read(text);  // the reader accepts it; validate() does not
  const std::string msg = error_of([&] { t.validate(ntags); });
  EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg << "\nwanted: " << needle;
}

const char* kGood = R"(# a bead-spring model
bond_type  spring harmonic 1250 0.47   # the DPPC N-P bond
bond_type  kg     fene     30 1.5 1.0 1.0
bond_type  bare   fene     20 2.0

angle_type bend   harmonic 25 120
angle_type line   harmonic 25 180
   # an indented comment, then a blank line

bond spring 0 1
bond kg     1 2
bond bare   2 3
angle bend  0 1 2
angle line  1 2 3
)";

TEST(TopologyReader, ReadsEveryRecordKind) {
  const Topology t = read(kGood);
  ASSERT_EQ(t.bond_types.size(), 3u);
  EXPECT_EQ(t.bond_types[0].name, "spring");
  EXPECT_EQ(t.bond_types[0].kind, BondKind::harmonic);
  EXPECT_EQ(t.bond_types[0].harmonic.k, 1250.0);
  EXPECT_EQ(t.bond_types[0].harmonic.r0, 0.47);
  EXPECT_EQ(t.bond_types[1].kind, BondKind::fene);
  EXPECT_EQ(t.bond_types[1].fene.k, 30.0);
  EXPECT_EQ(t.bond_types[1].fene.r_max, 1.5);
  EXPECT_EQ(t.bond_types[1].fene.epsilon, 1.0);
  EXPECT_EQ(t.bond_types[1].fene.sigma, 1.0);
  // FENE without the WCA fields: no core (epsilon 0).
  EXPECT_EQ(t.bond_types[2].kind, BondKind::fene);
  EXPECT_EQ(t.bond_types[2].fene.k, 20.0);
  EXPECT_EQ(t.bond_types[2].fene.r_max, 2.0);
  EXPECT_EQ(t.bond_types[2].fene.epsilon, 0.0);
  ASSERT_EQ(t.angle_types.size(), 2u);
  EXPECT_EQ(t.angle_types[0].name, "bend");
  EXPECT_EQ(t.angle_types[0].harmonic.k, 25.0);
  EXPECT_NEAR(t.angle_types[0].harmonic.theta0, 2.0 * std::numbers::pi / 3.0, 1e-15);  // degrees in, radians kept
  EXPECT_NEAR(t.angle_types[1].harmonic.theta0, std::numbers::pi, 1e-15);
  ASSERT_EQ(t.bonds.size(), 3u);
  EXPECT_EQ(t.bonds[1].a, 1u);
  EXPECT_EQ(t.bonds[1].b, 2u);
  EXPECT_EQ(t.bonds[1].type, 1u);
  EXPECT_EQ(t.bonds[2].type, 2u);
  ASSERT_EQ(t.angles.size(), 2u);
  EXPECT_EQ(t.angles[1].a, 1u);
  EXPECT_EQ(t.angles[1].b, 2u);
  EXPECT_EQ(t.angles[1].c, 3u);
  EXPECT_EQ(t.angles[1].type, 1u);
  EXPECT_FALSE(t.empty());
  EXPECT_NO_THROW(t.validate(4));
}

TEST(TopologyReader, TypesOnlyIsEmpty) {
  const Topology t = read("bond_type s harmonic 1 1\n# nothing else\n");
  EXPECT_TRUE(t.empty());
  EXPECT_TRUE(read("").empty());
}

TEST(TopologyReader, RejectsBadRecordsWithLineAndField) {
  expect_read_error("bond_type s harmonic 1 1\nbonds s 0 1\n",
                    "test.top:2: unknown record 'bonds' (bond_type, angle_type, bond, angle)");
  expect_read_error("bond s 0 1\n", "test.top:1: bond_type 's' is not declared");
  expect_read_error("angle_type b harmonic 1 90\nangle a 0 1 2\n", "test.top:2: angle_type 'a' is not declared");
  expect_read_error("bond_type s harmonic 1 1\nbond_type s fene 30 1.5\n",
                    "test.top:2: bond_type 's' is declared twice");
  expect_read_error("angle_type b harmonic 1 90\nangle_type b harmonic 2 90\n",
                    "test.top:2: angle_type 'b' is declared twice");
  expect_read_error("bond_type s harmonic 1x 1\n", "test.top:1: k = '1x' is not a finite number");
  expect_read_error("bond_type s harmonic 1 nan\n", "r0 = 'nan' is not a finite number");
  expect_read_error("bond_type s fene 30 inf\n", "r_max = 'inf' is not a finite number");
  expect_read_error("angle_type b harmonic 1 ninety\n", "theta0 = 'ninety' is not a finite number");
  expect_read_error("bond_type s harmonic 1 1\nbond s -1 2\n", "test.top:2: tag a = '-1' is not a tag");
  expect_read_error("bond_type s harmonic 1 1\nbond s 0 1.5\n", "tag b = '1.5' is not a tag");
  expect_read_error("bond_type s harmonic 1 1\nbond s 0 4294967296\n", "tag b = '4294967296' is not a tag");
  expect_read_error("bond_type s harmonic 1 1\nbond s 0 1 2\n",
                    "test.top:2: unexpected extra fields after the bond record");
  expect_read_error("bond_type s fene 30 1.5 1 1 7\n", "unexpected extra fields after the bond_type record");
  expect_read_error("angle_type b harmonic 1 90 3\n", "unexpected extra fields after the angle_type record");
  expect_read_error("bond_type s fene 30 1.5 1\n", "test.top:1: missing sigma");
  expect_read_error("bond_type s harmonic 1 1\nbond s 0\n", "test.top:2: missing tag b");
  expect_read_error("bond_type s cubic 1 1\n", "bond kind 'cubic' is not one of harmonic, fene, table");
  expect_read_error("angle_type b cosine 1 90\n", "angle kind 'cosine' is not one of harmonic, table");
}

TEST(TopologyReader, RefusesABondOrAngleListedTwice) {
  const std::string types = "bond_type s harmonic 1 1\nbond_type t fene 30 1.5\nangle_type b harmonic 1 90\n";
  expect_read_error(types + "bond s 0 1\nbond s 0 1\n", "test.top:5: bond 0 1 is listed twice (first at line 4)");
  // Either direction, any type: the pair's force would be added twice.
  expect_read_error(types + "bond s 0 1\nbond s 1 2\nbond t 1 0\n",
                    "test.top:6: bond 1 0 is listed twice (first at line 4)");
  expect_read_error(types + "angle b 0 1 2\nangle b 2 1 0\n",
                    "test.top:5: angle 2 1 0 is listed twice (first at line 4)");
  // Other bonds of the same tags, and angles of another vertex, are not.
  const Topology t = read(types + "bond s 0 1\nbond s 0 2\nangle b 0 1 2\nangle b 1 0 2\nangle b 0 2 1\n");
  EXPECT_EQ(t.bonds.size(), 2u);
  EXPECT_EQ(t.angles.size(), 3u);
}

TEST(TopologyReader, MissingFileIsNamed) {
  const std::string msg = error_of([] { read_topology_file("/nonexistent/x.top"); });
  EXPECT_NE(msg.find("cannot read topology file '/nonexistent/x.top': No such file"), std::string::npos) << msg;
}

TEST(TopologyReader, RefusesWhatIsNotARegularFile) {
  // A directory reads as an empty stream on Linux: it was an empty topology.
  const std::string dir = (std::filesystem::temp_directory_path() / "meso_topology_dir").string();
  std::filesystem::create_directory(dir);
  std::string msg = error_of([&] { read_topology_file(dir); });
  EXPECT_NE(msg.find("topology file '" + dir + "' is a directory, not a file"), std::string::npos) << msg;
  std::filesystem::remove(dir);
  msg = error_of([] { read_topology_file("/dev/zero"); });  // never ends
  EXPECT_NE(msg.find("'/dev/zero' is a character device"), std::string::npos) << msg;
}

TEST(TopologyReader, QuotesShortPrintableExcerpts) {
  // A long field is quoted by its first 60 characters and its size (a
  // 5 MB one was echoed whole; a line that long is refused below).
  std::string msg = error_of([] { read("bond_type s harmonic " + std::string(50000, '7') + "x 1\n"); });
  EXPECT_LT(msg.size(), 200u) << msg.substr(0, 300);
  EXPECT_NE(msg.find("k = '" + std::string(60, '7') + "... (50001 bytes)' is not a finite number"),
            std::string::npos) << msg.substr(0, 300);
  // Binary bytes are escaped, never written raw to a terminal.
  msg = error_of([] { read(std::string("\x7f" "ELF\x02\x01\x01\0\0 x\n", 12)); });
  EXPECT_NE(msg.find("unknown record '\\x7fELF\\x02\\x01\\x01\\x00\\x00'"), std::string::npos) << msg;
  // A binary file without newlines is refused after one line's worth.
  msg = error_of([] { read(std::string(100000, '\x01')); });
  EXPECT_NE(msg.find("test.top:1: the line is longer than 65536 bytes"), std::string::npos) << msg.substr(0, 300);
  EXPECT_LT(msg.size(), 250u);
}

TEST(TopologyReader, ReadsWindowsLineEnds) {
  const Topology t = read("bond_type s harmonic 1 1\r\nbond s 0 1\r\n");
  ASSERT_EQ(t.bonds.size(), 1u);
  EXPECT_EQ(t.bonds[0].b, 1u);
}

TEST(TopologyValidate, RejectsInconsistentEntries) {
  const std::string types = "bond_type s harmonic 1 1\nangle_type b harmonic 1 90\n";
  expect_invalid(types + "bond s 0 5\n", 4,
                 "topology: bond 0 names tag 5, but the system has 4 particles (tags 0 .. 3)");
  expect_invalid(types + "bond s 0 1\nangle b 0 1 4\n", 4, "topology: angle 0 names tag 4");
  // N = 0 has no tags at all (it printed "tags 0 .. 18446744073709551615").
  expect_invalid(types + "bond s 0 1\n", 0, "topology: bond 0 names tag 0, but the system has no particles");
  expect_invalid(types + "bond s 0 1\nbond s 2 2\n", 4, "topology: bond 1 joins tag 2 to itself");
  expect_invalid(types + "angle b 0 1 0\n", 4, "topology: angle 0 (0, 1, 0) repeats a tag");
  expect_invalid(types + "angle b 1 1 2\n", 4, "repeats a tag");
  expect_invalid("angle_type b harmonic 1 190\n", 4, "angle_type b: theta0 = 190 degrees is outside [0, 180]");
  expect_invalid("angle_type b harmonic 1 -10\n", 4, "theta0 = -10 degrees is outside [0, 180]");
  expect_invalid("angle_type b harmonic 0 90\n", 4, "angle_type b k = 0 is invalid");
  expect_invalid("bond_type s harmonic -2 1\n", 4, "bond_type s k = -2 is invalid");
  expect_invalid("bond_type s harmonic 2 -1\n", 4, "bond_type s r0 = -1 is invalid");
  expect_invalid("bond_type s fene 30 0\n", 4, "bond_type s r_max = 0 is invalid");
  expect_invalid("bond_type s fene 30 1.5 -1 1\n", 4, "bond_type s epsilon = -1 is invalid");
  expect_invalid("bond_type s fene 30 1.5 1 0\n", 4, "bond_type s sigma = 0 is invalid");
  // Types out of range can only come from code, not from the reader.
  Topology t = read(types);
  t.bonds.push_back({0, 1, 3});
  EXPECT_NE(error_of([&] { t.validate(4); }).find("topology: bond 0 has type 3 of 1"), std::string::npos);
  t.bonds.clear();
  t.angles.push_back({0, 1, 2, 1});
  EXPECT_NE(error_of([&] { t.validate(4); }).find("topology: angle 0 has type 1 of 1"), std::string::npos);
  // The extremes of theta0 are allowed.
  EXPECT_NO_THROW(read("angle_type a harmonic 1 0\nangle_type b harmonic 1 180\n").validate(1));
}

// A system of four particles, tags 0..3, with a topology.
System small_system(const std::string& topology) {
  System sys;
  sys.box = Box(10.0);
  sys.pair_table<physics::DpdPairParams>().set(0, 0, {25.0, 4.5, 3.0, 1.0, 1.0});
  sys.particles.resize(4);
  for (uint32_t i = 0; i < 4; ++i) {
    sys.particles.position[i] = {0.9 * i, 0.0, 0.0};
    sys.particles.velocity[i] = {0.0, 0.0, 0.0};
    sys.particles.tag[i] = 3 - i;  // any order, as long as the tags are 0 .. N-1
    sys.particles.type[i] = 0;
    sys.particles.image[i] = {0, 0, 0};
  }
  sys.topology = read(topology);
  return sys;
}

TEST(TopologyValidate, SystemValidateChecksTheTopology) {
  const std::string chain = "bond_type s harmonic 1 1\nbond s 0 1\nbond s 1 2\nbond s 2 3\n";
  EXPECT_NO_THROW(small_system(chain).validate(0.3));
  const std::string msg = error_of([&] { small_system(chain + "bond s 3 4\n").validate(0.3); });
  EXPECT_NE(msg.find("topology: bond 3 names tag 4, but the system has 4 particles"), std::string::npos) << msg;
  // Tags 0, 1, 2, 7: unique, but the lists are indexed by tag.
  System gap = small_system(chain);
  gap.particles.tag[0] = 7;
  const std::string gap_msg = error_of([&] { gap.validate(0.3); });
  EXPECT_NE(gap_msg.find("particle tag 7 is out of range for a system with a topology: its tags must be 0 .. N-1 = 3"),
            std::string::npos)
      << gap_msg;
  // Without a topology any unique tags do.
  gap.topology = {};
  EXPECT_NO_THROW(gap.validate(0.3));
}

TEST(BondedLists, RowsOfAHandMadeChainKeepTopologyOrder) {
  // The chain 0-1-2-3, its bonds listed out of order, and its two angles.
  Topology t = read(
      "bond_type s harmonic 1 1\nbond_type f fene 30 1.5\nangle_type b harmonic 1 180\n"
      "bond s 2 3\nbond f 0 1\nbond s 1 2\n"
      "angle b 0 1 2\nangle b 3 2 1\n");
  t.validate(5);
  const BondedLists l = make_bonded_lists(t, 5);  // tag 4 takes part in nothing
  EXPECT_EQ(l.bond_start, (std::vector<uint32_t>{0, 1, 3, 5, 6, 6}));
  // Row of 1: bond (0, 1) comes first in the topology, then (1, 2); row of
  // 2: (2, 3) first, then (1, 2).
  EXPECT_EQ(l.bond_partner, (std::vector<uint32_t>{1, 0, 2, 3, 1, 2}));
  EXPECT_EQ(l.bond_type, (std::vector<uint32_t>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(l.angle_start, (std::vector<uint32_t>{0, 1, 3, 5, 6, 6}));
  // Each entry is the whole angle (a, b, c), whichever role the row's
  // particle has in it.
  EXPECT_EQ(l.angle_tags, (std::vector<uint32_t>{0, 1, 2,           // tag 0
                                                 0, 1, 2, 3, 2, 1,  // tag 1
                                                 0, 1, 2, 3, 2, 1,  // tag 2
                                                 3, 2, 1}));        // tag 3
  EXPECT_EQ(l.angle_type, (std::vector<uint32_t>{0, 0, 0, 0, 0, 0}));
  // Out of range tags are refused, not written out of bounds.
  const std::string msg = error_of([&] { make_bonded_lists(t, 3); });
  EXPECT_NE(msg.find("names tag 3, but the system has 3 particles"), std::string::npos) << msg;
}

TEST(BondedLists, EmptyTopology) {
  const BondedLists l = make_bonded_lists(Topology{}, 3);
  EXPECT_EQ(l.bond_start, (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_EQ(l.angle_start, (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_TRUE(l.bond_partner.empty());
  EXPECT_TRUE(l.angle_tags.empty());
}

}  // namespace
