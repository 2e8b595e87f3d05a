#include "meso/core/error.hpp"

#include <cmath>
#include <cstdio>

namespace meso {

std::string excerpt(std::string_view text, std::size_t max) {
  std::string out;
  std::size_t k = 0;
  for (; k < text.size() && out.size() < max; ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (k < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

void require_finite(const char* name, double value) {
  if (!std::isfinite(value)) throw_input_error(name, " = ", value, " is invalid: it must be finite");
}

void require_positive(const char* name, double value) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw_input_error(name, " = ", value, " is invalid: it must be a finite number > 0");
}

void require_non_negative(const char* name, double value) {
  if (!(value >= 0.0) || !std::isfinite(value))
    throw_input_error(name, " = ", value, " is invalid: it must be a finite number >= 0");
}

}  // namespace meso
