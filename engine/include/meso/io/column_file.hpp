// Distributions as text, one bin a line: "x y" (further columns ignored),
// '#' starting a comment anywhere on a line; the g(r) targets of IBI and its
// bond and angle targets alike.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace meso::io {

struct TwoColumns {
  std::vector<double> x, y;
  std::vector<std::size_t> line;  // of each row, for messages
};

// InputError naming the file and the line for a file that cannot be read
// (io::open_input_file), a line without two numbers, a field that is not
// wholly a finite number, or a negative y. `what` names the file's role
// ("g(r) file"); x_name and y_name the columns ("r", "g(r)").
TwoColumns read_two_columns(const std::string& path, const char* what, const char* x_name, const char* y_name);

}  // namespace meso::io
