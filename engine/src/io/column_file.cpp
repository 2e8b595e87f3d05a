#include "meso/io/column_file.hpp"

#include <cmath>
#include <sstream>

#include "meso/core/error.hpp"
#include "meso/io/input_file.hpp"

namespace meso::io {

TwoColumns read_two_columns(const std::string& path, const char* what, const char* x_name, const char* y_name) {
  std::ifstream in = open_input_file(path, what);
  TwoColumns out;
  std::string text;
  std::size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    const auto hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    std::istringstream ls(text);
    std::string a, b;
    if (!(ls >> a)) continue;  // blank or comment
    double x = 0.0, y = 0.0;
    std::size_t used_a = 0, used_b = 0;
    try {
      if (!(ls >> b)) throw std::invalid_argument("one field");
      x = std::stod(a, &used_a);
      y = std::stod(b, &used_b);
    } catch (const std::exception&) {
      throw_input_error(path, ":", line, ": expected two numbers, ", x_name, " and ", y_name);
    }
    if (used_a != a.size() || used_b != b.size() || !std::isfinite(x) || !std::isfinite(y))
      throw_input_error(path, ":", line, ": expected two finite numbers, ", x_name, " and ", y_name);
    if (y < 0.0) throw_input_error(path, ":", line, ": ", y_name, " = ", y, " is negative");
    out.x.push_back(x);
    out.y.push_back(y);
    out.line.push_back(line);
  }
  return out;
}

}  // namespace meso::io
