#include "decimal_number.hpp"

#include <charconv>
#include <cmath>

namespace meso::bench {

std::optional<double> parse_decimal(std::string_view text) {
  // from_chars in the general format reads no base prefix and no blanks;
  // its "inf" and "nan" are refused as not finite. It takes no '+': one is
  // skipped where a digit or point follows.
  if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  double x = 0.0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, x, std::chars_format::general);
  if (ec != std::errc{} || p != end || !std::isfinite(x)) return std::nullopt;
  return x;
}

std::optional<uint64_t> parse_decimal_count(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  uint64_t x = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, x);
  if (ec != std::errc{} || p != end) return std::nullopt;
  return x;
}

}  // namespace meso::bench
