#include "table_file.hpp"

#include <cmath>
#include <set>
#include <sstream>

#include "meso/core/error.hpp"

namespace meso::table_file {
namespace {

// The line without its comment, and whether anything is left.
std::string strip(const std::string& line) {
  const std::string s = line.substr(0, line.find('#'));
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

}  // namespace

double number(const std::string& field, const char* what, const std::string& source, std::size_t line) {
  std::size_t used = 0;
  double x = 0.0;
  try {
    x = std::stod(field, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != field.size() || !std::isfinite(x))
    throw_input_error(source, ":", line, ": ", what, " '", field, "' is not a finite number");
  return x;
}

void read_sections(std::istream& in, const std::string& source, const Format& format) {
  std::set<std::string> seen;
  Section s;
  bool open = false;  // inside a section whose N line was read
  std::size_t sections = 0;
  auto finish = [&] {
    if (s.x.size() != s.n)
      throw_input_error(source, ": table ", s.keyword, " (line ", s.line, ") has ", s.x.size(),
                        " entries, its N line ", s.n);
    format.done(s);
    ++sections;
    open = false;
  };
  std::string raw;
  std::size_t line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::string text = strip(raw);
    if (text.empty()) continue;
    std::istringstream fields(text);
    std::vector<std::string> w;
    for (std::string x; fields >> x;) w.push_back(x);
    if (open && s.x.size() < s.n) {
      if (w.size() != 4)
        throw_input_error(source, ":", line, ": table ", s.keyword, " entry ", s.x.size() + 1, " has ", w.size(),
                          " fields (index ", format.x_name, " V F)");
      const double index = number(w[0], "index", source, line);
      if (index != double(s.x.size() + 1))
        throw_input_error(source, ":", line, ": table ", s.keyword, " index ", w[0], " where ", s.x.size() + 1,
                          " is due");
      const double x = number(w[1], format.x_name, source, line);
      const double v = number(w[2], "V", source, line);
      const double f = number(w[3], "F", source, line);
      format.check(s, x, w[1], line);
      if (!s.x.empty() && !(x > s.x.back()))
        throw_input_error(source, ":", line, ": ", format.x_name, " = ", w[1], " does not increase (the previous ",
                          format.x_name, " is ", s.x.back(), ")");
      s.x.push_back(x), s.v.push_back(v), s.f.push_back(f);
      continue;
    }
    if (open) finish();  // the section is complete: this line starts the next one
    if (s.keyword.empty() || s.n > 0) {  // a keyword line
      if (w.size() != 1)
        throw_input_error(source, ":", line, ": '", text, "' where a table keyword (one word) is due");
      if (!seen.insert(w[0]).second) throw_input_error(source, ":", line, ": table ", w[0], " appears twice");
      s = Section{};
      s.keyword = w[0];
      s.line = line;
      continue;
    }
    // The N line of the section whose keyword was just read.
    if (w.size() < 2 || w[0] != "N")
      throw_input_error(source, ":", line, ": table ", s.keyword, " needs '", format.n_usage, "', not '", text, "'");
    const double n = number(w[1], "N", source, line);
    if (!(n >= 2.0 && n <= 1e7 && n == std::floor(n)))
      throw_input_error(source, ":", line, ": N = ", w[1], " (a whole number from 2 to 1e7)");
    s.n = static_cast<uint64_t>(n);
    s.n_line = line;
    format.options(s, w, line);
    open = true;
  }
  if (!s.keyword.empty() && !open && s.n == 0)
    throw_input_error(source, ":", s.line, ": table ", s.keyword, " has no N line");
  if (open) finish();
  if (sections == 0) throw_input_error(source, ": no table in the file");
}

}  // namespace meso::table_file
