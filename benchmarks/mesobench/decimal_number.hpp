// Numbers as a user writes them on the command line and in --param: plain
// decimal. std::stod and CLI11 would also take hexadecimal ("0x10" reads as
// 16), leading blanks and "inf"; a figure given in one of those forms is far
// more likely a slip than intended, so it is refused, not reinterpreted.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace meso::bench {

// [+|-]digits[.digits][e|E[+|-]digits] (or .digits), finite; nothing else.
std::optional<double> parse_decimal(std::string_view text);
// Digits only, at most 2^64 - 1: no sign, no blanks, no base prefix.
std::optional<uint64_t> parse_decimal_count(std::string_view text);

}  // namespace meso::bench
