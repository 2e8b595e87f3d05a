#include "meso/error.hpp"

#include <cmath>

namespace meso {

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
