// Errors the user can fix. Anything wrong with options, config values or
// physical parameters is reported as an InputError: the message names the bad
// value and the allowed range, and the command-line tools exit with code 2
// (ARCHITECTURE.md, "Conventions") before any output file is opened.
#pragma once

#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace meso {

inline constexpr int kExitInputError = 2;

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A host or device allocation failed (the CUDA backend throws it for
// cudaErrorMemoryAllocation; the host throws std::bad_alloc). Front ends
// turn both into an input error naming the system size, since a smaller
// system is the fix.
class OutOfMemory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Builds "name = value is invalid: requirement" messages from streamable parts.
template <class... Parts>
[[noreturn]] void throw_input_error(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  throw InputError(os.str());
}

// A value read from a file or the command line, fit to be quoted in a
// message: bytes outside printable ASCII as \xNN, and anything past `max`
// characters cut to "... (B bytes)". A message then stays one short line
// whatever the input holds (a 5 MB field, a binary file).
std::string excerpt(std::string_view text, std::size_t max = 60);

// Checks `value > 0` (and finite), naming the parameter when it is not.
void require_positive(const char* name, double value);
// Checks `value >= 0` (and finite).
void require_non_negative(const char* name, double value);
// Checks that `value` is finite.
void require_finite(const char* name, double value);

}  // namespace meso
