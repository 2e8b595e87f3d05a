#include "meso/core/topology.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "meso/core/error.hpp"
#include "meso/io/input_file.hpp"

namespace meso {
namespace {

constexpr double kPi = 3.14159265358979323846;

void check_tag(uint64_t tag, uint64_t ntags, const char* what, std::size_t index) {
  if (ntags == 0)
    throw_input_error("topology: ", what, " ", index, " names tag ", tag, ", but the system has no particles");
  if (tag >= ntags)
    throw_input_error("topology: ", what, " ", index, " names tag ", tag, ", but the system has ",
                      ntags, " particles (tags 0 .. ", ntags - 1, ")");
}

// A line longer than this is no topology record (the longest is a FENE
// bond type: a name and four numbers, or a long comment); a binary file
// read as text would otherwise be held whole as one line.
constexpr std::size_t kMaxLine = 65536;

// The next line of `in` into `text` (without its newline); false at the
// end. Refuses a line longer than kMaxLine before reading past it.
bool next_line(std::istream& in, std::string& text, const std::string& source, std::size_t line_no) {
  text.clear();
  std::istream::int_type c;
  while ((c = in.get()) != std::istream::traits_type::eof()) {
    if (c == '\n') {
      if (!text.empty() && text.back() == '\r') text.pop_back();  // a file written on Windows
      return true;
    }
    if (text.size() == kMaxLine)
      throw_input_error(excerpt(source, 200), ":", line_no, ": the line is longer than ", kMaxLine,
                        " bytes (is this a topology file?): '", excerpt(text), "'");
    text += static_cast<char>(c);
  }
  return !text.empty();
}

// One parser state: the line being read and where it came from.
struct LineReader {
  const std::string& source;
  std::size_t line_no;
  std::istringstream in;

  [[noreturn]] void fail(const std::string& what) const {
    throw_input_error(excerpt(source, 200), ":", line_no, ": ", what);
  }
  std::string word(const char* field) {
    std::string w;
    if (!(in >> w)) fail(std::string("missing ") + field);
    return w;
  }
  double number(const char* field) {
    const std::string w = word(field);
    std::size_t used = 0;
    double v = 0.0;
    try {
      v = std::stod(w, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != w.size() || !std::isfinite(v)) fail(std::string(field) + " = '" + excerpt(w) + "' is not a finite number");
    return v;
  }
  uint32_t tag(const char* field) {
    const std::string w = word(field);
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
      v = std::stoull(w, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != w.size() || w[0] == '-' || v > 0xffffffffull) fail(std::string(field) + " = '" + excerpt(w) + "' is not a tag");
    return static_cast<uint32_t>(v);
  }
  bool more() {
    std::string w;
    return static_cast<bool>(in >> w);
  }
};

template <class T>
uint32_t type_index(const std::vector<T>& types, const std::string& name, LineReader& r,
                    const char* kind) {
  for (std::size_t k = 0; k < types.size(); ++k)
    if (types[k].name == name) return static_cast<uint32_t>(k);
  r.fail(std::string(kind) + " '" + excerpt(name) + "' is not declared (declare it with " + kind + " first)");
}

// The table a `table FILE KEYWORD` type names; FILE is relative to the
// directory of the topology file `source` unless absolute.
BondedTable read_table(LineReader& r, const std::string& source, TableKind kind) {
  const std::string file = r.word("table file"), keyword = r.word("table keyword");
  std::filesystem::path path(file);
  if (path.is_relative()) path = std::filesystem::path(source).parent_path() / path;
  try {
    return read_bonded_table_file(path.string(), keyword, kind);
  } catch (const InputError& e) {
    r.fail(e.what());
  }
}

}  // namespace

bool Topology::has_tables() const {
  for (const BondType& t : bond_types)
    if (t.kind == BondKind::table) return true;
  for (const AngleType& t : angle_types)
    if (t.kind == AngleKind::table) return true;
  return false;
}

void Topology::validate(uint64_t ntags) const {
  auto check_table = [](const std::string& what, uint32_t index, const std::vector<BondedTable>& tables,
                        TableKind kind) {
    if (index >= tables.size())
      throw_input_error(what, ": table ", index, " of ", tables.size());
    if (tables[index].kind != kind)
      throw_input_error(what, ": table ", tables[index].name, " is not a ", kind == TableKind::bond ? "bond" : "angle",
                        " table");
  };
  for (std::size_t k = 0; k < bond_types.size(); ++k) {
    const BondType& t = bond_types[k];
    const std::string what = "bond_type " + excerpt(t.name);
    if (t.kind == BondKind::table) {
      check_table(what, t.table, bond_tables, TableKind::bond);
    } else if (t.kind == BondKind::harmonic) {
      require_positive((what + " k").c_str(), t.harmonic.k);
      require_non_negative((what + " r0").c_str(), t.harmonic.r0);
    } else {
      require_positive((what + " k").c_str(), t.fene.k);
      require_positive((what + " r_max").c_str(), t.fene.r_max);
      require_non_negative((what + " epsilon").c_str(), t.fene.epsilon);
      require_positive((what + " sigma").c_str(), t.fene.sigma);
    }
  }
  for (const AngleType& t : angle_types) {
    if (t.kind == AngleKind::table) {
      check_table("angle_type " + excerpt(t.name), t.table, angle_tables, TableKind::angle);
      continue;
    }
    require_positive(("angle_type " + excerpt(t.name) + " k").c_str(), t.harmonic.k);
    if (!(t.harmonic.theta0 >= 0.0 && t.harmonic.theta0 <= kPi))
      throw_input_error("angle_type ", excerpt(t.name), ": theta0 = ", t.harmonic.theta0 * 180.0 / kPi,
                        " degrees is outside [0, 180]");
  }
  for (std::size_t k = 0; k < bonds.size(); ++k) {
    const Bond& b = bonds[k];
    check_tag(b.a, ntags, "bond", k);
    check_tag(b.b, ntags, "bond", k);
    if (b.a == b.b) throw_input_error("topology: bond ", k, " joins tag ", b.a, " to itself");
    if (b.type >= bond_types.size())
      throw_input_error("topology: bond ", k, " has type ", b.type, " of ", bond_types.size());
  }
  for (std::size_t k = 0; k < angles.size(); ++k) {
    const Angle& a = angles[k];
    check_tag(a.a, ntags, "angle", k);
    check_tag(a.b, ntags, "angle", k);
    check_tag(a.c, ntags, "angle", k);
    if (a.a == a.b || a.b == a.c || a.a == a.c)
      throw_input_error("topology: angle ", k, " (", a.a, ", ", a.b, ", ", a.c,
                        ") repeats a tag");
    if (a.type >= angle_types.size())
      throw_input_error("topology: angle ", k, " has type ", a.type, " of ", angle_types.size());
  }
}

Topology read_topology(std::istream& in, const std::string& source) {
  Topology t;
  // The line of each bond by its tags in order, and of each angle by its
  // vertex and ends in order: a bond or angle listed twice (in either
  // direction, of any type) would add its force twice.
  std::unordered_map<uint64_t, std::size_t> bond_line;
  std::map<std::array<uint32_t, 3>, std::size_t> angle_line;
  std::string text;
  std::size_t line_no = 0;
  while (next_line(in, text, source, line_no + 1)) {
    ++line_no;
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    LineReader r{source, line_no, std::istringstream(text)};
    std::string key;
    if (!(r.in >> key)) continue;  // blank or comment
    if (key == "bond_type") {
      BondType bt;
      bt.name = r.word("name");
      const std::string kind = r.word("kind");
      if (kind == "harmonic") {
        bt.kind = BondKind::harmonic;
        bt.harmonic.k = r.number("k");
        bt.harmonic.r0 = r.number("r0");
      } else if (kind == "fene") {
        bt.kind = BondKind::fene;
        bt.fene.k = r.number("k");
        bt.fene.r_max = r.number("r_max");
        std::string eps;
        if (r.in >> eps) {
          r.in.clear();
          r.in.seekg(0);
          for (int skip = 0; skip < 5; ++skip) r.word("field");
          bt.fene.epsilon = r.number("epsilon");
          bt.fene.sigma = r.number("sigma");
        }
      } else if (kind == "table") {
        bt.kind = BondKind::table;
        bt.table = static_cast<uint32_t>(t.bond_tables.size());
        t.bond_tables.push_back(read_table(r, source, TableKind::bond));
      } else {
        r.fail("bond kind '" + excerpt(kind) + "' is not one of harmonic, fene, table");
      }
      for (const BondType& o : t.bond_types)
        if (o.name == bt.name) r.fail("bond_type '" + excerpt(bt.name) + "' is declared twice");
      t.bond_types.push_back(bt);
    } else if (key == "angle_type") {
      AngleType at;
      at.name = r.word("name");
      const std::string kind = r.word("kind");
      if (kind == "harmonic") {
        at.harmonic.k = r.number("k");
        at.harmonic.theta0 = r.number("theta0") * kPi / 180.0;
      } else if (kind == "table") {
        at.kind = AngleKind::table;
        at.table = static_cast<uint32_t>(t.angle_tables.size());
        t.angle_tables.push_back(read_table(r, source, TableKind::angle));
      } else {
        r.fail("angle kind '" + excerpt(kind) + "' is not one of harmonic, table");
      }
      for (const AngleType& o : t.angle_types)
        if (o.name == at.name) r.fail("angle_type '" + excerpt(at.name) + "' is declared twice");
      t.angle_types.push_back(at);
    } else if (key == "bond") {
      const uint32_t type = type_index(t.bond_types, r.word("type"), r, "bond_type");
      const uint32_t a = r.tag("tag a"), b = r.tag("tag b");
      const uint64_t key = uint64_t(std::min(a, b)) << 32 | std::max(a, b);
      if (const auto [at, fresh] = bond_line.emplace(key, line_no); !fresh)
        r.fail("bond " + std::to_string(a) + " " + std::to_string(b) + " is listed twice (first at line " +
               std::to_string(at->second) + ")");
      t.bonds.push_back({a, b, type});
    } else if (key == "angle") {
      const uint32_t type = type_index(t.angle_types, r.word("type"), r, "angle_type");
      const uint32_t a = r.tag("tag a"), b = r.tag("tag b"), c = r.tag("tag c");
      if (const auto [at, fresh] = angle_line.emplace(std::array{std::min(a, c), b, std::max(a, c)}, line_no); !fresh)
        r.fail("angle " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(c) +
               " is listed twice (first at line " + std::to_string(at->second) + ")");
      t.angles.push_back({a, b, c, type});
    } else {
      r.fail("unknown record '" + excerpt(key) + "' (bond_type, angle_type, bond, angle)");
    }
    if (r.more()) r.fail("unexpected extra fields after the " + key + " record");  // key is one of the four
  }
  return t;
}

Topology read_topology_file(const std::string& path) {
  std::ifstream in = io::open_input_file(path, "topology file");
  return read_topology(in, path);
}

BondedLists make_bonded_lists(const Topology& t, uint64_t ntags) {
  BondedLists l;
  l.bond_start.assign(ntags + 1, 0);
  l.angle_start.assign(ntags + 1, 0);
  // The rows are indexed by tag: a tag out of range would write out of
  // bounds (validate() normally refused it already).
  for (std::size_t k = 0; k < t.bonds.size(); ++k) {
    const Bond& b = t.bonds[k];
    check_tag(b.a, ntags, "bond", k);
    check_tag(b.b, ntags, "bond", k);
    ++l.bond_start[b.a + 1];
    ++l.bond_start[b.b + 1];
  }
  for (std::size_t k = 0; k < t.angles.size(); ++k) {
    const Angle& a = t.angles[k];
    for (uint32_t who : {a.a, a.b, a.c}) check_tag(who, ntags, "angle", k);
    ++l.angle_start[a.a + 1];
    ++l.angle_start[a.b + 1];
    ++l.angle_start[a.c + 1];
  }
  for (uint64_t k = 0; k < ntags; ++k) {
    l.bond_start[k + 1] += l.bond_start[k];
    l.angle_start[k + 1] += l.angle_start[k];
  }
  l.bond_partner.resize(l.bond_start[ntags]);
  l.bond_type.resize(l.bond_start[ntags]);
  l.angle_tags.resize(3 * std::size_t(l.angle_start[ntags]));
  l.angle_type.resize(l.angle_start[ntags]);
  std::vector<uint32_t> fill(l.bond_start.begin(), l.bond_start.end() - 1);
  for (const Bond& b : t.bonds) {
    l.bond_partner[fill[b.a]] = b.b;
    l.bond_type[fill[b.a]++] = b.type;
    l.bond_partner[fill[b.b]] = b.a;
    l.bond_type[fill[b.b]++] = b.type;
  }
  fill.assign(l.angle_start.begin(), l.angle_start.end() - 1);
  for (const Angle& a : t.angles)
    for (uint32_t who : {a.a, a.b, a.c}) {
      const uint32_t at = fill[who]++;
      l.angle_tags[3 * std::size_t(at)] = a.a;
      l.angle_tags[3 * std::size_t(at) + 1] = a.b;
      l.angle_tags[3 * std::size_t(at) + 2] = a.c;
      l.angle_type[at] = a.type;
    }
  return l;
}

}  // namespace meso
