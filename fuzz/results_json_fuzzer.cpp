// libFuzzer target: the results-JSON reader behind `mesobench compare`
// (read_results) and the comparison of two accepted files. The input is
// file A, then (after a line "---") file B; without one, B is A. Every
// input must be compared or refused with an InputError; anything else (a
// nlohmann::json type_error on a field of an unexpected type included) is
// a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include "compare.hpp"
#include "meso/core/error.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The comparison prints its table; the fuzzer's own output is on stderr.
  if (!std::freopen("/dev/null", "w", stdout)) return 1;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = text.find("\n---\n");
  const std::string a = text.substr(0, cut), b = cut == std::string::npos ? a : text.substr(cut + 5);
  try {
    std::istringstream ia(a), ib(b);
    const nlohmann::json A = meso::bench::read_results(ia, "a.json");
    const nlohmann::json B = meso::bench::read_results(ib, "b.json");
    (void)meso::bench::compare_results(A, B, {"a.json", "b.json", 5.0});
  } catch (const meso::InputError&) {
  }
  return 0;
}
