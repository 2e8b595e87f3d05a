// A variant selects how a backend traverses data, never the physics
// (DESIGN.md section 2.3). It is parsed from strings such as
// "nlist=ballot,pow=fast,precision=mixed,sort=100,rng=philox,fuse=off,tpp=4";
// unspecified axes keep their defaults. Every result records the variant it
// ran with, split into the axes the backend honoured and those it ignored.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace meso {

struct Variant {
  std::string nlist = "ballot";      // ballot | atomic | tiled
  std::string cells = "atomic";      // atomic | sorted
  std::string reorder = "none";      // none | morton2 | hilbert | cell
  uint32_t sort = 0;                 // reorder every N steps (0: never)
  std::string pow = "libm";          // libm | fast
  std::string precision = "double";  // double | mixed | single
  std::string rng = "philox";        // philox | tea
  std::string fuse = "off";          // off | on
  std::string tpp = "1";             // threads per particle in the LJ force kernel: 1 | 2 | 4 | 8 | 16 | 32

  // Parses "key=value,..." (empty string: all defaults). Throws InputError
  // naming the unknown key or value and listing the allowed ones.
  static Variant parse(std::string_view text);

  // Canonical "key=value,..." over all axes, in a fixed order.
  std::string to_string() const;
  // Canonical string restricted to `axes` (what a backend actually honoured).
  std::string to_string(const std::vector<std::string>& axes) const;

  // The names of all axes in canonical order.
  static const std::vector<std::string>& axes();
  // The value of one axis as a string.
  std::string get(std::string_view axis) const;

  bool operator==(const Variant&) const = default;
};

}  // namespace meso
