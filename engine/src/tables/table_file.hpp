// The section structure LAMMPS's table files share (pair_style, bond_style
// and angle_style table), read once for every kind of table:
//
//   KEYWORD                  one table per keyword section
//   N count [options]        the options are the kind's own
//   1 x V F                  index, x (r or theta), V(x), F = -dV/dx:
//   ...                      count lines, x strictly increasing
//
// '#' starts a comment anywhere on a line. Errors name the source, the line
// and the field.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "meso/core/error.hpp"

namespace meso::table_file {

struct Section {
  std::string keyword;
  std::size_t line = 0;    // of the keyword
  std::size_t n_line = 0;  // of the N line
  uint64_t n = 0;
  std::vector<double> x, v, f;
};

struct Format {
  const char* x_name;   // in messages: "r", "theta"
  const char* n_usage;  // "N count [R|RSQ lo hi]"
  // Reads the N line's words after the count (w[2] ..) into the caller's state.
  std::function<void(const Section&, const std::vector<std::string>& w, std::size_t line)> options;
  // Refuses an entry's x outside the kind's domain or grid (field: as written).
  std::function<void(const Section&, double x, const std::string& field, std::size_t line)> check;
  // Called once a section is complete.
  std::function<void(const Section&)> done;
};

// Reads every section; InputError as the header says, and for a file with
// no section, a keyword twice, a section without its N line or with fewer
// entries than N.
void read_sections(std::istream& in, const std::string& source, const Format& format);

// The table called `keyword` among those read from the file at `path`, or an
// InputError naming the file and the keywords it has.
template <class Table>
Table pick(std::vector<Table> all, const std::string& path, const std::string& keyword) {
  std::string names;
  for (Table& t : all) {
    if (t.name == keyword) return std::move(t);
    names += (names.empty() ? "" : ", ") + t.name;
  }
  throw_input_error("table file '", path, "' has no table ", keyword, " (it has ", names, ")");
}

// The field as a finite number, or an InputError naming source, line and what.
double number(const std::string& field, const char* what, const std::string& source, std::size_t line);

}  // namespace meso::table_file
